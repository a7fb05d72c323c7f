package nvim_test

import (
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/editors/editortest"
	"github.com/quire-ink/quire/llm/eval/evalserver"
)

// The scripted model's replies, one per request of the test's asks.
func script(t *testing.T) []evalserver.Step {
	t.Helper()
	return []evalserver.Step{
		// 1: read the character and the writer's selection.
		editortest.Calls(t,
			editortest.Call(t, "call_1", "get_character_context", map[string]any{"name": "Teodora Quill"}),
			editortest.Call(t, "call_2", "get_manuscript_context", map[string]any{"ref": "selection"}),
		),
		// 2: propose a change to her Appearance.
		editortest.Calls(t,
			editortest.Call(t, "call_3", "propose_codex_update", map[string]any{
				"entryType": "character", "name": "Teodora Quill",
				"changeSummary":    "Pin down her eye colour",
				"targetSection":    "Appearance",
				"proposedMarkdown": "## Appearance\n\nTall and narrow-shouldered, with cropped black hair she cuts herself and steady grey eyes (PROPOSED-EYES: grey in every chapter). Her right forefinger is stained for good with oak-gall ink.\n",
			}),
		),
		// 3: the answer.
		editortest.Answer(t, "SCRIPTED-ANSWER: her eyes are grey throughout. I proposed pinning that down in her entry."),
		// 4: the follow-up's answer.
		editortest.Answer(t, "SCRIPTED-FOLLOW-UP: the coat is her father's."),
		// 5: the answer of an ask whose persona and question were prompted.
		editortest.Answer(t, "SCRIPTED-PROMPTED: yes, the bell does."),
		// 6: the answer of :'<,'>QuireAction line-edit.
		editortest.Answer(t, "SCRIPTED-ACTION: cut \"the long way\" to \"round\"."),
	}
}

// selectionText is the text get_manuscript_context returned for the
// selection, from the tool message of a chat request.
func selectionText(t *testing.T, body []byte) string {
	t.Helper()
	var req struct {
		Messages []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
	}
	require.NoError(t, json.Unmarshal(body, &req))
	for _, m := range req.Messages {
		if m.Role != "tool" {
			continue
		}
		var res struct {
			Data struct {
				Units []struct {
					Ref  string `json:"ref"`
					Text string `json:"text"`
				} `json:"units"`
			} `json:"data"`
		}
		if json.Unmarshal([]byte(m.Content), &res) != nil {
			continue
		}
		for _, u := range res.Data.Units {
			if u.Ref == "selection" {
				return u.Text
			}
		}
	}
	t.Fatalf("no selection in the tool results of %s", body)
	return ""
}

// chatMessages are the role and content of a chat request's messages.
func chatMessages(t *testing.T, body []byte) []struct{ Role, Content string } {
	t.Helper()
	var req struct {
		Messages []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
	}
	require.NoError(t, json.Unmarshal(body, &req))
	out := make([]struct{ Role, Content string }, len(req.Messages))
	for i, m := range req.Messages {
		out[i].Role, out[i].Content = m.Role, m.Content
	}
	return out
}

// hangingModel accepts requests and never answers them, so an ask against
// it runs until cancelled. It touches flag when a request arrives.
func hangingModel(t *testing.T, flag string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var conns []net.Conn
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			wg.Add(1)
			go func() {
				defer wg.Done()
				buf := make([]byte, 4096)
				// Reading until the client gives up; the first bytes mean the
				// request arrived.
				for first := true; ; first = false {
					if _, err := c.Read(buf); err != nil {
						return
					}
					if first {
						_ = os.WriteFile(flag, []byte("seen"), 0o644)
					}
				}
			}()
		}
	}()
	t.Cleanup(func() {
		_ = ln.Close()
		mu.Lock()
		for _, c := range conns {
			_ = c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	return "http://" + ln.Addr().String() + "/v1"
}

func TestNeovimPlugin(t *testing.T) {
	nvim := lookNvim(t)
	plugin, err := filepath.Abs(".")
	require.NoError(t, err)
	tmp := t.TempDir()

	// QUIRE_BIN runs the plugin against a quire built elsewhere (a server
	// branch being worked on); by default this tree's is built.
	bin := editortest.QuireBinary(t, tmp)

	// The plugin compares roots as Neovim sees them: SampleBook resolves
	// symlinks (a /tmp that is a link) once here.
	book := editortest.SampleBook(t, bin, filepath.Join(tmp, "book"))

	model := editortest.ScriptedModel(t, script(t))

	f, err := os.OpenFile(filepath.Join(book, "quire.yaml"), os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString("\nprovider:\n  base_url: " + model.BaseURL() + "\n  model: scripted\n  api_key_env: QUIRE_TEST_KEY\n  retries: 0\n")
	require.NoError(t, err)
	require.NoError(t, f.Close())
	// The book names a key to send: the writer trusts it first, in the
	// config folder the editor's quire reads.
	trust := exec.Command(bin, "trust", book)
	trust.Env = append(os.Environ(), "XDG_CONFIG_HOME="+filepath.Join(tmp, "config"))
	out, err := trust.CombinedOutput()
	require.NoError(t, err, "quire trust: %s", out)

	outside := filepath.Join(tmp, "outside")
	require.NoError(t, os.MkdirAll(outside, 0o755))
	hangFlag := filepath.Join(tmp, "hang-seen")
	run, _ := scriptRun{script: "e2e.lua", dir: book, tmp: tmp, also: []string{".chat"},
		env: []string{
			"QUIRE_BIN=" + bin,
			"QUIRE_BOOK=" + book,
			"QUIRE_PLUGIN=" + plugin,
			"QUIRE_OUTSIDE=" + outside,
			"QUIRE_HANG_URL=" + hangingModel(t, hangFlag),
			"QUIRE_HANG_FLAG=" + hangFlag,
			"QUIRE_TEST_KEY=scripted-key",
			"QUIRE_TEST_MISSING_KEY=",
		},
		steps: []string{"utf16", "visual-range", "root-detection", "chat-render", "attach", "hover", "ask",
			"follow-up", "prompts", "proposals", "apply", "apply-again", "discard", "reindex", "map", "error", "cancel", "peek", "code-actions", "create-entry", "action", "chat-toggle", "help", "omnifunc", "stale"},
	}.run(t, nvim)
	res := run.Result
	t.Logf("nvim steps:\n%s", res)
	if testing.Verbose() {
		chatText, _ := os.ReadFile(filepath.Join(tmp, "result.txt.chat"))
		t.Logf("chat buffer:\n%s", chatText)
	}

	// The model saw the selection the plugin sent, exactly: with byte
	// columns instead of UTF-16 ones it would start two characters late.
	reqs := model.Requests()
	if os.Getenv("QUIRE_DUMP") != "" {
		for i, r := range reqs {
			t.Logf("request %d: %s", i, r.Body)
		}
	}
	require.Len(t, reqs, 6, "model requests")
	require.Equal(t, "Warden Strand sent me the long way round.", selectionText(t, reqs[1].Body), "selection read by the model")
	// The follow-up continued the conversation: the first question is in
	// its history.
	require.Contains(t, string(reqs[3].Body), "Is her eye colour consistent?", "follow-up history")
	require.Contains(t, string(reqs[3].Body), "And her coat?")
	require.Contains(t, string(reqs[4].Body), "Does the opening hook you?")
	// :QuireAction line-edit ran the action's ask: the writing coach, with
	// the action's message about the selection.
	var system, user string
	for _, m := range chatMessages(t, reqs[5].Body) {
		switch m.Role {
		case "system":
			if system == "" {
				system = m.Content
			}
		case "user":
			user += m.Content + "\n"
		}
	}
	require.True(t, strings.HasPrefix(system, "# Writing Coach"), "the action's persona: system prompt starts %.60q", system)
	require.Contains(t, user, `Run the advisor action "Line edit" on the selection.`, "the action's message")
	require.Contains(t, string(reqs[5].Body), "Line-edit the selection.")

	// The edit landed in the buffer only; the file on disk is untouched
	// until the writer saves.
	entry, err := os.ReadFile(filepath.Join(book, "codex", "characters", "teodora-quill", "index.md"))
	require.NoError(t, err)
	require.NotContains(t, string(entry), "PROPOSED-EYES")
}
