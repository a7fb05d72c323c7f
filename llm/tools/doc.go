// Package tools holds the advisor's model tools: the bounded read tools
// through which the model reads the book (get_manuscript_context, the
// get_<type>_context lookups, list_codex_entries, search_codex,
// get_dialogue) and the
// review-only propose tools, bound to the Sources of one turn (its codex,
// manuscript snapshot and the writer's place), with the evidence of what
// they read and the tool groups and scopes a persona's settings name.
//
// Every tool answers in toolloop's envelope and never writes: a proposal
// is kept for the writer to review. What goes to the model names files by
// their project-relative paths only.
package tools
