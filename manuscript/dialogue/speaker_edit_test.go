package dialogue

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
)

// The speaker line SpeakerLines writes is read as it means: the line it
// is about becomes the character's by the writer's rule, wherever the
// utterance stands in its paragraph, and a line the writer already wrote
// is rewritten rather than joined by another.
func TestSpeakerLinesSayWhoSpeaks(t *testing.T) {
	entries := testCast(t)
	tests := []struct {
		name, text string
		line       int // the utterance, by its place in the chapter
		speaker    string
		want       string // the chapter after the edit
	}{
		{"an untagged line, the whole of its paragraph",
			"\"Come here,\" said Emma.\n\n\"Why?\"\n", 1, "Mr. Knightley",
			"\"Come here,\" said Emma.\n\n\"Why?\" <!-- speaker: Mr. Knightley -->\n"},
		{"narration after it on its line",
			"\"Come here,\" said Emma.\n\n\"Why?\" He did not move.\n", 1, "Jory",
			"\"Come here,\" said Emma.\n\n\"Why?\" He did not move. <!-- speaker: Jory -->\n"},
		{"another speech after it on its line",
			"\"Come here,\" said Emma.\n\n\"Why?\" \"Because.\"\n", 1, "Harriet Smith",
			"\"Come here,\" said Emma.\n\n\"Why?\" <!-- speaker: Harriet Smith --> \"Because.\"\n"},
		{"speech over two paragraphs",
			"\"Come here,\" said Emma.\n\n\"It was long ago,\n\n\"and far away.\"\n", 1, "Jory",
			"\"Come here,\" said Emma.\n\n\"It was long ago,\n\n\"and far away.\" <!-- speaker: Jory -->\n"},
		{"the writer's line rewritten",
			"\"Come here,\" said Emma.\n\n\"Why?\" <!-- speaker: Jory -->\n", 1, "Harriet",
			"\"Come here,\" said Emma.\n\n\"Why?\" <!-- speaker: Harriet -->\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ch := testChapter(entries, tt.text)
			cast := NewCast(entries)
			an := AnalyzeAfter(nil, ch, cast, Options{})
			utts := an.Utterances()
			id, _ := cast.Find(tt.speaker)
			got := SpeakerLines(an, ch, tt.line, []string{id}, func(string) string { return tt.speaker })
			require.Len(t, got, 1)
			e := got[0].Edit
			edited := tt.text[:e.Range.Start] + e.New + tt.text[e.Range.End:]
			assert.Equal(t, tt.want, edited)
			after := Analyze(testChapter(entries, edited), cast, Options{})
			require.Len(t, after, len(utts))
			assert.Equal(t, id, after[tt.line].Speaker)
			assert.Equal(t, RuleWriter, after[tt.line].Rule)
		})
	}
}

// Each character gets the edit for its own name, in the order asked;
// one whose name the line would read as another's, or no character's,
// gets none.
func TestSpeakerLinesForEachCharacter(t *testing.T) {
	entries := append(testCast(t), castOf(t, "name: Emma Woodhouse")...)
	text := "\"Come here,\" said Harriet.\n\n\"Why?\"\n"
	ch := testChapter(entries, text)
	cast := NewCast(entries)
	names := map[string]string{knightly: "Mr. Knightley", jory: "Jory", emma: "Emma Woodhouse", "codex/characters/c0.md": "Emma Woodhouse", "codex/characters/nobody.md": "Nobody"}
	got := SpeakerLines(AnalyzeAfter(nil, ch, cast, Options{}), ch, 1,
		[]string{knightly, "codex/characters/c0.md", "codex/characters/nobody.md", jory}, func(id string) string { return names[id] })
	require.Len(t, got, 2)
	assert.Equal(t, "Mr. Knightley", got[0].Name)
	assert.Equal(t, " <!-- speaker: Mr. Knightley -->", got[0].Edit.New)
	assert.Equal(t, "Jory", got[1].Name)
	assert.Equal(t, " <!-- speaker: Jory -->", got[1].Edit.New)
	assert.Equal(t, got[0].Edit.Range, got[1].Edit.Range)
}

func testChapter(entries []*codex.Entry, text string) Chapter {
	o := codex.OutlineOf([]byte(text))
	return Chapter{Text: text, Body: o.Body, Skip: o.Code, Mentions: manuscript.NewMatcherOf(entries).ScanAll(text)}
}
