// Package llm is quire's advisor turn: the board of personas and their
// prompts, and the turn that asks one of them a question (NewTurn, Ask,
// Peek) through the provider, with the tools through which the model
// reads the book (codex and manuscript) and proposes changes the writer
// reviews. The model never reads a path it chose and never writes.
//
// The model's tools are llm/tools (the read and propose tools over one
// turn's Sources, their evidence, tool groups and scopes); the advisor's
// settings sections of quire.yaml are llm/advisor. What does not
// need the book lives below, in packages that import nothing of it:
// llm/provider (the OpenAI-compatible client), llm/toolloop (tool
// registry, dispatcher and the bounded loop), llm/mcp (MCP both ways),
// llm/provenance (the record of provider calls), llm/localmodel (the
// models of servers on the writer's computer), llm/endpoint (the
// provider and MCP settings, guarded by the writer's trust, codex/trust)
// and llm/untrusted (the book's text made fit for a prompt).
// llm/actions (the advisor actions), llm/eval, the `quire eval` harness,
// and llm/health, the health report of `quire doctor` and quire/doctor,
// sit above.
package llm
