package continuity

import (
	"maps"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/manuscript"
)

// scene is a scene break and the note that opens the scene after it.
func scene(note string) string { return "\n\n* * *\n\n<!-- scene\n" + note + "\n-->\n\n" }

// TestSceneStoryTime: every check that reads story time reads the
// scene's where its note gives one (docs/outline.md).
func TestSceneStoryTime(t *testing.T) {
	tl, _ := openBook(t, writeBook(t, smallBook), Options{})
	tests := []struct {
		name, code, text string
		want             []string
	}{
		// timeline-order, inside the chapter and against the chapter
		// before (day 4).
		{"a scene's day goes back", CodeTimelineOrder, "---\nday: 5\n---\nProse." + scene("day: 6") + "More." + scene("day: 2") + "Later.", []string{"2"}},
		{"scene days run on", CodeTimelineOrder, "---\nday: 5\n---\nProse." + scene("day: 6") + "More." + scene("pov: Marek") + "Later." + scene("day: 7") + "End.", nil},
		{"a flashback scene may go back", CodeTimelineOrder, "---\nday: 5\n---\nProse." + scene("day: 1\nflashback: true") + "Then." + scene("day: 6") + "Now.", nil},
		{"a first scene's day is the chapter's", CodeTimelineOrder, "Prose.\n\n<!-- scene\nday: 2\n-->\n", nil},
		{"a first scene's own note day", CodeTimelineOrder, "<!-- scene\nday: 2\n-->\n\nProse.", []string{"2"}},
		{"a later scene against the chapter before", CodeTimelineOrder, "Prose." + scene("day: 3") + "More.", []string{"3"}},
		// A pov or location a scene names is checked as a chapter's.
		{"scene pov names nothing", CodeUnknownReference, "---\npov: Marek\n---\nProse." + scene("pov: Nobody Known\nlocation: Skerry Vault") + "More.", []string{"Nobody Known"}},
		{"scene location names nothing", CodeUnknownReference, "Prose." + scene("location: Nowhere Place") + "More.", []string{"Nowhere Place"}},
		// after-death: Jory is dead from chapter 2; a flashback scene
		// in a later chapter may give him speech, the others may not.
		{"dead speaks in a flashback scene", CodeAfterDeath, "---\nday: 5\n---\nThe sea was calm." + scene("flashback: true\nday: 1") + "\"Go,\" said Jory.", nil},
		{"dead speaks after the flashback scene", CodeAfterDeath, "---\nday: 5\n---\nThe sea." + scene("flashback: true\nday: 1") + "Then." + scene("flashback: false\nday: 6") + "\"Go,\" said Jory.", []string{"said Jory"}},
		{"a flashback chapter's present scene", CodeAfterDeath, "---\nflashback: true\nday: 1\n---\n\"Go,\" said Jory." + scene("flashback: false\nday: 6") + "Jory climbed the stair.", []string{"Jory climbed"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, checkText(t, tl, tc.text, tc.code))
		})
	}

	ds := Check(tl, manuscript.NewUnit("manuscript/03-test.md", "---\nday: 5\n---\nProse."+scene("day: 6")+"More."+scene("day: 2")+"Later.", 1))
	require.Len(t, ds, 1)
	assert.Contains(t, ds[0].Message, "scene 3 is on day 2, but scene 2 of this chapter before it is on day 6")
	assert.Equal(t, "manuscript/03-test.md", ds[0].Related[0].Path)
	assert.Equal(t, "Scene 2 of this chapter is on day 6", ds[0].Related[0].Message)
}

// TestSceneAsOf: canon as of a flashback scene is canon as of its day,
// as for a flashback chapter; the rest of its chapter sees the present.
func TestSceneAsOf(t *testing.T) {
	files := maps.Clone(smallBook)
	files["codex/characters/marek.md"] = "---\ntype: character\nname: Marek Dunn\naliases: [Marek]\neyes: brown\nprogressions:\n  - from: The Drowning\n    eyes: grey\n---\n"
	tl, _ := openBook(t, writeBook(t, files), Options{})
	text := "---\nday: 5\n---\nMarek's brown eyes." + scene("flashback: true\nday: 1") + "Marek's brown eyes."
	// From chapter 2 (day 4) his eyes are grey: the present scene
	// contradicts that, the flashback to day 1 does not.
	assert.Equal(t, []string{"brown eyes"}, checkText(t, tl, text, CodeTraitContradiction))
}

// TestSceneEndDay: the chapter after one whose last scene moved the
// story on is compared with that scene's day.
func TestSceneEndDay(t *testing.T) {
	files := maps.Clone(smallBook)
	files["manuscript/02-drowning.md"] = "---\ntitle: The Drowning\nday: 4\n---\nThe sea took him." + scene("day: 8") + "Days passed."
	tl, _ := openBook(t, writeBook(t, files), Options{})
	ds := Check(tl, manuscript.NewUnit("manuscript/03-test.md", "---\nday: 6\n---\nProse.\n", 1))
	require.Len(t, ds, 1)
	assert.Equal(t, CodeTimelineOrder, ds[0].Code)
	assert.Contains(t, ds[0].Message, `"The Drowning" before it is on day 8`)
	assert.Equal(t, "8", files["manuscript/02-drowning.md"][ds[0].Related[0].Range.Start:ds[0].Related[0].Range.End])
}
