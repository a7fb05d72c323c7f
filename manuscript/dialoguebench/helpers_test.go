package dialoguebench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript/dialogue"
)

func rng(start, end int) codex.Range { return codex.Range{Start: start, End: end} }

func utt(spans ...codex.Range) dialogue.Utterance {
	return dialogue.Utterance{Spans: spans, Marks: spans}
}

// span finds the words s in text, where they first occur, for tests
// that build their offsets from prose.
func span(t *testing.T, text, s string) codex.Range {
	t.Helper()
	i := strings.Index(text, s)
	require.GreaterOrEqual(t, i, 0, "%q is in the text", s)
	return rng(i, i+len(s))
}

// pdncDir is the PDNC checkout QUIRE_PDNC names; the test is skipped,
// saying why, without one.
func pdncDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("QUIRE_PDNC")
	if dir == "" {
		t.Skip("the PDNC part of the dialogue benchmark did not run: QUIRE_PDNC is not set. Set it to a clone of " +
			"https://github.com/Priya22/project-dialogism-novel-corpus (the folder that holds data/); see manuscript/dialoguebench/testdata/README.md")
	}
	if _, err := os.Stat(filepath.Join(dir, "data")); err != nil {
		t.Skipf("the PDNC part of the dialogue benchmark did not run: QUIRE_PDNC=%s holds no data/ folder (%v); "+
			"it should name a clone of https://github.com/Priya22/project-dialogism-novel-corpus", dir, err)
	}
	return dir
}

func loadPDNC(t *testing.T, dir string, novels []string) []Book {
	t.Helper()
	var books []Book
	for _, n := range novels {
		b, err := LoadPDNC(dir, n)
		require.NoError(t, err)
		books = append(books, b)
	}
	return books
}

func chaptersOf(b Book) []Chapter { return SplitChapters(b.Text) }
