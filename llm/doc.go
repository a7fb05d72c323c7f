// Package llm is quire's advisor: the board of personas, their prompts and
// scopes, and the tools through which the model reads the book (codex and
// manuscript) and proposes changes the writer reviews. The model never
// reads a path it chose and never writes.
//
// What does not need the book lives below, in packages that import
// nothing of it: llm/provider (the OpenAI-compatible client),
// llm/toolloop (tool registry, dispatcher and the bounded loop), llm/mcp
// (MCP both ways), llm/provenance (the record of provider calls),
// llm/localmodel (the models of servers on the writer's computer),
// llm/endpoint (the provider and MCP settings, guarded by the writer's
// trust, codex/trust) and llm/untrusted (the book's text made fit for a
// prompt). llm/actions (the advisor actions), llm/eval, the `quire eval`
// harness, and llm/health, the health report of `quire doctor` and
// quire/doctor, sit above.
package llm
