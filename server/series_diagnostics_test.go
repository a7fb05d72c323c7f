package server

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/server/textdoc"
)

// Problems in the series folder's files show on those files, each once
// though two books of the series are open, and clear once fixed; a
// book entry's shadow warning stays on the book's file.
func TestSeriesFileDiagnostics(t *testing.T) {
	c, base, _, two := openSeriesBooks(t, nil)
	ilse := filepath.Join(base, "tideward", "codex", "characters", "ilse.md")
	broken := filepath.Join(base, "tideward", "codex", "characters", "broken.md")
	c.root = two
	c.waitDiagnostics(c.uri("codex/locations/city.md"), "the shadow warning on book two's entry", hasCode(codex.CodeSeriesShadow))

	require.NoError(t, os.WriteFile(ilse, []byte("---\ntype: character\nname: Ilse Dorn\nsummary: Harbor master of Tideward.\n---\n# Ilse Dorn\n\nIlse keeps the harbor. See [[Nobody Here]].\n"), 0o644))
	require.NoError(t, os.WriteFile(broken, []byte("---\ntype: character\nname: [unclosed\n---\n# Broken\n"), 0o644))

	ds := c.waitDiagnostics(textdoc.PathURI(ilse), "a broken link in the series", hasCode(codex.CodeBrokenLink))
	require.Len(t, ds, 1, "once, though two books of the series are open")
	assert.Equal(t, protocol.Range{Start: position(7, 29), End: position(7, 40)}, ds[0].Range)
	assert.Contains(t, ds[0].Message, "Nobody Here")
	// The watcher may see the file created empty before its text is
	// written ("empty entry", a warning): the broken front matter's
	// error replaces it.
	bad := c.waitDiagnostics(textdoc.PathURI(broken), "broken front matter in the series", func(ds []protocol.Diagnostic) bool {
		return len(ds) > 0 && ds[0].Severity == protocol.DiagnosticSeverityError
	})
	assert.Len(t, bad, 1, "%+v", bad)

	require.NoError(t, os.WriteFile(ilse, []byte("---\ntype: character\nname: Ilse Dorn\nsummary: Harbor master of Tideward.\n---\n# Ilse Dorn\n\nIlse keeps the harbor.\n"), 0o644))
	require.NoError(t, os.Remove(broken))
	c.waitDiagnostics(textdoc.PathURI(ilse), "the link fixed", func(ds []protocol.Diagnostic) bool { return len(ds) == 0 })
	c.waitDiagnostics(textdoc.PathURI(broken), "the file gone", func(ds []protocol.Diagnostic) bool { return len(ds) == 0 })

	ds = c.waitDiagnostics(c.uri("codex/locations/city.md"), "the shadow warning stays", hasCode(codex.CodeSeriesShadow))
	assert.Len(t, ds, 1)
}

// A series file the writer opens (go to definition took them there) is
// the series canon: quire looks for no book around it, and shows its
// problems.
func TestOpeningASeriesFileLooksForNoBook(t *testing.T) {
	c, base, one, _ := openSeriesBooks(t, nil)
	ilse := filepath.Join(base, "tideward", "codex", "characters", "ilse.md")
	c.root = one
	c.hoverSays("manuscript/01-harbor.md", 2, 12, "*Series canon:*")
	text := "---\ntype: character\nname: Ilse Dorn\nsummary: Harbor master of Tideward.\n---\n# Ilse Dorn\n\nSee [[Nobody Here]].\n"
	require.NoError(t, os.WriteFile(ilse, []byte(text), 0o644))
	c.waitDiagnostics(textdoc.PathURI(ilse), "the series file's broken link", hasCode(codex.CodeBrokenLink))
	c.notifyServer(protocol.MethodTextDocumentDidOpen, protocol.DidOpenTextDocumentParams{
		TextDocument: protocol.TextDocumentItem{URI: textdoc.PathURI(ilse), LanguageID: "markdown", Version: 3, Text: text},
	})
	require.Eventually(t, func() bool {
		p, ok := c.latestDiagnostics(textdoc.PathURI(ilse))
		return ok && p.Version == 3 && len(p.Diagnostics) == 1
	}, 10*time.Second, 20*time.Millisecond, "the open series file's problems, of its version")
	for _, m := range c.messages() {
		assert.NotContains(t, m, "found no book", "the series folder is no book of its own")
	}

	// Typed, not saved: the problems are those of the editor's text.
	rel := "../tideward/codex/characters/ilse.md"
	c.replaceText(rel, 4, "---\ntype: character\nname: Ilse Dorn\n---\n# Ilse Dorn\n\nSee [[Mara Vell]] and [[Nobody Else]].\n")
	ds := c.waitVersion(rel, 4)
	require.Len(t, ds, 1, "Mara Vell is an entry of the book's canon")
	assert.Equal(t, protocol.Range{Start: position(6, 24), End: position(6, 35)}, ds[0].Range)
	c.replaceText(rel, 5, "---\ntype: character\nname: Ilse Dorn\n---\n# Ilse Dorn\n")
	assert.Empty(t, c.waitVersion(rel, 5), "fixed in the editor")
}
