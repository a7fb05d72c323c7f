// Package advisor reads the advisor's settings: the sections of
// quire.yaml (and of the writer's config.yaml, under it) that shape every
// persona's turn: the book's title, genre and audience, the writer's
// rules, each persona's tool scope and rules (personas:), the writer's
// tool groups (tool_groups:) and the bounds of the tool loop (limits:).
// It checks them with line and column, and layers the book's over the
// writer's.
//
// The board of personas and the turn that applies these settings are
// the llm root's (llm.Persona.With); the provider and MCP sections are
// llm/endpoint's.
package advisor
