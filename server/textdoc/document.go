package textdoc

import "go.lsp.dev/protocol"

// Document is the editor's text of an open file at one version.
// Documents are immutable: a change makes a new one.
type Document struct {
	URI     protocol.DocumentURI
	Version int32
	Text    string
	Lines   *Lines
}

// NewDocument is the document uri names at version, with text.
func NewDocument(uri protocol.DocumentURI, version int32, text string) *Document {
	return &Document{URI: uri, Version: version, Text: text, Lines: NewLines(text)}
}
