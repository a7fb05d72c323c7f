package continuity

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// spellingBook is a book whose codex knows Séverine Aubrac and
// Bartholomew Crane, and whose first chapter names Séverine six times and
// Bartholomew and Carew five times each; the second chapter holds the
// words under test.
func spellingBook(t *testing.T, second string, opts Options) ([]Diagnostic, string) {
	t.Helper()
	first := "# One\n\n" + strings.Repeat("Séverine Aubrac came. Séverine laughed. ", 3) +
		strings.Repeat("Bartholomew slept. ", 5) + strings.Repeat("Carew stayed. ", 5) + "\n"
	root := writeBook(t, map[string]string{
		"codex/characters/severine.md":    "---\nname: Séverine Aubrac\naliases: [Séverine]\n---\n",
		"codex/characters/bartholomew.md": "---\nname: Bartholomew Crane\naliases: [Bartholomew]\n---\n",
		"codex/characters/carew.md":       "---\nname: Carew\n---\n",
		"codex/characters/marra.md":       "---\nname: Marra Lind\n---\n",
		"manuscript/01-one.md":            first,
		"manuscript/02-two.md":            "# Two\n\n" + second + "\n",
	})
	tl, snap := openBook(t, root, opts)
	u, ok := snap.Unit("manuscript/02-two.md")
	require.True(t, ok)
	var out []Diagnostic
	for _, d := range Check(tl, u) {
		if d.Code == CodeNameSpelling {
			out = append(out, d)
		}
	}
	return out, u.Text
}

func TestNameSpelling(t *testing.T) {
	tests := []struct {
		name   string
		text   string
		opts   Options
		flag   []string // the words flagged
		fix    []string // their fixes
		inText string   // a phrase of the first message
	}{
		{name: "a letter dropped", text: "Then Sevrine smiled.", flag: []string{"Sevrine"}, fix: []string{"Séverine"},
			inText: "“Sevrine” may be a misspelling of Séverine: the book names Séverine Aubrac 6 times, and writes “Sevrine” once"},
		{name: "two letters swapped, possessive kept out", text: "It was Sévernie's.", flag: []string{"Sévernie"}, fix: []string{"Séverine"}},
		{name: "at a sentence's start too", text: "Severnie came.", flag: []string{"Severnie"}, fix: []string{"Séverine"}},
		{name: "two edits in a long name", text: "Old Batholomeu waved.", flag: []string{"Batholomeu"}, fix: []string{"Bartholomew"}},
		{name: "two edits in a short name are another name", text: "Then Kareu and Caerw came.", flag: []string{"Caerw"}, fix: []string{"Carew"}},
		{name: "an everyday word is no misspelling", text: "The Crew and the Cares came.", flag: nil},
		{name: "a family or a people of a name", text: "The Carews and a Carewan sailed.", flag: nil},
		{name: "a name the book keeps using is a name", text: "Sevrine came. Sevrine went. Sevrine stayed.", flag: nil},
		{name: "a name the book uses rarely gives no measure", text: "Then Mara came.", flag: nil},
		{name: "in lower case it is no name", text: "then sevrine came.", flag: nil},
		{name: "in capitals it is no name", text: "SEVRINE, said the sign.", flag: nil},
		{name: "a word the writer accepts", text: "Then Sevrine smiled.", opts: Options{Spelling: []string{"sevrine"}}, flag: nil},
		{name: "the check turned off", text: "Then Sevrine smiled.", opts: Options{Checks: map[string]Level{CodeNameSpelling: LevelOff}}, flag: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, text := spellingBook(t, tt.text, tt.opts)
			var words, fixes []string
			for _, d := range got {
				words = append(words, text[d.Range.Start:d.Range.End])
				fixes = append(fixes, d.Fix.NewText)
				assert.Equal(t, d.Range, d.Fix.Range)
			}
			assert.Equal(t, tt.flag, words)
			if tt.fix != nil {
				assert.Equal(t, tt.fix, fixes)
				assert.Equal(t, "Change to "+tt.fix[0], got[0].Fix.Title)
				assert.Equal(t, "codex/characters/"+map[string]string{"Séverine": "severine.md", "Bartholomew": "bartholomew.md", "Carew": "carew.md"}[tt.fix[0]], got[0].Entry)
			}
			if tt.inText != "" {
				assert.Equal(t, tt.inText, got[0].Message)
			}
		})
	}
}
