package server

import "go.lsp.dev/protocol"

// codeAction is a code action as quire sends it: the LSP shape, with
// the edit and command types of this package.
type codeAction struct {
	Title       string                  `json:"title"`
	Kind        protocol.CodeActionKind `json:"kind,omitempty"`
	Diagnostics []protocol.Diagnostic   `json:"diagnostics,omitempty"`
	IsPreferred bool                    `json:"isPreferred,omitempty"`
	Edit        *workspaceEdit          `json:"edit,omitempty"`
	Command     *actionCommand          `json:"command,omitempty"`
}

// actionCommand is the command a code action runs; its one argument is
// the params object of the matching request.
type actionCommand struct {
	Title     string `json:"title"`
	Command   string `json:"command"`
	Arguments []any  `json:"arguments,omitempty"`
}
