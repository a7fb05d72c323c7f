// Package evalserver is the scripted model: an OpenAI-compatible chat
// completions endpoint on the loopback interface that replays a script of
// raw replies, one per request, streaming them the way providers split
// them. `quire eval` runs its offline scenarios against it and the tests
// of every layer (provider, tool loop, advisor, server, CLI, editors)
// point quire at it. It is book-blind and imports nothing of quire: it
// reads the wire on its own, so it never shares a bug with the client it
// stands in for.
package evalserver
