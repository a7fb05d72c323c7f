package continuity

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/manuscript"
)

func TestAsOfLine(t *testing.T) {
	tl, snap := openBook(t, "testdata/book", Options{})
	cat := tl.Canon().Catalog()
	teodora, ok := cat.Get("codex/characters/teodora-quill.md")
	require.True(t, ok)
	marek, ok := cat.Get("codex/characters/marek-dunn.md")
	require.True(t, ok)
	lines := map[string]string{}
	for _, u := range snap.Units() {
		lines[u.Path] = tl.AsOfLine(teodora, tl.ChapterOf(u))
		assert.Empty(t, tl.AsOfLine(marek, tl.Chapter(u.Path, u.Meta)), "no progressions, no line")
	}
	assert.Equal(t, `As of chapter 1, "The Harbor": none of its progressions apply yet.`, lines["manuscript/01-harbor.md"])
	assert.Equal(t, `As of chapter 5, "After the Vault": 1 of 1 progression applies: from chapter 4, "The Vault Beneath the Light" (title: Senior Warden, hair: iron grey, aliases: Teodora, the Warden, note).`, lines["manuscript/05-after.md"])
	assert.Equal(t, `As of chapter 6, "Before" (a flashback to day 1): none of its progressions apply yet.`, lines["manuscript/06-before.md"])
}

func TestCheckAll(t *testing.T) {
	tl, snap := openBook(t, "testdata/book", Options{})
	r := CheckAll(tl, snap)
	assert.Len(t, r.Diagnostics, 16)
	require.Len(t, r.Problems, 1)
	assert.Equal(t, "manuscript/07-dream.md", r.Problems[0].Path)
	assert.Contains(t, r.Problems[0].Message, `not "soon"`)
}

// TestEditedChapter: the editor's text of a chapter, not the snapshot's,
// decides its story time: marking it a flashback to an early day clears
// the timeline slip and the after-death one, and turns canon back.
func TestEditedChapter(t *testing.T) {
	tl, snap := openBook(t, "testdata/book", Options{})
	u, ok := snap.Unit("manuscript/05-after.md")
	require.True(t, ok)
	codes := func(u *manuscript.Unit) []string {
		var out []string
		for _, d := range Check(tl, u) {
			out = append(out, d.Code)
		}
		return out
	}
	assert.ElementsMatch(t, []string{CodeTimelineOrder, CodeTraitContradiction, CodeAfterDeath}, codes(u))
	edited := manuscript.NewUnit(u.Path, strings.Replace(u.Text, "day: 7", "day: 2\nflashback: true", 1), 3)
	assert.Empty(t, codes(edited), "a flashback to day 2: Teodora's hair is still rust-red, and the dead are not checked")
	later := manuscript.NewUnit(u.Path, strings.Replace(u.Text, "day: 7", "day: 10", 1), 4)
	assert.ElementsMatch(t, []string{CodeTraitContradiction, CodeAfterDeath}, codes(later))
}
