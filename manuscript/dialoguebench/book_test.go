package dialoguebench

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/manuscript/dialogue"
)

// The codex holds a descriptive name as prose writes it, in lower case,
// beside the annotation's capitalized form, for a character the
// annotation knows by a description only; a named character's
// descriptive alias stays as the annotation gives it.
func TestCodexWritesDescriptionsAsProseDoes(t *testing.T) {
	b := Book{Characters: []Character{
		{ID: "0", Name: "The Mariner", Gender: "male"},
		{ID: "1", Name: "The Invisible Man", Aliases: []string{"The Stranger", "Griffin"}, Gender: "male"},
		{ID: "2", Name: "Persephone", Aliases: []string{"The Girl"}, Gender: "female"},
		{ID: "3", Name: "Mr. Marvel", Aliases: []string{"Marvel"}, Gender: "male"},
		{ID: "4", Name: "A Man", Gender: "male"},
	}}
	aliases := map[string][]string{}
	for _, e := range b.Codex() {
		aliases[e.Name] = e.Aliases
	}
	for _, c := range []struct {
		name string
		want []string
	}{
		{"The Mariner", []string{"the mariner"}},
		{"The Invisible Man", []string{"The Stranger", "Griffin", "the invisible man", "the stranger"}},
		{"Persephone", []string{"The Girl"}},
		{"Mr. Marvel", []string{"Marvel"}},
		{"A Man", nil},
	} {
		assert.Equal(t, c.want, aliases[c.name], c.name)
	}

	// So a tag that names the character by the description gives the
	// line to them.
	text := "An elderly mariner sat down beside him. \"Pleasant day,\" said the mariner.\n\n" +
		"\"Very,\" said Mr. Marvel.\n"
	entries := b.Codex()
	m := manuscript.NewMatcherOf(entries)
	utts := dialogue.Analyze(dialogue.Chapter{Text: text, Body: codex.Range{End: len(text)}, Mentions: m.Scan(text)},
		dialogue.NewCast(entries), dialogue.Options{})
	require.Len(t, utts, 2)
	assert.Equal(t, EntryID("0"), utts[0].Best())
	assert.Equal(t, dialogue.RuleExplicit, utts[0].Rule)
	assert.Equal(t, EntryID("3"), utts[1].Speaker)
}
