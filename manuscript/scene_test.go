package manuscript

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sceneFirstWords names each scene by its first prose word, or its
// title, to compare splits at a glance.
func sceneFirstWords(u *Unit, scenes []Scene) []string {
	out := make([]string, len(scenes))
	for i, s := range scenes {
		from := max(s.Range.Start, s.Break.End)
		if s.Note.Range.End > from {
			from = s.Note.Range.End
		}
		var words []string
		for line := range strings.Lines(u.Text[from:s.Range.End]) {
			if !strings.HasPrefix(line, "#") {
				words = append(words, strings.Fields(line)...)
			}
		}
		if len(words) == 0 {
			out[i] = "(" + s.Title() + ")"
			continue
		}
		out[i] = strings.Trim(words[0], ".,")
	}
	return out
}

func TestScenesSplit(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		rules SceneRules
		want  []string
	}{
		{name: "one scene", text: "# One\n\nAlpha goes.\n\nBeta too.\n", want: []string{"Alpha"}},
		{name: "stars with spaces", text: "Alpha.\n\n* * *\n\nBeta.\n", want: []string{"Alpha", "Beta"}},
		{name: "three stars", text: "Alpha.\n\n***\n\nBeta.\n", want: []string{"Alpha", "Beta"}},
		{name: "dashes after front matter", text: "---\ntitle: T\n---\nAlpha.\n\n---\n\nBeta.\n", want: []string{"Alpha", "Beta"}},
		{name: "underscores", text: "Alpha.\n\n___\n\nBeta.\n", want: []string{"Alpha", "Beta"}},
		{name: "lone hash", text: "Alpha.\n\n#\n\nBeta.\n", want: []string{"Alpha", "Beta"}},
		{name: "crlf", text: "Alpha.\r\n\r\n* * *\r\n\r\nBeta.\r\n", want: []string{"Alpha", "Beta"}},
		{name: "break in code is code", text: "Alpha.\n\n```\n***\n```\n\nBeta.\n", want: []string{"Alpha"}},
		{name: "break in a comment is no break", text: "Alpha.\n\n<!--\n***\n-->\n\nBeta.\n", want: []string{"Alpha"}},
		{name: "break first and last", text: "* * *\n\nAlpha.\n\n* * *\n", want: []string{"Alpha"}},
		{name: "breaks in a row", text: "Alpha.\n\n* * *\n\n* * *\n\nBeta.\n", want: []string{"Alpha", "Beta"}},
		{name: "title heading opens the chapter", text: "# Chapter One\n\nAlpha.\n\n## The Quay\n\nBeta.\n", want: []string{"Alpha", "Beta"}},
		{name: "heading first", text: "## The Quay\n\nAlpha.\n\n## The Vault\n\nBeta.\n", want: []string{"Alpha", "Beta"}},
		{name: "no headings", text: "# One\n\nAlpha.\n\n## Two\n\nBeta.\n", rules: SceneRules{Headings: HeadingsNone}, want: []string{"Alpha"}},
		{name: "heading level", text: "Alpha.\n\n## Two\n\nBeta.\n\n### Beat\n\nGamma.\n", rules: SceneRules{Headings: 2}, want: []string{"Alpha", "Beta"}},
		{name: "own break mark", text: "Alpha.\n\n§\n\nBeta.\n", rules: SceneRules{Breaks: []string{"§"}}, want: []string{"Alpha", "Beta"}},
		{name: "own mark unset", text: "Alpha.\n\n§\n\nBeta.\n", want: []string{"Alpha"}},
		{name: "planned scene with only a note", text: "Alpha.\n\n* * *\n\n<!-- scene\nsynopsis: Later.\nstatus: idea\n-->\n\n* * *\n\nBeta.\n",
			want: []string{"Alpha", "(Scene 2)", "Beta"}},
		{name: "empty chapter", text: "", want: []string{"(Scene 1)"}},
		{name: "front matter only", text: "---\ntitle: T\n---\n", want: []string{"(Scene 1)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u := NewUnit("manuscript/01-a.md", tt.text, 0)
			scenes := u.Scenes(tt.rules)
			assert.Equal(t, tt.want, sceneFirstWords(u, scenes))
			for i, s := range scenes {
				assert.Equal(t, i+1, s.Number)
				assert.LessOrEqual(t, u.Body.Start, s.Range.Start)
				assert.LessOrEqual(t, s.Range.End, len(u.Text))
				if i > 0 {
					assert.Equal(t, scenes[i-1].Range.End, s.Range.Start, "scenes tile the body")
				}
			}
			assert.Equal(t, u.Body.End, scenes[len(scenes)-1].Range.End)
		})
	}
}

func TestSceneNotes(t *testing.T) {
	text := "---\npov: Mara Vell\nday: 3\nsynopsis: The harbor at dawn.\nstatus: Draft\n---\n# Chapter One\n\n" +
		"<!-- scene\ntitle: Dawn\n-->\n\nAlpha walks.\n\n* * *\n\n" +
		"<!-- scene\npov: Ilse Dorn\nday: 4\nlocation: Skerry Vault\nflashback: yes\nstatus: revised\nsynopsis: Ilse finds\n  the ledger.\n-->\n\nBeta reads.\n\n* * *\n\n" +
		"<!-- scene: {status: someday, day: soon} -->\n\nGamma.\n"
	u := NewUnit("manuscript/01-a.md", text, 0)
	scenes := u.Scenes(SceneRules{})
	require.Len(t, scenes, 3)

	assert.Equal(t, "Dawn", scenes[0].Title())
	assert.Empty(t, scenes[0].Note.Meta.POV)

	n := scenes[1].Note
	assert.Equal(t, "Ilse Dorn", n.Meta.POV)
	assert.Equal(t, 4, n.Meta.Day)
	assert.True(t, n.Meta.HasDay)
	assert.Equal(t, "Skerry Vault", n.Meta.Location)
	assert.True(t, n.Meta.Flashback)
	assert.Equal(t, "revised", n.Status)
	assert.Equal(t, "Ilse finds the ledger.", n.Synopsis)
	assert.Equal(t, "Ilse Dorn", text[n.Meta.POVRange.Start:n.Meta.POVRange.End])
	assert.Equal(t, "Scene 2", scenes[1].Title())
	assert.Equal(t, 2, scenes[1].Words)

	probs := u.SceneProblems(SceneRules{})
	var at []string
	for _, p := range probs {
		at = append(at, p.Code+" "+text[p.Range.Start:p.Range.End])
	}
	assert.ElementsMatch(t, []string{"scene-note soon", "scene-status someday"}, at)

	ch := u.ChapterNote(SceneRules{})
	assert.Equal(t, "The harbor at dawn.", ch.Synopsis)
	assert.Equal(t, "draft", ch.Status, "the book's spelling of a status")
	assert.Equal(t, "Mara Vell", ch.Meta.POV)
	assert.Contains(t, text[ch.YAML.Start:ch.YAML.End], "pov: Mara Vell\n")
	assert.NotContains(t, text[ch.YAML.Start:ch.YAML.End], "---")

	custom := SceneRules{Statuses: []string{"someday"}}
	assert.Equal(t, "someday", u.Scenes(custom)[2].Note.Status)
	var unknown []string
	for _, p := range u.SceneProblems(custom) {
		if p.Code == CodeSceneStatus {
			unknown = append(unknown, text[p.Range.Start:p.Range.End])
		}
	}
	assert.Equal(t, []string{"revised"}, unknown, "the book's own statuses replace the defaults")
}

func TestSceneNoteIsNoNote(t *testing.T) {
	for _, c := range []string{"<!-- scenery -->", "<!-- a scene -->", "<!-- speaker: Mara -->", "<p>scene</p>"} {
		_, ok := noteYAML(c)
		assert.False(t, ok, c)
	}
	for _, c := range []string{"<!-- scene -->", "<!--scene\npov: A\n-->", "<!-- Scene: {pov: A} -->", "<!-- scene\n"} {
		_, ok := noteYAML(c)
		assert.True(t, ok, c)
	}
	u := NewUnit("manuscript/01-a.md", "Alpha.\n\n* * *\n\n<!-- scene\n- a list\n-->\n\nBeta.\n", 0)
	probs := u.SceneProblems(SceneRules{})
	require.Len(t, probs, 1)
	assert.Contains(t, probs[0].Message, "needs keys")
}

// TestSceneIdentityAcrossEdits follows a scene's note through the edits
// a writer makes: lines above, a split, a merge.
func TestSceneIdentityAcrossEdits(t *testing.T) {
	base := "Alpha.\n\n* * *\n\n<!-- scene\npov: Ilse Dorn\nsynopsis: The ledger.\n-->\n\nBeta one. Beta two.\n\n* * *\n\nGamma.\n"
	u := NewUnit("manuscript/01-a.md", base, 0)
	before := u.Scenes(SceneRules{})
	require.Len(t, before, 3)

	t.Run("insert above", func(t *testing.T) {
		v := NewUnit(u.Path, "New opening line.\n\n"+base, 1)
		after := v.Scenes(SceneRules{})
		require.Len(t, after, 3)
		assert.Equal(t, 2, after[1].Number)
		assert.Equal(t, "Ilse Dorn", after[1].Note.Meta.POV)
		assert.Equal(t, u.SceneHash(before[1]), v.SceneHash(after[1]), "the scene's own prose is unchanged")
		assert.Equal(t, before[1].Range.Start+len("New opening line.\n\n"), after[1].Range.Start)
	})
	t.Run("split", func(t *testing.T) {
		v := NewUnit(u.Path, strings.Replace(base, "Beta one. Beta two.", "Beta one.\n\n* * *\n\nBeta two.", 1), 1)
		after := v.Scenes(SceneRules{})
		require.Len(t, after, 4)
		assert.Equal(t, "Ilse Dorn", after[1].Note.Meta.POV, "the first half keeps the note")
		assert.Empty(t, after[2].Note.Meta.POV, "the second half is a new scene")
		assert.Equal(t, []string{"Alpha", "Beta", "Beta", "Gamma"}, sceneFirstWords(v, after))
		assert.True(t, after[1].Note.Stale(v.SceneHash(after[1])) || after[1].Note.SynopsisHash == "")
	})
	t.Run("merge", func(t *testing.T) {
		v := NewUnit(u.Path, strings.Replace(base, "Alpha.\n\n* * *\n\n", "Alpha.\n\n", 1), 1)
		after := v.Scenes(SceneRules{})
		require.Len(t, after, 2)
		assert.Empty(t, after[0].Note.Meta.POV, "a note left mid-scene is not read")
		probs := v.SceneProblems(SceneRules{})
		require.Len(t, probs, 1)
		assert.Equal(t, CodeSceneNote, probs[0].Code)
		assert.Equal(t, "<!-- scene", v.Text[probs[0].Range.Start:probs[0].Range.End])
	})
}

func TestSynopsisStale(t *testing.T) {
	u := NewUnit("manuscript/01-a.md", "Alpha.\n\n* * *\n\nBeta walks   to the\nquay.\n", 0)
	h := u.SceneHash(u.Scenes(SceneRules{})[1])
	assert.Equal(t, ProseHash("Beta walks to the quay."), h, "lines and spaces do not count")
	rewrapped := NewUnit(u.Path, "Alpha.\n\n* * *\n\nBeta walks to\nthe quay.\n", 1)
	assert.Equal(t, h, rewrapped.SceneHash(rewrapped.Scenes(SceneRules{})[1]))
	changed := NewUnit(u.Path, "Alpha.\n\n* * *\n\nBeta runs to the quay.\n", 1)
	assert.NotEqual(t, h, changed.SceneHash(changed.Scenes(SceneRules{})[1]))

	n := SceneNote{Synopsis: "Beta walks.", SynopsisHash: h}
	assert.False(t, n.Stale(h))
	assert.True(t, n.Stale(changed.SceneHash(changed.Scenes(SceneRules{})[1])))
	assert.False(t, SceneNote{Synopsis: "No hash."}.Stale("abc"), "a synopsis without its hash is never called stale")

	// The chapter's hash leaves scene notes out: writing a scene's
	// synopsis does not make the chapter's stale.
	// A note that keeps a hash has the scene's hash worked out with the
	// split, the same.
	kept := NewUnit(u.Path, "Alpha.\n\n* * *\n\n<!-- scene\nsynopsis: Beta walks.\nsynopsis-hash: 000000000000\n-->\n\nBeta walks   to the\nquay.\n", 1)
	assert.Equal(t, h, kept.Scenes(SceneRules{})[1].Hash)
	assert.True(t, kept.Scenes(SceneRules{})[1].Note.Stale(kept.Scenes(SceneRules{})[1].Hash))

	withNote := NewUnit(u.Path, "Alpha.\n\n* * *\n\n<!-- scene\nsynopsis: Beta walks.\n-->\n\nBeta walks   to the\nquay.\n", 1)
	assert.Equal(t, u.ProseHash(), withNote.ProseHash())
}

func TestSceneAt(t *testing.T) {
	u := NewUnit("manuscript/01-a.md", "---\nday: 1\n---\nAlpha.\n\n* * *\n\nBeta.\n", 0)
	scenes := u.Scenes(SceneRules{})
	assert.Equal(t, 0, SceneAt(scenes, 0), "front matter is in no scene")
	assert.Equal(t, 1, SceneAt(scenes, strings.Index(u.Text, "Alpha")))
	assert.Equal(t, 2, SceneAt(scenes, strings.Index(u.Text, "Beta")))
	assert.Equal(t, 2, SceneAt(scenes, len(u.Text)))
}

// TestProseHashIsOfTheWords: the hash streamed word by word is the hash
// of the words strings.Fields finds, each followed by a space, however
// long the text (past the hasher's buffer) and whatever its spaces.
func TestProseHashIsOfTheWords(t *testing.T) {
	for _, s := range []string{"", "   ", "one", " two  words ", "a\u00a0b\u2003c\td\r\ne", "é ü 😀 ", strings.Repeat("word ", 3000), strings.Repeat("x", 9000)} {
		want := sha256.Sum256([]byte(strings.Join(strings.Fields(s), " ") + map[bool]string{true: " ", false: ""}[len(strings.Fields(s)) > 0]))
		assert.Equal(t, hex.EncodeToString(want[:6]), ProseHash(s), "%.40q", s)
	}
}
