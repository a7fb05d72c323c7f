package tools

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/llm/provider"
	"github.com/quire-ink/quire/llm/toolloop"
	"github.com/quire-ink/quire/manuscript/continuity"
	"github.com/quire-ink/quire/manuscript/dialogue"
)

// dialogueFiles is the test book with speech: in chapter 1 Mara speaks
// by a tag, Anne answers, and Mara's reply is given her by the turns of
// the conversation (a guess); in chapter 2 the writer's speaker line
// gives Mara a line and Anne speaks by a tag; chapter 3 has no speech.
func dialogueFiles() map[string]string {
	files := bookFiles()
	files["manuscript/01-the-harbor.md"] = "# The Harbor\n\nMara Vell walked the quay at dusk.\n\n" +
		"\"The lanterns are lit,\" said Mara.\n\n" +
		"\"Too early,\" Anne Marsh replied.\n\n" +
		"\"Early is safe.\"\n"
	files["manuscript/02-slack-water.md"] = "# Slack Water\n\nThe tide stood still and so did Anne Marsh.\n\n" +
		"\"Not yet.\" <!-- speaker: Mara -->\n\n" +
		"\"Hold,\" said Anne Marsh.\n"
	return files
}

func TestDialogueTool(t *testing.T) {
	b, roots := openBook(t, dialogueFiles())
	type line struct {
		text    string
		certain bool
		rule    string
	}
	tests := []struct {
		name     string
		args     string
		wantCode string
		wantMsg  string
		wantWarn string
		// per chapter path, the lines in order
		want      map[string][]line
		wantFrom  string
		wantTo    string
		wantTotal [4]int // lines, words, uncertain lines, uncertain words
	}{
		{name: "the whole book", args: `{"name":"Mara"}`, wantFrom: `1 "The Harbor"`, wantTo: `3 "The Storm"`,
			want: map[string][]line{
				"manuscript/01-the-harbor.md":  {{"The lanterns are lit,", true, "explicit"}, {"Early is safe.", false, "turn-taking"}},
				"manuscript/02-slack-water.md": {{"Not yet.", true, "writer"}},
			}, wantTotal: [4]int{3, 9, 1, 3}},
		{name: "from a chapter on", args: `{"name":"Mara Vell","from":"2"}`, wantFrom: `2 "Slack Water"`, wantTo: `3 "The Storm"`,
			want:      map[string][]line{"manuscript/02-slack-water.md": {{"Not yet.", true, "writer"}}},
			wantTotal: [4]int{1, 2, 0, 0}},
		{name: "up to a chapter, by title", args: `{"name":"mara","to":"the harbor"}`, wantFrom: `1 "The Harbor"`, wantTo: `1 "The Harbor"`,
			want:      map[string][]line{"manuscript/01-the-harbor.md": {{"The lanterns are lit,", true, "explicit"}, {"Early is safe.", false, "turn-taking"}}},
			wantTotal: [4]int{2, 7, 1, 3}},
		{name: "a range by number and path", args: `{"name":"Anne Marsh","from":"chapter 1","to":"manuscript/02-slack-water.md"}`,
			wantFrom: `1 "The Harbor"`, wantTo: `2 "Slack Water"`,
			want: map[string][]line{
				"manuscript/01-the-harbor.md":  {{"Too early,", true, "explicit"}},
				"manuscript/02-slack-water.md": {{"Hold,", true, "explicit"}},
			}, wantTotal: [4]int{2, 3, 0, 0}},
		{name: "the writer's chapter", args: `{"name":"Anne Marsh","from":"current","to":"current"}`, wantFrom: `2 "Slack Water"`, wantTo: `2 "Slack Water"`,
			want: map[string][]line{"manuscript/02-slack-water.md": {{"Hold,", true, "explicit"}}}, wantTotal: [4]int{1, 1, 0, 0}},
		{name: "a range where they do not speak", args: `{"name":"Mara","from":"3"}`, wantFrom: `3 "The Storm"`, wantTo: `3 "The Storm"`,
			want: map[string][]line{}, wantWarn: "no line of dialogue in chapters 3 \"The Storm\" to 3 \"The Storm\""},
		{name: "a name two characters share", args: `{"name":"the widow"}`, wantWarn: "equally well", wantFrom: `1 "The Harbor"`, wantTo: `3 "The Storm"`},
		{name: "a typo", args: `{"name":"Mara Vel"}`, wantFrom: `1 "The Harbor"`, wantTo: `3 "The Storm"`, wantTotal: [4]int{3, 9, 1, 3}},

		{name: "no such character", args: `{"name":"Zebedee Quill"}`, wantCode: toolloop.CodeNotFound, wantMsg: "no character is called"},
		{name: "not a character", args: `{"name":"Quay of Lanterns"}`, wantCode: toolloop.CodeNotFound, wantMsg: "is a location in the codex (Quay of Lanterns), not a character"},
		{name: "empty name", args: `{"name":"  "}`, wantCode: toolloop.CodeInvalidArguments},
		{name: "no name", args: `{"from":"1"}`, wantCode: toolloop.CodeInvalidArguments},
		{name: "a name too long", args: fmt.Sprintf(`{"name":%q}`, strings.Repeat("x", 201)), wantCode: toolloop.CodeInvalidArguments},
		{name: "from after to", args: `{"name":"Mara","from":"3","to":"1"}`, wantCode: toolloop.CodeInvalidArguments, wantMsg: `from (chapter 3 "The Storm") comes after to (chapter 1 "The Harbor")`},
		{name: "no such chapter", args: `{"name":"Mara","from":"99"}`, wantCode: toolloop.CodeNotFound, wantMsg: "from: "},
		{name: "an empty chapter", args: `{"name":"Mara","to":" "}`, wantCode: toolloop.CodeInvalidArguments, wantMsg: "to is empty"},
		{name: "a document that is no chapter", args: `{"name":"Mara","from":"notes/ideas.md"}`, wantCode: toolloop.CodeInvalidArguments, wantMsg: "not a chapter"},
		{name: "a path out of the book", args: `{"name":"Mara","to":"../secret.md"}`, wantCode: toolloop.CodeOutOfScope},
		{name: "an absolute path", args: `{"name":"Mara","from":"/etc/passwd"}`, wantCode: toolloop.CodeOutOfScope},
		{name: "the selection is no chapter", args: `{"name":"Mara","from":"selection"}`, wantCode: toolloop.CodeNotFound},
		{name: "an unknown argument", args: `{"name":"Mara","chapter":"1"}`, wantCode: toolloop.CodeInvalidArguments},
		{name: "a number for a chapter", args: `{"name":"Mara","from":1}`, wantCode: toolloop.CodeInvalidArguments},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := call(t, b, roots, DialogueName, tt.args)
			if tt.wantCode != "" {
				assert.Equal(t, false, env["ok"])
				code, msg, _ := errorOf(t, env)
				assert.Equal(t, tt.wantCode, code, msg)
				assert.Contains(t, msg, tt.wantMsg)
				return
			}
			require.Equal(t, true, env["ok"], "%v", env["errors"])
			data := env["data"].(map[string]any)
			assert.Equal(t, tt.wantFrom, data["from"])
			assert.Equal(t, tt.wantTo, data["to"])
			assert.Contains(t, data["note"], "best guess")
			if tt.wantWarn != "" {
				assert.Contains(t, warningsOf(env), tt.wantWarn)
			}
			if tt.want == nil {
				if tt.wantTotal != [4]int{} {
					total := data["total"].(map[string]any)
					assert.EqualValues(t, tt.wantTotal[0], total["lines"])
				}
				return
			}
			if len(tt.want) > 0 {
				assert.Empty(t, env["warnings"])
			}
			got := map[string][]line{}
			for _, c := range asSlice(data["chapters"]) {
				ch := c.(map[string]any)
				var ls []line
				lines, words, uLines, uWords := 0, 0, 0, 0
				for _, u := range asSlice(ch["utterances"]) {
					l := u.(map[string]any)
					ls = append(ls, line{l["text"].(string), l["certain"].(bool), l["rule"].(string)})
					lines++
					words += int(l["words"].(float64))
					if !l["certain"].(bool) {
						uLines++
						uWords += int(l["words"].(float64))
					}
					assert.Positive(t, l["line"])
				}
				assert.Equal(t, [4]int{lines, words, uLines, uWords},
					[4]int{int(ch["lines"].(float64)), int(ch["words"].(float64)), int(ch["uncertainLines"].(float64)), int(ch["uncertainWords"].(float64))},
					"a chapter's counts are its lines'")
				got[ch["path"].(string)] = ls
			}
			assert.Equal(t, tt.want, got)
			total := data["total"].(map[string]any)
			assert.Equal(t, tt.wantTotal, [4]int{int(total["lines"].(float64)), int(total["words"].(float64)),
				int(total["uncertainLines"].(float64)), int(total["uncertainWords"].(float64))})
		})
	}
}

// A line's number is its line in the chapter's file, and the character
// is named by its entry.
func TestDialogueToolPlacesLines(t *testing.T) {
	b, roots := openBook(t, dialogueFiles())
	env := call(t, b, roots, DialogueName, `{"name":"Mara","to":"1"}`)
	require.Equal(t, true, env["ok"], "%v", env["errors"])
	data := env["data"].(map[string]any)
	assert.Equal(t, map[string]any{"name": "Mara Vell", "relativePath": "codex/characters/mara-vell/index.md"}, data["character"])
	ch := asSlice(data["chapters"])[0].(map[string]any)
	assert.Equal(t, `1 "The Harbor"`, ch["chapter"])
	var numbers []float64
	for _, u := range asSlice(ch["utterances"]) {
		numbers = append(numbers, u.(map[string]any)["line"].(float64))
	}
	assert.Equal(t, []float64{5, 9}, numbers)
	total := data["total"].(map[string]any)
	assert.EqualValues(t, 1, total["chaptersRead"])
	assert.EqualValues(t, 1, total["chaptersSpeaking"])
}

// The book's dialogue: setting reaches the tool with the continuity
// settings: where speech is marked by dashes, quotation marks hold no
// one's words.
func TestDialogueToolReadsTheBooksQuotes(t *testing.T) {
	b, roots := openBook(t, dialogueFiles())
	b.Continuity = continuity.Options{Dialogue: dialogue.Options{Quotes: dialogue.QuotesDash}}
	env := call(t, b, roots, DialogueName, `{"name":"Mara"}`)
	require.Equal(t, true, env["ok"], "%v", env["errors"])
	assert.EqualValues(t, 0, env["data"].(map[string]any)["total"].(map[string]any)["lines"])
	assert.Contains(t, warningsOf(env), "no line of dialogue in the book")
}

// The answer is bounded: at most maxDialogueLines lines and
// maxDialogueChars characters of text, each line clipped; what is left
// out is counted, and the warning says from which chapter to ask again.
// The counts cover every line.
func TestDialogueToolBounds(t *testing.T) {
	files := bookFiles()
	var many strings.Builder
	many.WriteString("# Many Words\n\n")
	for i := range 100 {
		fmt.Fprintf(&many, "\"Line %d of the song,\" said Mara.\n\n", i+1)
	}
	files["manuscript/04-many-words.md"] = many.String()
	long := strings.Repeat("salt and ", 100) // 900 characters
	files["manuscript/05-long-lines.md"] = "# Long Lines\n\n" + strings.Repeat("\""+long+"\" said Mara.\n\n", 50)
	b, roots := openBook(t, files)

	t.Run("lines", func(t *testing.T) {
		env := call(t, b, roots, DialogueName, `{"name":"Mara","to":"4"}`)
		require.Equal(t, true, env["ok"], "%v", env["errors"])
		data := env["data"].(map[string]any)
		ch := asSlice(data["chapters"])[0].(map[string]any)
		assert.Len(t, asSlice(ch["utterances"]), maxDialogueLines)
		assert.EqualValues(t, 100, ch["lines"], "the counts cover every line")
		assert.EqualValues(t, 100-maxDialogueLines, ch["omitted"])
		assert.Equal(t, "Line 60 of the song,", asSlice(ch["utterances"])[59].(map[string]any)["text"], "in reading order")
		assert.Contains(t, warningsOf(env), `40 of Mara Vell's 100 lines were left out`)
		assert.Contains(t, warningsOf(env), `from chapter 4 "Many Words" on; ask again with from "Many Words"`)
	})
	t.Run("characters", func(t *testing.T) {
		env := call(t, b, roots, DialogueName, `{"name":"Mara","from":"5"}`)
		require.Equal(t, true, env["ok"], "%v", env["errors"])
		data := env["data"].(map[string]any)
		ch := asSlice(data["chapters"])[0].(map[string]any)
		utts := asSlice(ch["utterances"])
		assert.Len(t, utts, maxDialogueChars/maxDialogueLine)
		chars := 0
		for _, u := range utts {
			l := u.(map[string]any)
			text := l["text"].(string)
			assert.Equal(t, maxDialogueLine, len([]rune(text)), "clipped")
			assert.True(t, strings.HasSuffix(text, "…"))
			assert.Equal(t, true, l["truncated"])
			assert.EqualValues(t, 200, l["words"], "a clipped line counts all its words")
			chars += len([]rune(text))
		}
		assert.LessOrEqual(t, chars, maxDialogueChars)
		assert.EqualValues(t, 50, ch["lines"])
		assert.Contains(t, warningsOf(env), "10 of Mara Vell's 50 lines were left out")
	})
	t.Run("the whole answer fits the dispatcher's bound", func(t *testing.T) {
		res := toolloop.NewDispatcher(mustRegistry(t, Read(b)...), toolloop.Limits{}).Call(t.Context(), DialogueName, `{"name":"Mara"}`)
		require.True(t, res.Envelope.OK, "%v", res.Envelope.Errors)
	})
}

// Past maxDialogueChapters chapters where the character speaks, the
// others are counted in the total only.
func TestDialogueToolBoundsChapters(t *testing.T) {
	files := map[string]string{
		"codex/characters/mara.md": entryFile("name: Mara Vell\naliases: [Mara]", "# Mara Vell\n"),
	}
	for i := range maxDialogueChapters + 5 {
		files[fmt.Sprintf("manuscript/%03d-day.md", i+1)] = fmt.Sprintf("# Day %d\n\n\"Morning,\" said Mara.\n", i+1)
	}
	b, roots := openBook(t, files)
	env := call(t, b, roots, DialogueName, `{"name":"Mara"}`)
	require.Equal(t, true, env["ok"], "%v", env["errors"])
	data := env["data"].(map[string]any)
	assert.Len(t, asSlice(data["chapters"]), maxDialogueChapters)
	total := data["total"].(map[string]any)
	assert.EqualValues(t, maxDialogueChapters+5, total["lines"])
	assert.EqualValues(t, maxDialogueChapters+5, total["chaptersSpeaking"])
	assert.Contains(t, warningsOf(env), "the counts of 5 more chapters where Mara Vell speaks are in the total only")
	assert.Contains(t, warningsOf(env), "45 of Mara Vell's 105 lines were left out")
}

// What get_dialogue read is evidence, as get_manuscript_context's is:
// the character's entry, then each chapter whose lines it returned, each
// with the hash of what was read; the range asked is its ref.
func TestDialogueToolEvidence(t *testing.T) {
	b, roots := openBook(t, dialogueFiles())
	e := NewEvidence()
	turn := b.ForTurn(e)
	call(t, turn, roots, DialogueName, `{"name":"Mara","from":"1","to":"3"}`)
	e.Traced(toolloop.TraceRow{Round: 1, Tool: DialogueName, OK: true})
	call(t, turn, roots, DialogueName, `{"name":"Nobody","to":"2"}`)
	e.Traced(toolloop.TraceRow{Round: 1, Tool: DialogueName, Code: toolloop.CodeNotFound})
	msgs := []provider.Message{
		{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{
			{ID: "a", Name: DialogueName, Arguments: `{"name":"Mara","from":"1","to":"3"}`},
			{ID: "b", Name: DialogueName, Arguments: `{"name":"Nobody","to":"2"}`},
		}},
		{Role: provider.RoleTool, ToolCallID: "a"},
		{Role: provider.RoleTool, ToolCallID: "b"},
	}
	lookups := e.Lookups(msgs)
	require.Len(t, lookups, 2)
	entry, ok := b.Store.Catalog().Get("codex/characters/mara-vell/index.md")
	require.True(t, ok)
	hash := func(rel string) string {
		u, ok := b.Manuscript.Unit(rel)
		require.True(t, ok)
		return codex.HashText(u.BodyText())
	}
	assert.Equal(t, Lookup{Round: 1, Tool: DialogueName, Name: "Mara", Ref: "1 to 3", OK: true,
		Paths:  []string{"codex/characters/mara-vell/index.md", "manuscript/01-the-harbor.md", "manuscript/02-slack-water.md"},
		Hashes: []string{codex.HashText(entry.Source), hash("manuscript/01-the-harbor.md"), hash("manuscript/02-slack-water.md")}}, lookups[0])
	assert.Equal(t, Lookup{Round: 1, Tool: DialogueName, Name: "Nobody", Ref: "to 2", Code: toolloop.CodeNotFound}, lookups[1])

	// A call the dispatcher refused still says what it asked.
	refused := NewEvidence()
	refused.Traced(toolloop.TraceRow{Round: 2, Tool: DialogueName, Code: toolloop.CodeInvalidArguments})
	assert.Equal(t, []Lookup{{Round: 2, Tool: DialogueName, Name: "Mara", Ref: "from 2", Code: toolloop.CodeInvalidArguments}},
		refused.Lookups([]provider.Message{
			{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "c", Name: DialogueName, Arguments: `{"name":"Mara","from":"2","x":1}`}}},
			{Role: provider.RoleTool, ToolCallID: "c"},
		}))
}

func mustRegistry(t *testing.T, tools ...provider.Tool) *toolloop.Registry {
	t.Helper()
	reg, err := toolloop.NewRegistry(tools...)
	require.NoError(t, err)
	return reg
}

// A line a pronoun decided comes with the clue that resolved it, so the
// model can weigh the guess; a line a tag names has none.
func TestDialogueToolGivesAPronounsClue(t *testing.T) {
	files := bookFiles()
	files["manuscript/01-the-harbor.md"] = "# The Harbor\n\nMara Vell walked the quay at dusk.\n\n" +
		"\"The lanterns are lit,\" she said.\n\n" +
		"\"Too early,\" said Mara.\n"
	b, roots := openBook(t, files)
	env := call(t, b, roots, DialogueName, `{"name":"Mara"}`)
	require.Equal(t, true, env["ok"], "%v", env["errors"])
	data := env["data"].(map[string]any)
	assert.Contains(t, data["note"], "a pronoun's clue")
	chapters := asSlice(data["chapters"])
	require.Len(t, chapters, 1)
	lines := asSlice(chapters[0].(map[string]any)["utterances"])
	require.Len(t, lines, 2)
	first, second := lines[0].(map[string]any), lines[1].(map[string]any)
	assert.Equal(t, "The lanterns are lit,", first["text"])
	assert.Equal(t, "pronoun", first["rule"])
	assert.Equal(t, string(dialogue.ClueParagraphBefore), first["clue"])
	assert.Equal(t, "explicit", second["rule"])
	assert.NotContains(t, second, "clue")
}
