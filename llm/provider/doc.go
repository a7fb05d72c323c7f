// Package provider is quire's client of an OpenAI-compatible model: Chat
// Completions and OpenAI's Responses API, plain or streamed, with retries,
// service tiers, the quirks that repair what smaller servers send, and
// redaction of request bodies and errors before anything is logged. It
// owns the conversation's shapes (Message, ToolCall) and the definition
// of a tool as the model is offered it (Tool).
//
// It is book-blind: it knows nothing of codex, manuscript, personas or
// settings files, and imports nothing else of quire, so everything above
// (the tool loop, provenance, the advisor) can lean on it without a cycle.
package provider
