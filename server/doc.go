// Package server is quire's language server: it speaks LSP over a
// JSON-RPC stream, keeps the editor's open documents, and answers from
// the codex and manuscript packages. Every position on the wire is UTF-16;
// this package converts them to the byte offsets the domain packages use.
package server
