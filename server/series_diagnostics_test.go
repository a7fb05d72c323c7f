package server

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex"
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

	ds := c.waitDiagnostics(pathURI(ilse), "a broken link in the series", hasCode(codex.CodeBrokenLink))
	require.Len(t, ds, 1, "once, though two books of the series are open")
	assert.Equal(t, protocol.Range{Start: position(7, 29), End: position(7, 40)}, ds[0].Range)
	assert.Contains(t, ds[0].Message, "Nobody Here")
	bad := c.waitDiagnostics(pathURI(broken), "broken front matter in the series", func(ds []protocol.Diagnostic) bool { return len(ds) > 0 })
	assert.Len(t, bad, 1)
	assert.Equal(t, protocol.DiagnosticSeverityError, bad[0].Severity)

	require.NoError(t, os.WriteFile(ilse, []byte("---\ntype: character\nname: Ilse Dorn\nsummary: Harbor master of Tideward.\n---\n# Ilse Dorn\n\nIlse keeps the harbor.\n"), 0o644))
	require.NoError(t, os.Remove(broken))
	c.waitDiagnostics(pathURI(ilse), "the link fixed", func(ds []protocol.Diagnostic) bool { return len(ds) == 0 })
	c.waitDiagnostics(pathURI(broken), "the file gone", func(ds []protocol.Diagnostic) bool { return len(ds) == 0 })

	ds = c.waitDiagnostics(c.uri("codex/locations/city.md"), "the shadow warning stays", hasCode(codex.CodeSeriesShadow))
	assert.Len(t, ds, 1)
}
