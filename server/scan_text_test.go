package server

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
)

func matcherOf(t *testing.T, names ...string) *manuscript.Matcher {
	t.Helper()
	var entries []*codex.Entry
	for _, n := range names {
		slug := strings.ToLower(strings.ReplaceAll(n, " ", "-"))
		e, _ := codex.Parse("codex/characters/"+slug+".md", []byte("---\nname: "+n+"\n---\n"), codex.TypeCharacter)
		require.NotNil(t, e)
		entries = append(entries, e)
	}
	return manuscript.NewMatcherOf(entries)
}

// A text the index cannot answer for is scanned once for the same names:
// hovering it again costs no scan; other text, or other names, is
// scanned anew.
func TestScanTextKeepsTheLastScan(t *testing.T) {
	p := newOpenBook(t.TempDir())
	p.matcher.Store(matcherOf(t, "Mara Vell"))
	text := "Mara Vell climbed.\n\nThen Mara Vell slept."
	first := p.scanText(text)
	require.Len(t, first, 2)
	again := p.scanText(strings.Clone(text))
	assert.Same(t, &first[0], &again[0], "the same text is not scanned again")

	other := p.scanText("Mara Vell alone.")
	require.Len(t, other, 1)
	assert.NotSame(t, &first[0], &other[0])

	p.matcher.Store(matcherOf(t, "Mara Vell", "Ilse Dorn"))
	renamed := p.scanText(text + " Ilse Dorn too.")
	require.Len(t, renamed, 3)
	p.matcher.Store(matcherOf(t, "Ilse Dorn"))
	assert.Len(t, p.scanText(text+" Ilse Dorn too."), 1, "new names, a new scan")
}
