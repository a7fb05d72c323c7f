package server

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex/testhome"
	"github.com/quire-ink/quire/server/textdoc"
	"github.com/quire-ink/quire/server/wire"
)

// modelList is an OpenAI-compatible server that only lists its models,
// recording the requests it gets.
func modelList(t *testing.T, models ...string) (base string, requests func() []string) {
	var mu sync.Mutex
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.Method+" "+r.URL.Path+" "+r.Header.Get("Authorization"))
		mu.Unlock()
		var data []any
		for _, id := range models {
			data = append(data, map[string]any{"id": id, "object": "model"})
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data})
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1", func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), got...)
	}
}

func doctorBook(t *testing.T, baseURL string) string {
	return writeProject(t, map[string]string{
		"quire.yaml":                   "provider:\n  base_url: " + baseURL + "\n  model: fake\n",
		"codex/characters/mara.md":     "---\ntype: character\nname: Mara Vell\n---\n# Mara Vell\n",
		"manuscript/01-the-harbour.md": "# The harbour\n\nMara waited.\n",
	})
}

func TestDoctorRequestAnswersTheReport(t *testing.T) {
	base, requests := modelList(t, "fake")
	root := doctorBook(t, base)
	c := startServer(t, Options{Version: "9.9.9 (test)"})
	c.initialize(root)

	var res wire.DoctorResult
	c.call(wire.MethodDoctor, wire.BookParams{URI: c.uri("manuscript/01-the-harbour.md")}, &res)
	byName := map[string]wire.DoctorCheck{}
	for _, ch := range res.Checks {
		byName[ch.Name] = ch
	}
	for _, name := range []string{"quire", "book", "index", "provider", "model", "key", "trust", "series"} {
		ch, ok := byName[name]
		require.True(t, ok, "the report has a %s line", name)
		assert.Equal(t, "ok", ch.Status, "%s: %s %s", name, ch.Detail, ch.Fix)
	}
	assert.Contains(t, byName["quire"].Detail, "9.9.9 (test)")
	assert.Contains(t, byName["model"].Detail, "model fake is there")
	assert.Equal(t, []string{"GET /v1/models "}, requests(), "one cheap request, no key to a server the book names, and no chat")
}

func TestDoctorSendsTheWritersKeyToTheirServerAndShowsItNowhere(t *testing.T) {
	const secret = "sk-doctor-server-must-not-leak"
	base, requests := modelList(t, "fake")
	config := testhome.ConfigDir(t)
	require.NoError(t, os.MkdirAll(filepath.Join(config, "quire"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(config, "quire", "config.yaml"),
		[]byte("provider:\n  base_url: "+base+"\n  model: fake\n  api_key_env: DOCTOR_SERVER_KEY\n"), 0o644))
	t.Setenv("DOCTOR_SERVER_KEY", secret)
	c := startServer(t, Options{})
	c.initialize(writeProject(t, bookFiles))

	raw := c.callRaw(wire.MethodDoctor, wire.BookParams{})
	assert.NotContains(t, string(raw), secret)
	var res wire.DoctorResult
	require.NoError(t, json.Unmarshal(raw, &res))
	for _, ch := range res.Checks {
		if ch.Name == "key" {
			assert.Equal(t, "ok", ch.Status)
			assert.Equal(t, "from the DOCTOR_SERVER_KEY variable", ch.Detail)
		}
	}
	assert.Equal(t, []string{"GET /v1/models Bearer " + secret}, requests())
	for _, m := range c.messages() {
		assert.NotContains(t, m, secret)
	}
}

func TestDoctorCodeActionShowsTheReportAsOneMessageProblemsFirst(t *testing.T) {
	root := doctorBook(t, "http://127.0.0.1:1/v1")
	c := startServer(t, Options{})
	c.initialize(root)
	uri := c.uri("manuscript/01-the-harbour.md")
	c.open("manuscript/01-the-harbour.md", "# The harbour\n\nMara waited.\n")

	var actions []codeAction
	c.call(protocol.MethodTextDocumentCodeAction, protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}}, &actions)
	var doctor *actionCommand
	for _, a := range actions {
		if a.Title == doctorActionTitle {
			doctor = a.Command
		}
	}
	require.NotNil(t, doctor, "every Markdown file of the book offers the health report")
	require.Equal(t, wire.CommandDoctor, doctor.Command)

	var res wire.DoctorResult
	c.call(protocol.MethodWorkspaceExecuteCommand, map[string]any{"command": doctor.Command, "arguments": doctor.Arguments}, &res)
	msg := c.waitMessage("quire health report")
	lines := strings.Split(msg, "\n")
	require.Len(t, lines, 1+len(res.Checks), "one line per check")
	// The heading counts them, for a status line that shows one line.
	assert.Regexp(t, `^quire health report, 1 problem(, \d warnings?)?: $`, lines[0])
	assert.True(t, strings.HasPrefix(lines[1], "problem  model: nothing answers at http://127.0.0.1:1/v1"), lines[1])
	assert.Contains(t, lines[1], "start it")
	assert.Len(t, c.sent(protocol.MethodWindowShowMessage), 1, "one message")
	assert.Empty(t, c.sent("window/showDocument"))
}

func TestDoctorCommandOpensADocumentWhereTheClientCan(t *testing.T) {
	base, _ := modelList(t, "fake")
	root := doctorBook(t, base)
	cache := t.TempDir()
	c := startServer(t, Options{CacheDir: cache})
	caps := protocol.ClientCapabilities{Window: &protocol.WindowClientCapabilities{ShowDocument: &protocol.ShowDocumentClientCapabilities{Support: true}}}
	c.initializeCaps(root, caps, map[string]any{"window/showDocument": map[string]any{"success": true}})

	var res wire.DoctorResult
	c.call(protocol.MethodWorkspaceExecuteCommand, map[string]any{"command": wire.CommandDoctor}, &res)
	shown := c.sent("window/showDocument")
	require.Len(t, shown, 1)
	var p struct {
		URI protocol.DocumentURI `json:"uri"`
	}
	require.NoError(t, json.Unmarshal(shown[0], &p))
	path, ok := textdoc.URIPath(p.URI)
	require.True(t, ok)
	assert.True(t, strings.HasPrefix(path, cache), "the report lives in the cache, never in the book: %s", path)
	text, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Contains(t, string(text), "# quire health report")
	assert.Contains(t, string(text), "| ok | model |")
	assert.Empty(t, c.messages(), "the document is the report; no message besides")
}
