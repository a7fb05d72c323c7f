package continuity

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
)

// sampleRoot is the sample book "The Thirteenth Bell" as embedded in
// the binary and written by `quire init --sample`: the demo must show
// its slips, and only those.
const sampleRoot = "../../cmd/quire/sample"

// TestSampleBookSlips checks the whole sample book: it yields exactly
// the two slips planted in it, at their words.
func TestSampleBookSlips(t *testing.T) {
	tl, snap := openBook(t, sampleRoot, Options{})
	r := CheckAll(tl, snap)
	assert.Empty(t, r.Problems, "the sample's front matter, progressions and rules read cleanly")

	text := map[string]string{}
	for _, u := range snap.Units() {
		text[u.Path] = u.Text
	}
	type hit struct{ path, code, words, entry, fix string }
	var got []hit
	for _, d := range r.Diagnostics {
		h := hit{path: d.Path, code: d.Code, words: text[d.Path][d.Range.Start:d.Range.End], entry: d.Entry}
		if d.Fix != nil {
			h.fix = d.Fix.NewText
		}
		got = append(got, h)
	}
	assert.Equal(t, []hit{
		// The glossary never writes the forbidden stroke in figures.
		{path: "manuscript/04-the-vault-beneath-the-light.md", code: CodeStyleRule, words: "13th",
			entry: "codex/style/brinmouth-glossary.md", fix: "thirteenth"},
		// The classic slip: the codex gives Séverine pale green eyes.
		{path: "manuscript/05-salt-debt.md", code: CodeTraitContradiction, words: "dark brown eyes",
			entry: "codex/characters/severine-aubrac.md"},
	}, got)

	for _, d := range r.Diagnostics {
		require.Len(t, d.Related, 1)
		if d.Code == CodeTraitContradiction {
			assert.Equal(t, "eyes: pale green", d.Related[0].Message)
			assert.Contains(t, d.Message, "Séverine Aubrac")
		}
	}
}

// TestSampleBookAsOf shows canon as of a chapter in the sample: Jory
// Fenwick, missing since chapter 1, is found in the Vault in chapter 4.
func TestSampleBookAsOf(t *testing.T) {
	tl, _ := openBook(t, sampleRoot, Options{})
	jory, ok := tl.Canon().Catalog().Get("codex/characters/jory-fenwick.md")
	require.True(t, ok)
	chapters := tl.Chapters()
	require.Len(t, chapters, 5)

	tests := []struct {
		chapter     int
		whereabouts string
		notes       int
	}{
		{1, "missing", 1},
		{3, "missing", 1},
		{4, "a ledge in the Skerry Vault, with a broken leg", 2},
		{5, "the Hook and Hawser, in Betts's best room", 2},
	}
	for _, tc := range tests {
		a := tl.AsOf(jory, chapters[tc.chapter-1])
		assert.Equal(t, tc.whereabouts, a.Field("whereabouts"), "chapter %d", tc.chapter)
		assert.Len(t, a.Notes, tc.notes, "chapter %d", tc.chapter)
	}
	assert.Equal(t, "Gannet Light", codex.AsOf{Entry: jory}.Field("whereabouts"), "the entry as written is untouched")

	line := tl.AsOfLine(jory, chapters[3])
	assert.Equal(t, `As of chapter 4, "The Vault Beneath the Light": 2 of 3 progressions apply: `+
		`from chapter 1, "Thirteen Strokes" (whereabouts: missing, note); `+
		`from chapter 4, "The Vault Beneath the Light" (whereabouts: a ledge in the Skerry Vault, with a broken leg, note).`, line)

	// The lighthouse goes dark in chapter 1 and burns again in chapter 5.
	light, ok := tl.Canon().Catalog().Get("codex/locations/gannet-light.md")
	require.True(t, ok)
	assert.Equal(t, "dark", tl.AsOf(light, chapters[3]).Field("light"))
	assert.Equal(t, "burning", tl.AsOf(light, chapters[4]).Field("light"))

	// Every chapter says where it stands in story time.
	var days []int
	for _, ch := range chapters {
		require.True(t, ch.Meta.HasDay, ch.Path)
		assert.Equal(t, "Teo", ch.Meta.POV, ch.Path)
		days = append(days, ch.Meta.Day)
	}
	assert.Equal(t, []int{1, 1, 2, 2, 3}, days)
}
