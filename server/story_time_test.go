package server

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/manuscript/continuity"
)

// TestStoryTimeFollowsEveryChange: the server keeps its continuity
// canon, and its placing of the chapters in story time, across edits of
// a chapter's prose. What each is built from changing (another
// chapter's day or title in the editor, a codex entry in the editor,
// quire.yaml's checks: on disk) shows in the next diagnostics of a
// chapter that did not change itself.
func TestStoryTimeFollowsEveryChange(t *testing.T) {
	root := writeProject(t, slipBook)
	c := startServer(t, Options{})
	c.initialize(root)
	const after, drowning, jory = "manuscript/03-after.md", "manuscript/02-drowning.md", "codex/characters/jory.md"
	c.open(drowning, slipBook[drowning])
	c.open(jory, slipBook[jory])
	c.open(after, slipBook[after])
	version := int32(1)
	// codes edits the prose of 03-after.md (a line added after its front
	// matter, which changes none of its slips) until its continuity
	// codes are want, and fails after a while.
	codes := func(what string, want ...string) {
		t.Helper()
		slices.Sort(want)
		var got []string
		deadline := time.Now().Add(10 * time.Second)
		for time.Now().Before(deadline) {
			version++
			text := strings.Replace(slipBook[after], "---\n😀", "---\nQuiet.\n😀", 1)
			if version%2 == 1 {
				text = slipBook[after]
			}
			c.replaceText(after, version, text)
			got = got[:0]
			for code := range continuityOnly(c.waitVersion(after, uint32(version))) {
				got = append(got, code)
			}
			slices.Sort(got)
			if slices.Equal(got, want) {
				return
			}
		}
		require.Equal(t, want, got, what)
	}
	all := []string{continuity.CodeTraitContradiction, continuity.CodeAfterDeath, continuity.CodeTimelineOrder, continuity.CodeUnknownReference, continuity.CodeStyleRule}
	codes("every slip", all...)
	codes("every slip after a prose edit", all...)

	// Chapter 2 moves to day 1, before chapter 3's day 2.
	c.replaceText(drowning, 2, strings.Replace(slipBook[drowning], "day: 4", "day: 1", 1))
	codes("no slip in the days", continuity.CodeTraitContradiction, continuity.CodeAfterDeath, continuity.CodeUnknownReference, continuity.CodeStyleRule)

	// Retitled, chapter 2 is no longer the one Jory dies from.
	c.replaceText(drowning, 3, strings.Replace(slipBook[drowning], "The Drowning", "The Flood", 1))
	codes("Jory alive", continuity.CodeTraitContradiction, continuity.CodeTimelineOrder, continuity.CodeUnknownReference, continuity.CodeStyleRule)

	// The codex follows: Jory dies from the retitled chapter.
	c.replaceText(jory, 2, strings.Replace(slipBook[jory], "The Drowning", "The Flood", 1))
	codes("Jory dead again", all...)

	// quire.yaml turns a check off.
	require.NoError(t, os.WriteFile(filepath.Join(root, "quire.yaml"), []byte("checks: {after-death: off}\n"), 0o644))
	codes("after-death off", continuity.CodeTraitContradiction, continuity.CodeTimelineOrder, continuity.CodeUnknownReference, continuity.CodeStyleRule)
}
