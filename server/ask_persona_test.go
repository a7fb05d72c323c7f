package server

import (
	"maps"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/jsonrpc2"

	"github.com/quire-ink/quire/llm"
	"github.com/quire-ink/quire/server/wire"
)

// TestAskRefusesAPersonaNobodyHas: the server refuses an advisor no one
// is, from the request or from the editor's setting, in the words the
// command line uses (llm.ChoosePersona), and sends nothing.
func TestAskRefusesAPersonaNobodyHas(t *testing.T) {
	f := newFakeLLM(t, answerStep(t, "unused"))
	for _, tt := range []struct {
		name     string
		request  map[string]any
		settings map[string]any
	}{
		{name: "the request's", request: map[string]any{"persona": "continuity-edtior"}},
		{name: "the editor's setting", settings: map[string]any{"persona": "continuity-edtior"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			options := map[string]any{"provider": map[string]any{"base_url": f.srv.URL + "/v1", "model": "m"}}
			maps.Copy(options, tt.settings)
			c := advisorClient(t, writeProject(t, bookFiles), options)
			params := map[string]any{"message": "Hello?"}
			maps.Copy(params, tt.request)
			m := c.call(1, wire.MethodAsk, params)
			require.NotNil(t, m.Error, "%s", m)
			assert.Equal(t, jsonrpc2.InvalidParams, m.code())
			assert.Equal(t, (&llm.UnknownPersonaError{ID: "continuity-edtior"}).Error(), m.Error.Message)
		})
	}
	assert.Empty(t, f.requests(), "nothing is sent")
}
