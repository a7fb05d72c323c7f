package server

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex/trust"
	"github.com/quire-ink/quire/llm/endpoint"
	"github.com/quire-ink/quire/server/textdoc"
	"github.com/quire-ink/quire/server/wire"
)

// markCommand is a quire.yaml command and its args that leave marker
// behind, in the system's own shell: sh's touch, or cmd's copy of nul on
// Windows (with no quotes, which cmd would read as part of the name).
func markCommand(marker string) string {
	if runtime.GOOS == "windows" {
		return "cmd, args: [/c, copy, nul, '" + marker + "']"
	}
	return "sh, args: [-c, \"touch '" + marker + "'\"]"
}

// markVerb is the word of markCommand's command line the prompt is found
// by, markLine how the prompt starts that line.
var (
	markVerb = map[bool]string{false: "touch", true: "copy nul"}[runtime.GOOS == "windows"]
	markLine = map[bool]string{false: `sh -c "touch`, true: "cmd /c copy nul"}[runtime.GOOS == "windows"]
)

// evilBook is the test book with its provider at f (a server named
// without a key, which applies untrusted) and an MCP server that only
// leaves marker behind, given to the writing coach.
func evilBook(t *testing.T, f *fakeLLM, marker string) string {
	t.Helper()
	root := advisorBook(t, f)
	yaml, err := os.ReadFile(filepath.Join(root, "quire.yaml"))
	require.NoError(t, err)
	cfg := "mcp_servers:\n  evil: {command: " + markCommand(marker) + "}\n" +
		"personas:\n  writing-coach: {tools: {mcp: [evil]}}\n"
	require.NoError(t, os.WriteFile(filepath.Join(root, "quire.yaml"), append(yaml, cfg...), 0o644))
	return root
}

// trustClient starts a server keeping its trust record at trustFile and
// initializes it for root; showMessage says whether the client can be
// asked with window/showMessageRequest, and answer is its answer.
func trustClient(t *testing.T, root, trustFile string, showMessage bool, answer string) *testClient {
	t.Helper()
	t.Setenv("OPENAI_API_KEY", "")
	c := startServer(t, Options{TrustFile: trustFile})
	c.answers = map[string]any{protocol.MethodWindowShowMessageRequest: protocol.MessageActionItem{Title: answer}}
	c.root = root
	caps := protocol.ClientCapabilities{Window: &protocol.WindowClientCapabilities{}}
	if showMessage {
		caps.Window.ShowMessage = &protocol.ShowMessageRequestClientCapabilities{}
	}
	var res protocol.InitializeResult
	c.call(protocol.MethodInitialize, protocol.InitializeParams{
		RootURI:          textdoc.PathURI(root),
		WorkspaceFolders: []protocol.WorkspaceFolder{{URI: string(textdoc.PathURI(root)), Name: "book"}},
		Capabilities:     caps,
	}, &res)
	c.notifyServer(protocol.MethodInitialized, protocol.InitializedParams{})
	return c
}

// waitFor waits until the server has sent a message with method whose
// params contain text, and returns those params.
func (c *testClient) waitFor(method, text string) json.RawMessage {
	c.t.Helper()
	deadline := time.Now().Add(wireTimeout)
	for time.Now().Before(deadline) {
		c.mu.Lock()
		for _, n := range c.notes {
			if n.method == method && strings.Contains(string(n.params), text) {
				c.mu.Unlock()
				return n.params
			}
		}
		c.mu.Unlock()
		time.Sleep(10 * time.Millisecond)
	}
	c.t.Fatalf("no %s with %q; got %v", method, text, c.methods())
	return nil
}

func (c *testClient) askCoach(t *testing.T) {
	t.Helper()
	var res json.RawMessage
	c.call(wire.MethodAsk, map[string]any{"persona": "writing-coach", "message": "Anything?"}, &res)
}

func TestTheServerAsksToTrustABookAndAppliesItsSettings(t *testing.T) {
	tests := []struct {
		name    string
		answer  string
		trusted bool
	}{
		{name: "Not now", answer: notNowAction},
		{name: "Trust this book", answer: trustAction, trusted: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeLLM(t, answerStep(t, "Fine."))
			marker := filepath.Join(t.TempDir(), "marker")
			root := evilBook(t, f, marker)
			trustFile := filepath.Join(t.TempDir(), "trust.json")
			c := trustClient(t, root, trustFile, true, tt.answer)

			raw := c.waitFor(protocol.MethodWindowShowMessageRequest, markVerb)
			var req protocol.ShowMessageRequestParams
			require.NoError(t, json.Unmarshal(raw, &req))
			assert.Contains(t, req.Message, "run the command "+markLine, "the writer reads exactly what would run")
			var titles []string
			for _, a := range req.Actions {
				titles = append(titles, a.Title)
			}
			assert.Equal(t, []string{"Trust this book", "Not now"}, titles)

			if tt.trusted {
				c.waitFor(protocol.MethodWindowShowMessage, "trusts")
			}
			c.askCoach(t)
			if !tt.trusted {
				assert.NoFileExists(t, marker, "no command runs for a book not trusted")
				_, err := os.Stat(trustFile)
				assert.True(t, os.IsNotExist(err), "nothing is recorded")
				return
			}
			assert.FileExists(t, marker, "trusted, the book's server starts, without a restart")
			rec, ok, err := trust.Open(trustFile).Lookup(root)
			require.NoError(t, err)
			require.True(t, ok)
			assert.Contains(t, strings.Join(rec.Settings, "\n"), "mcp_servers.evil")
		})
	}
}

func TestAClientThatCannotBeAskedIsToldHowToTrustTheBook(t *testing.T) {
	f := newFakeLLM(t, answerStep(t, "Fine."), answerStep(t, "Fine again."))
	marker := filepath.Join(t.TempDir(), "marker")
	root := evilBook(t, f, marker)
	trustFile := filepath.Join(t.TempDir(), "trust.json")
	c := trustClient(t, root, trustFile, false, "")

	raw := c.waitFor(protocol.MethodWindowShowMessage, "quire trust")
	var msg protocol.ShowMessageParams
	require.NoError(t, json.Unmarshal(raw, &msg))
	assert.Equal(t, protocol.MessageTypeWarning, msg.Type)
	assert.Contains(t, msg.Message, "mcp_servers.evil")
	for _, n := range c.methods() {
		assert.NotContains(t, n, protocol.MethodWindowShowMessageRequest, "a client without the capability is not asked")
	}
	c.waitFor(protocol.MethodTextDocumentPublishDiagnostics, "quire ignores this until you trust this book")
	assert.Equal(t, []string{"trust"}, c.configDiagnosticCodes(), "quire.yaml says what is ignored, at mcp_servers")
	c.askCoach(t)
	assert.NoFileExists(t, marker)

	// Trusted in a terminal (quire trust), the next ask applies it.
	real, err := trust.Key(root)
	require.NoError(t, err)
	reach, err := endpoint.ReadBookReach(real)
	require.NoError(t, err)
	require.NoError(t, trust.Open(trustFile).Grant(real, reach.Wants().Hash(), nil))
	c.askCoach(t)
	assert.FileExists(t, marker)
	assert.Empty(t, c.configDiagnosticCodes(), "and quire.yaml no longer says it is ignored")
}

// configDiagnosticCodes are the codes of the diagnostics last published
// for quire.yaml.
func (c *testClient) configDiagnosticCodes() []string {
	c.t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	var codes []string
	for _, n := range c.notes {
		var p protocol.PublishDiagnosticsParams
		if n.method != protocol.MethodTextDocumentPublishDiagnostics || json.Unmarshal(n.params, &p) != nil || p.URI != c.uri("quire.yaml") {
			continue
		}
		codes = nil
		for _, d := range p.Diagnostics {
			codes = append(codes, fmt.Sprint(d.Code))
		}
	}
	return codes
}
