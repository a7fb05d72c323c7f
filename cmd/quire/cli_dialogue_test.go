package main

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/manuscript/dialogue"
	"github.com/quire-ink/quire/server/wire"
)

const (
	emmaID      = "codex/characters/emma.md"
	knightleyID = "codex/characters/knightley.md"
	harrietID   = "codex/characters/harriet.md"
	robertID    = "codex/characters/robert.md"
)

// talkBook is a small book with speech in straight and curly quotes, an
// utterance its tag interrupts, a line with an accented name and an
// emoji before the quote, a writer's speaker line, an uncertain line and
// a chapter of no speech.
var talkBook = map[string]string{
	"quire.yaml":                    "title: Small Talk\n",
	"codex/characters/emma.md":      "---\ntype: character\nname: Emma Woodhouse\naliases: [Emma, Miss Woodhouse]\npronouns: she/her\n---\n# Emma Woodhouse\n",
	"codex/characters/knightley.md": "---\ntype: character\nname: George Knightley\naliases: [Mr. Knightley, Knightley]\npronouns: he/him\n---\n# George Knightley\n",
	"codex/characters/harriet.md":   "---\ntype: character\nname: Harriet Smith\naliases: [Harriet, Hattie]\n---\n# Harriet Smith\n",
	"codex/characters/robert.md":    "---\ntype: character\nname: Robert Martin\naliases: [Robert]\n---\n# Robert Martin\n",
	"codex/locations/hartfield.md":  "---\ntype: location\nname: Hartfield\n---\n# Hartfield\n",
	"manuscript/01-straight.md": "---\npov: Emma\n---\n# Straight\n\n" +
		"\"I cannot,\" said Emma, \"agree with you.\"\n\n" +
		"\"You will,\" said Mr. Knightley.\n",
	"manuscript/02-curly.md": "# Curly\n\n" +
		"Hélène 😀 “Bonjour,” said Knightley.\n\n" +
		"“Good morning,” said Miss Woodhouse.\n\n" +
		"“Who spoke?”\n<!-- speaker: Knightley -->\n\n" +
		"The door closed.\n",
	"manuscript/03-quiet.md": "# Quiet\n\nNo one spoke at Hartfield.\n",
	"manuscript/04-doubt.md": "# Doubt\n\nHarriet and Robert sat down by the fire at Hartfield.\n\n“Well?”\n",
}

// writeBook writes files into a new book folder and returns it with
// the cache flag.
func writeBook(t *testing.T, files map[string]string) (book, cacheFlag string) {
	t.Helper()
	book = filepath.Join(t.TempDir(), "book")
	for rel, text := range files {
		p := filepath.Join(book, filepath.FromSlash(rel))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}
	return book, "--cache-dir=" + filepath.Join(t.TempDir(), "cache")
}

// dialogueJSON runs `quire dialogue --json` with args on book.
func dialogueJSON(t *testing.T, book, cache string, args ...string) []wire.DialogueRecord {
	t.Helper()
	out, stderr, err := run(t, append([]string{"dialogue", "--json", "--project", book, cache}, args...)...)
	require.NoError(t, err, stderr)
	var got wire.Dialogue
	require.NoError(t, json.Unmarshal([]byte(out), &got), out)
	require.NotNil(t, got.Utterances, "the list is [] when empty, never null")
	return got.Utterances
}

func texts(records []wire.DialogueRecord) []string {
	out := make([]string, len(records))
	for i, r := range records {
		out[i] = r.Text
	}
	return out
}

func TestDialogueJSON(t *testing.T) {
	book, cache := writeBook(t, talkBook)
	records := dialogueJSON(t, book, cache)
	require.Equal(t, []string{"I cannot, agree with you.", "You will,", "Bonjour,", "Good morning,", "Who spoke?", "Well?"}, texts(records))

	// Each span's byte offsets slice the file to the words spoken, and
	// the text is the spans' joined.
	files := map[string]string{}
	for _, r := range records {
		text, ok := files[r.Chapter.Path]
		if !ok {
			data, err := os.ReadFile(filepath.Join(book, filepath.FromSlash(r.Chapter.Path)))
			require.NoError(t, err)
			text = string(data)
			files[r.Chapter.Path] = text
		}
		var parts []string
		for _, s := range r.Spans {
			parts = append(parts, text[s.Start:s.End])
		}
		assert.Equal(t, r.Text, strings.Join(parts, " "), r.Text)
		if r.Tag != nil {
			assert.Equal(t, r.Tag.Text, text[r.Tag.Start:r.Tag.End])
		}
	}

	interrupted := records[0]
	assert.Equal(t, wire.DialogueChapter{Path: "manuscript/01-straight.md", Number: 1, Position: 1, Title: "Straight"}, interrupted.Chapter)
	require.Len(t, interrupted.Spans, 2, "the tag interrupts one utterance")
	assert.Equal(t, wire.DialogueSpan{Start: 31, End: 40, Line: 6, Column: 2, EndLine: 6, EndColumn: 11}, interrupted.Spans[0])
	require.NotNil(t, interrupted.Speaker)
	assert.Equal(t, emmaID, *interrupted.Speaker)
	assert.Equal(t, "Emma Woodhouse", *interrupted.SpeakerName)
	assert.False(t, interrupted.Uncertain)
	assert.Equal(t, []wire.DialogueCharacter{}, interrupted.Candidates)
	assert.Equal(t, string(dialogue.RuleExplicit), interrupted.Rule)
	require.NotNil(t, interrupted.Tag)
	assert.Equal(t, "said Emma", interrupted.Tag.Text)
	assert.Equal(t, 5, interrupted.Words)

	// "Hélène 😀 “" before the words: Hélène is 6 UTF-16 units (8 bytes),
	// the emoji 2 (4 bytes), the spaces and the mark 3 (5 bytes).
	bonjour := records[2]
	lineStart := strings.Index(files["manuscript/02-curly.md"], "Hélène")
	assert.Equal(t, wire.DialogueSpan{Start: lineStart + 17, End: lineStart + 25, Line: 3, Column: 12, EndLine: 3, EndColumn: 20}, bonjour.Spans[0])
	assert.Equal(t, knightleyID, *bonjour.Speaker)
	assert.Equal(t, 22, bonjour.Tag.Column, "the tag's column counts UTF-16 units too")

	assert.Equal(t, emmaID, *records[3].Speaker, "an alias in the tag")
	writer := records[4]
	assert.Equal(t, knightleyID, *writer.Speaker)
	assert.Equal(t, string(dialogue.RuleWriter), writer.Rule)
	assert.Equal(t, "<!-- speaker: Knightley -->", writer.Tag.Text)

	doubt := records[5]
	assert.True(t, doubt.Uncertain)
	assert.Nil(t, doubt.Speaker)
	assert.Nil(t, doubt.SpeakerName)
	assert.Nil(t, doubt.Tag)
	require.NotEmpty(t, doubt.Candidates, "who it may be")
	for _, c := range doubt.Candidates {
		assert.Contains(t, []string{"Harriet Smith", "Robert Martin"}, c.Name)
	}

	// The JSON spells null and [] as documented.
	out, _, err := run(t, "dialogue", "--json", "--project", book, cache, "--chapter", "4")
	require.NoError(t, err)
	assert.Contains(t, out, `"speaker": null`)
	assert.Contains(t, out, `"tag": null`)
}

func TestDialogueFilters(t *testing.T) {
	book, cache := writeBook(t, talkBook)
	tests := []struct {
		name  string
		args  []string
		want  []string
		check func(t *testing.T, r wire.DialogueRecord)
	}{
		{
			name: "a chapter by number",
			args: []string{"--chapter", "2"},
			want: []string{"Bonjour,", "Good morning,", "Who spoke?"},
		},
		{
			name: "a chapter by title",
			args: []string{"--chapter", "straight"},
			want: []string{"I cannot, agree with you.", "You will,"},
		},
		{
			name: "a chapter with no speech",
			args: []string{"--chapter", "manuscript/03-quiet.md"},
			want: []string{},
		},
		{
			name: "a speaker by an alias, in any case",
			args: []string{"--speaker", "miss woodhouse"},
			want: []string{"I cannot, agree with you.", "Good morning,"},
			check: func(t *testing.T, r wire.DialogueRecord) {
				assert.Equal(t, emmaID, *r.Speaker, r.Text)
			},
		},
		{
			name: "a speaker's uncertain lines whose best guess is his",
			args: []string{"--speaker", "robert"},
			want: []string{"Well?"},
			check: func(t *testing.T, r wire.DialogueRecord) {
				assert.True(t, r.Uncertain)
				require.NotEmpty(t, r.Candidates)
				assert.Equal(t, robertID, r.Candidates[0].Entry, r.Text)
			},
		},
		{
			name: "not the lines where she is only a lesser guess",
			args: []string{"--speaker", "hattie"},
			want: []string{},
		},
		{
			name: "a speaker in a chapter",
			args: []string{"--speaker", "Knightley", "--chapter", "2"},
			want: []string{"Bonjour,", "Who spoke?"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			records := dialogueJSON(t, book, cache, tt.args...)
			assert.Equal(t, tt.want, texts(records))
			for _, r := range records {
				if tt.check != nil {
					tt.check(t, r)
				}
			}
		})
	}
}

func TestDialogueErrors(t *testing.T) {
	book, cache := writeBook(t, talkBook)
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{name: "no such character", args: []string{"--speaker", "Mrs. Elton"},
			want: []string{`no character is called "Mrs. Elton"`, "quire list characters"}},
		{name: "a place is no speaker", args: []string{"--speaker", "Hartfield"},
			want: []string{"Hartfield is a location in the codex, not a character", "--speaker takes a character's name or alias"}},
		{name: "no such chapter", args: []string{"--chapter", "9"},
			want: []string{"9"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, _, err := run(t, append([]string{"dialogue", "--project", book, cache}, tt.args...)...)
			require.Error(t, err)
			assert.Empty(t, out)
			for _, w := range tt.want {
				assert.Contains(t, err.Error(), w)
			}
			assert.NotContains(t, err.Error(), "codex/", "no entry IDs in a writer's message")
		})
	}
}

func TestDialogueText(t *testing.T) {
	book, cache := writeBook(t, talkBook)
	out, _, err := run(t, "dialogue", "--project", book, cache)
	require.NoError(t, err)
	for _, want := range []string{
		"1. Straight (manuscript/01-straight.md)",
		"LINE", "SPEAKER", "DECIDED BY", "SPOKEN",
		"Emma Woodhouse", "explicit: said Emma", "I cannot, agree with you.",
		"writer: speaker line",
		"? (maybe ",
		"6 utterances in 3 chapters; 1 uncertain.",
	} {
		assert.Contains(t, out, want)
	}
	assert.NotContains(t, out, "Quiet", "a chapter with no speech is left out")

	// A long line is clipped in the text form, whole in the JSON.
	long := "“" + strings.Repeat("word ", 40) + "end,” said Emma.\n"
	book2, cache2 := writeBook(t, map[string]string{
		"codex/characters/emma.md": talkBook["codex/characters/emma.md"],
		"manuscript/01-long.md":    "# Long\n\n" + long,
	})
	out, _, err = run(t, "dialogue", "--project", book2, cache2)
	require.NoError(t, err)
	assert.Contains(t, out, "word word…")
	assert.NotContains(t, out, "end,")
	records := dialogueJSON(t, book2, cache2)
	require.Len(t, records, 1)
	assert.True(t, strings.HasSuffix(records[0].Text, "word end,"))

	out, _, err = run(t, "dialogue", "--project", book, cache, "--chapter", "3")
	require.NoError(t, err)
	assert.Equal(t, "No dialogue found.\n", out)
}

// A line a pronoun decided says the clue that resolved the pronoun: in
// the text form beside the rule, and as the JSON record's clue.
func TestDialogueSaysAPronounsClue(t *testing.T) {
	book, cache := writeBook(t, map[string]string{
		"codex/characters/emma.md": talkBook["codex/characters/emma.md"],
		"manuscript/01-rain.md":    "# Rain\n\nEmma came in from the garden.\n\n\"It is raining,\" she said.\n",
	})
	out, _, err := run(t, "dialogue", "--project", book, cache)
	require.NoError(t, err)
	assert.Contains(t, out, "pronoun (paragraph-before): she said")
	records := dialogueJSON(t, book, cache)
	require.Len(t, records, 1)
	assert.Equal(t, string(dialogue.RulePronoun), records[0].Rule)
	assert.Equal(t, string(dialogue.ClueParagraphBefore), records[0].Clue)

	// An explicit tag's record has no clue at all.
	out, _, err = run(t, "dialogue", "--json", "--project", book, cache, "--speaker", "Emma")
	require.NoError(t, err)
	assert.Contains(t, out, `"clue": "paragraph-before"`)
	book2, cache2 := writeBook(t, talkBook)
	out, _, err = run(t, "dialogue", "--json", "--project", book2, cache2, "--chapter", "1")
	require.NoError(t, err)
	assert.NotContains(t, out, `"clue"`)
}

// quire.yaml's dialogue: quotes is the convention read; one quire does
// not know is a warning, and detection guesses.
func TestDialogueSettings(t *testing.T) {
	files := maps.Clone(talkBook)
	files["quire.yaml"] = "dialogue:\n  quotes: guillemets\n"
	book, cache := writeBook(t, files)
	assert.Empty(t, dialogueJSON(t, book, cache), "no guillemets in the book")

	files["quire.yaml"] = "dialogue:\n  quotes: curly\n"
	book, cache = writeBook(t, files)
	out, stderr, err := run(t, "dialogue", "--json", "--project", book, cache)
	require.NoError(t, err)
	assert.Contains(t, stderr, `quire: warning: quire.yaml: line 2: dialogue: quotes is one of auto, double, single, guillemets, german or dash`)
	var got wire.Dialogue
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	assert.Len(t, got.Utterances, 6, "detection guesses")
}

// quire stats gives each chapter's share of dialogue: its spoken words
// over its words.
func TestStatsDialogueShare(t *testing.T) {
	book, cache := writeBook(t, talkBook)
	out, stderr, err := run(t, "stats", "--json", "--project", book, cache)
	require.NoError(t, err, stderr)
	var got statsOutput
	require.NoError(t, json.Unmarshal([]byte(out), &got), out)
	require.Len(t, got.Chapters, 4)
	spoken := map[string]int{}
	for _, r := range dialogueJSON(t, book, cache) {
		spoken[r.Chapter.Path] += r.Words
	}
	total := 0
	for _, c := range got.Chapters {
		assert.Equal(t, spoken[c.Path], c.DialogueWords, c.Path)
		assert.InDelta(t, float64(c.DialogueWords)/float64(c.Words), c.DialogueShare, 0.0005, c.Path)
		total += c.DialogueWords
	}
	assert.Equal(t, 7, got.Chapters[0].DialogueWords, "I cannot, agree with you. You will,")
	assert.Zero(t, got.Chapters[2].DialogueShare, "a chapter of no speech")
	assert.Equal(t, total, got.DialogueWords)
	assert.InDelta(t, float64(total)/float64(got.Words), got.DialogueShare, 0.0005)

	out, _, err = run(t, "stats", "--project", book, cache)
	require.NoError(t, err)
	assert.Contains(t, out, "DIALOGUE")
	assert.Contains(t, out, dialogue.Percent(got.Chapters[0].DialogueShare))
	assert.Contains(t, out, "Dialogue: "+dialogue.Percent(got.DialogueShare)+" of the words are spoken.")
}

// A chapter saved with Windows line ends: the lines and columns are the
// editor's, the byte offsets still slice the file to the words.
func TestDialogueCRLF(t *testing.T) {
	chapter := "# Rain\r\n\r\n“Is it raining?” asked Emma.\r\n\r\nÉtienne 🌧 “It is,” said Knightley.\r\n"
	book, cache := writeBook(t, map[string]string{
		"codex/characters/emma.md":      talkBook["codex/characters/emma.md"],
		"codex/characters/knightley.md": talkBook["codex/characters/knightley.md"],
		"manuscript/01-rain.md":         chapter,
	})
	records := dialogueJSON(t, book, cache)
	require.Equal(t, []string{"Is it raining?", "It is,"}, texts(records))
	for _, r := range records {
		assert.Equal(t, r.Text, chapter[r.Spans[0].Start:r.Spans[0].End])
	}
	assert.Equal(t, wire.DialogueSpan{Start: 13, End: 27, Line: 3, Column: 2, EndLine: 3, EndColumn: 16}, records[0].Spans[0])
	assert.Equal(t, 5, records[1].Spans[0].Line)
	assert.Equal(t, 13, records[1].Spans[0].Column, "Étienne, space, rain cloud (2 units), space, mark")
	assert.Equal(t, emmaID, *records[0].Speaker)
	assert.Equal(t, knightleyID, *records[1].Speaker)
}
