package e2e_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/editors/editortest"
)

// The steps series.mjs reports, in order.
var seriesSteps = []string{"open-workspace", "book-one-series", "book-two-series", "book-one-override",
	"book-two-no-override", "definition", "series-file-hover", "one-quire"}

// TestVSCodeSeries opens two trusted books of one series as a multi-root
// workspace in a real VS Code (series.mjs) and checks the hover cards a
// writer reads: a name only the series defines says "Series canon" in
// both books, a name book one overrides shows book one's text there and
// the series' in book two, go to definition opens the series file, and
// a [[link]] and a name in that file show their cards. One quire serves
// both books.
func TestVSCodeSeries(t *testing.T) {
	tools := findBrowserTools(t)

	tmp, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	bin := editortest.QuireBinary(t, tmp)
	books := editortest.TwoSeriesBooks(t, bin, filepath.Join(tmp, "shelf"), filepath.Join(tmp, "config"))
	workspace := filepath.Join(books.Dir, "tideward.code-workspace")
	ws, err := json.Marshal(map[string]any{"folders": []map[string]string{{"path": "one"}, {"path": "two"}}})
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(workspace, ws, 0o644))
	fixture := filepath.Join(tmp, "series.json")
	fx, err := json.Marshal(books)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(fixture, fx, 0o644))

	pkg := vsix(t, tmp, bin)
	shots := filepath.Join(artefacts(t), "series")
	require.NoError(t, os.MkdirAll(shots, 0o755))

	stdout, report := runBrowser(t, tools, "series.mjs", tmp, shots, []string{
		"QUIRE_BOOK=" + books.Book,
		"QUIRE_WORKSPACE=" + workspace,
		"QUIRE_SERIES=" + fixture,
		"QUIRE_VSIX=" + pkg,
	})
	require.Contains(t, stdout, "PASS: "+strings.Join(seriesSteps, ", "), "every step ran\n%s", report)
}
