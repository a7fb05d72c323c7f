// Package llm is quire's advisor: the board of personas, the bounded tool
// loop against an OpenAI-compatible provider, and the tools through which
// the model reads the book (codex and manuscript) and proposes changes the
// writer reviews. The model never reads a path it chose and never writes.
package llm
