package server

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/server/textdoc"
)

// A saved series file sends its own new problems; the other series
// files with problems, the same as before, are not sent again, by
// either book of the series. (Each book sent every such file again, so
// a save in a series of a hundred broken files sent two hundred.)
func TestSavingASeriesFileSendsOnlyWhatChanged(t *testing.T) {
	base := seriesWorkspace(t)
	one, two := filepath.Join(base, "one"), filepath.Join(base, "two")
	ilse := filepath.Join(base, "tideward", "codex", "characters", "ilse.md")
	mara := filepath.Join(base, "tideward", "codex", "characters", "mara.md")
	require.NoError(t, os.WriteFile(mara, []byte("---\ntype: character\nname: Mara Vell\naliases: [Mara]\nsummary: Smuggler.\n---\n# Mara Vell\n\nSee [[Nobody There]].\n"), 0o644))
	ilseText := func(link string) []byte {
		return []byte("---\ntype: character\nname: Ilse Dorn\nsummary: Harbor master.\n---\n# Ilse Dorn\n\nSee [[" + link + "]].\n")
	}
	require.NoError(t, os.WriteFile(ilse, ilseText("Nobody Here"), 0o644))
	c := openTwoBooks(t, one, two)
	says := func(text string) func([]protocol.Diagnostic) bool {
		return func(ds []protocol.Diagnostic) bool {
			return slices.ContainsFunc(ds, func(d protocol.Diagnostic) bool { return strings.Contains(d.Message, text) })
		}
	}
	c.waitDiagnostics(textdoc.PathURI(mara), "mara's broken link", says("Nobody There"))
	c.waitDiagnostics(textdoc.PathURI(ilse), "ilse's broken link", says("Nobody Here"))
	// Both books have sent their problems once they send quire.yaml's.
	for _, book := range []string{one, two} {
		require.Eventually(t, func() bool { return c.diagnosticsSent(textdoc.PathURI(filepath.Join(book, "quire.yaml"))) > 0 }, 10*time.Second, 10*time.Millisecond)
	}
	quiet(c, 500*time.Millisecond)

	maraSent := c.diagnosticsSent(textdoc.PathURI(mara))
	require.NoError(t, os.WriteFile(ilse, ilseText("Nobody Else"), 0o644))
	ds := c.waitDiagnostics(textdoc.PathURI(ilse), "ilse's new broken link", says("Nobody Else"))
	assert.Len(t, ds, 1)
	quiet(c, 500*time.Millisecond)
	assert.Equal(t, maraSent, c.diagnosticsSent(textdoc.PathURI(mara)), "mara's problems did not change")

	// A book's own change that changes no problem of the series sends
	// none of its files again either; the problem fixed is cleared.
	ilseSent := c.diagnosticsSent(textdoc.PathURI(ilse))
	require.NoError(t, os.WriteFile(filepath.Join(one, "codex", "characters", "mara.md"),
		[]byte("---\ntype: character\nname: Mara Vell\noverrides: Mara Vell\nsummary: Older still.\n---\n"), 0o644))
	c.root = one
	require.Eventually(t, func() bool {
		h := c.hoverAt("manuscript/01-harbor.md", 2, 1)
		return h != nil && strings.Contains(h.Contents.Value, "Older still")
	}, 10*time.Second, 20*time.Millisecond)
	quiet(c, 500*time.Millisecond)
	assert.Equal(t, ilseSent, c.diagnosticsSent(textdoc.PathURI(ilse)))
	require.NoError(t, os.WriteFile(ilse, ilseText("Mara Vell"), 0o644))
	c.waitDiagnostics(textdoc.PathURI(ilse), "the link fixed", func(ds []protocol.Diagnostic) bool { return len(ds) == 0 })
	assert.True(t, hasCode(codex.CodeBrokenLink)(c.waitDiagnostics(textdoc.PathURI(mara), "mara's link still broken", says("Nobody There"))))
}

// quiet waits until the server has sent nothing for still, and returns
// when it last sent something.
func quiet(c *testClient, still time.Duration) time.Time {
	last := time.Now()
	n := c.sentCount("")
	for {
		select {
		case <-c.notify:
		case <-time.After(still):
			if c.sentCount("") == n {
				return last
			}
		}
		if m := c.sentCount(""); m != n {
			n, last = m, time.Now()
		}
	}
}

// sentCount is how many messages of method (any, when empty) the server
// has sent the client.
func (c *testClient) sentCount(method string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if method == "" {
		return len(c.notes)
	}
	n := 0
	for _, r := range c.notes {
		if r.method == method {
			n++
		}
	}
	return n
}

// A book that starts reading the series after another did changes which
// books find a series file's problem: a problem the new reader does not
// find (in an entry it overrides) is sent again, saying which book finds
// it, though the book that found it has not changed.
func TestSeriesFileProblemsFollowANewReader(t *testing.T) {
	base := seriesWorkspace(t)
	one, two := filepath.Join(base, "one"), filepath.Join(base, "two")
	mara := filepath.Join(base, "tideward", "codex", "characters", "mara.md")
	require.NoError(t, os.WriteFile(mara, []byte("---\ntype: character\nname: Mara Vell\naliases: [Mara]\nsummary: Smuggler.\n---\n# Mara Vell\n\nSee [[Nobody There]].\n"), 0o644))
	trustFile := filepath.Join(t.TempDir(), "trust.json")
	grantTrust(t, trustFile, one)
	grantTrust(t, trustFile, two)
	// Book one, which overrides Mara, names no series yet.
	yaml := filepath.Join(one, "quire.yaml")
	require.NoError(t, os.WriteFile(yaml, []byte("title: One\n"), 0o644))
	c := startServer(t, Options{TrustFile: trustFile, CacheDir: t.TempDir()})
	var res protocol.InitializeResult
	c.call(protocol.MethodInitialize, protocol.InitializeParams{
		WorkspaceFolders: []protocol.WorkspaceFolder{{URI: string(textdoc.PathURI(one)), Name: "one"}, {URI: string(textdoc.PathURI(two)), Name: "two"}},
	}, &res)
	c.notifyServer(protocol.MethodInitialized, protocol.InitializedParams{})
	says := func(text string) func([]protocol.Diagnostic) bool {
		return func(ds []protocol.Diagnostic) bool {
			return slices.ContainsFunc(ds, func(d protocol.Diagnostic) bool { return d.Message == text })
		}
	}
	c.waitDiagnostics(textdoc.PathURI(mara), "the link found broken by the one book of the series", says(`no codex entry is named "Nobody There"`))

	require.NoError(t, os.WriteFile(yaml, []byte("series: ../tideward\n"), 0o644))
	c.waitDiagnostics(textdoc.PathURI(mara), "the link found broken by book two alone", says(`no codex entry is named "Nobody There" (in the book two)`))
}
