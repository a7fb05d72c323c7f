// Package manuscript reads a book's chapters: it finds and orders them,
// overlays the text of documents open in an editor, resolves the references
// the advisor's get_manuscript_context tool takes, captures selections,
// finds where codex names are mentioned in prose, notices names that have
// no codex entry, and traces codex sentences back to the passages that
// support them. Like codex it knows nothing of LSP or LLMs; positions are
// byte offsets.
package manuscript
