// Package textdoc is the editor's text as LSP addresses it: file URIs
// and the paths they name (spelled as each client spells them), UTF-16
// positions over byte offsets, and open documents whose versions are
// applied in order however the editor sends them. It knows nothing of
// books; the server's features read a Document and convert positions
// through its Lines.
package textdoc
