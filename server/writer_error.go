package server

import (
	"encoding/json"

	"go.lsp.dev/jsonrpc2"

	"github.com/quire-ink/quire/llm"
)

// What a writer reads when an ask fails says what went wrong and what to
// do, in words (llm.FailureText): never a JSON-RPC code, a Go error chain
// or "dial tcp". The server shapes it as an LSP error.

// askError is the LSP error of a failed ask: the writer's sentence
// (llm.FailureText), and for an answer cut off mid-stream what arrived of
// it, whole, as the error's data {"partial": text}.
func askError(err error, baseURL string) *jsonrpc2.Error {
	e := jsonrpc2.NewError(jsonrpc2.InternalError, llm.FailureText(err, baseURL))
	if partial, ok := llm.CutOff(err); ok {
		if data, err := json.Marshal(map[string]string{"partial": partial}); err == nil {
			raw := json.RawMessage(data)
			e.Data = &raw
		}
	}
	return e
}
