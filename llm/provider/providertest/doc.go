// Package providertest is the fake provider for tests: an httptest
// OpenAI-compatible server that replays a script of structured or raw
// replies (chat completions and Responses API, streamed or not, errors
// with headers, delays) and records every request. The tests of the
// provider, the tool loop, provenance and the advisor share it, so it
// lives in a package of its own rather than in one package's tests. Like
// the eval server it imports nothing of the client it stands in for.
package providertest
