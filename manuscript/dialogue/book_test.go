package dialogue

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/manuscript/export"
)

// smallBook is a book of two characters and three chapters.
var smallBook = map[string]string{
	"codex/characters/emma.md":      "---\ntype: character\nname: Emma Woodhouse\naliases: [Emma]\npronouns: she/her\n---\n# Emma Woodhouse\n",
	"codex/characters/knightley.md": "---\ntype: character\nname: George Knightley\naliases: [Mr. Knightley]\npronouns: he/him\n---\n# George Knightley\n",
	"codex/locations/hartfield.md":  "---\ntype: location\nname: Hartfield\n---\n# Hartfield\n",
	"manuscript/01-hartfield.md": "---\npov: Emma\n---\n# Hartfield\n\n" +
		"\"I cannot,\" said Emma, \"agree with you.\"\n\n" +
		"“You will,” said Mr. Knightley.\n",
	"manuscript/02-the-letter.md": "---\npov: emma woodhouse\n---\n# The Letter\n\n" +
		"“Never,” I said.\n\n" +
		"`\"code is never speech\"`\n\n" +
		"<!-- \"nor is a comment\" -->\n\n" +
		"“Who spoke?”\n<!-- speaker: Mr. Knightley -->\n\nThe door closed.\n",
	"manuscript/03-quiet.md": "# Quiet\n\nNo one spoke at Hartfield.\n",
}

// openSmallBook writes files into a folder of the test's and opens its
// codex and manuscript, the manuscript's mentions found with the codex's
// names.
func openSmallBook(t *testing.T, files map[string]string) (*manuscript.Snapshot, *codex.Catalog) {
	t.Helper()
	dir := t.TempDir()
	for rel, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}
	ctx := context.Background()
	store, err := codex.Open(ctx, dir, codex.Options{InMemory: true})
	require.NoError(t, err)
	t.Cleanup(func() { _ = store.Close() })
	cat := store.Catalog()
	ms, err := manuscript.Open(ctx, dir, manuscript.Options{Catalog: cat})
	require.NoError(t, err)
	return ms.Snapshot(), cat
}

func TestBookChapters(t *testing.T) {
	snap, cat := openSmallBook(t, smallBook)
	b := NewBook(snap, cat, Options{})
	chapters := b.Chapters()
	require.Len(t, chapters, 3)

	type said struct {
		text    []string
		speaker string
		rule    Rule
	}
	got := map[string][]said{}
	for _, ch := range chapters {
		for _, u := range ch.Utterances {
			var text []string
			for _, s := range u.Spans {
				text = append(text, ch.Unit.Text[s.Start:s.End])
			}
			got[ch.Unit.Path] = append(got[ch.Unit.Path], said{text, u.Best(), u.Rule})
		}
	}
	emma, knightley := "codex/characters/emma.md", "codex/characters/knightley.md"
	assert.Equal(t, map[string][]said{
		"manuscript/01-hartfield.md": {
			{[]string{"I cannot,", "agree with you."}, emma, RuleExplicit},
			{[]string{"You will,"}, knightley, RuleExplicit},
		},
		"manuscript/02-the-letter.md": {
			{[]string{"Never,"}, emma, RulePronoun},
			{[]string{"Who spoke?"}, knightley, RuleWriter},
		},
	}, got, "reading order; code and comments are never speech; I is the chapter's pov: by any form of the name")
	assert.Equal(t, "manuscript/03-quiet.md", chapters[2].Unit.Path)
	assert.Empty(t, chapters[2].Utterances)
}

// The snapshot's mentions are what a scan of the chapter's body finds.
func TestBookChapterMentions(t *testing.T) {
	snap, cat := openSmallBook(t, smallBook)
	b := NewBook(snap, cat, Options{})
	u, ok := snap.Unit("manuscript/01-hartfield.md")
	require.True(t, ok)
	ch := b.Chapter(u)
	require.NotEmpty(t, ch.Mentions)
	assert.Equal(t, u.Body, ch.Body)
	assert.Equal(t, "codex/characters/emma.md", ch.POV)

	// A text the index never saw (an unsaved edit) is scanned on its own,
	// at the same offsets.
	other := manuscript.NewUnit(u.Path, u.Text, 2)
	fresh := b.Chapter(other)
	assert.Equal(t, ch.Mentions, fresh.Mentions)
	assert.Equal(t, b.Analyze(u), b.Analyze(other))
}

func TestBookPOV(t *testing.T) {
	snap, cat := openSmallBook(t, smallBook)
	b := NewBook(snap, cat, Options{})
	for name, want := range map[string]string{
		"":                "",
		"Emma":            "codex/characters/emma.md",
		"EMMA WOODHOUSE":  "codex/characters/emma.md",
		"Mr. Knightley's": "codex/characters/knightley.md",
		"knightley":       "codex/characters/knightley.md", // the file's name
		"Hartfield":       "",                              // no character
		"Emm":             "",                              // a partial name is no name
		"Nobody At All":   "",
	} {
		assert.Equal(t, want, b.povOf(name), "%q", name)
	}
}

func TestSpokenWordsAndShare(t *testing.T) {
	snap, _ := openSmallBook(t, smallBook)
	units := snap.Units()
	spoken := SpokenWords(units, Options{})
	assert.Equal(t, []int{7, 3, 0}, spoken)
	assert.InDelta(t, 7.0/float64(units[0].Words), Share(spoken[0], units[0].Words), 1e-9)
	assert.Zero(t, Share(0, 10))
	assert.Zero(t, Share(3, 0))
	assert.Equal(t, 1.0, Share(12, 10), "never above the whole")
	for share, want := range map[float64]string{0: "0%", 0.004: "<1%", 0.005: "1%", 0.346: "35%", 1: "100%"} {
		assert.Equal(t, want, Percent(share), "%v", share)
	}
	// A convention stated in quire.yaml is the one read.
	assert.Equal(t, []int{0, 0, 0}, SpokenWords(units, Options{Quotes: QuotesGuillemets}))
}

// docs/dialogue.md tells the writer the build leaves the correction line
// out: it does.
func TestTheBuildLeavesTheSpeakerLineOut(t *testing.T) {
	prose := export.Prose("“Who spoke?”\n<!-- speaker: Mr. Knightley -->\n")
	assert.NotContains(t, prose, "speaker")
	assert.Contains(t, prose, "“Who spoke?”")
}

func TestParallelVisitsEachOnce(t *testing.T) {
	for _, n := range []int{0, 1, 2, 7, 100} {
		seen := make([]int, n)
		parallel(n, func(i int) { seen[i]++ })
		for i, c := range seen {
			assert.Equal(t, 1, c, "n=%d i=%d", n, i)
		}
	}
}

// A scene's own pov is the "I" of its tags (docs/outline.md): the
// chapter's before it, the scene's from its break on.
func TestBookScenePOV(t *testing.T) {
	snap, cat := openSmallBook(t, smallBook)
	b := NewBook(snap, cat, Options{})
	text := "---\npov: Emma\n---\n\"Never,\" I said.\n\n* * *\n\n<!-- scene\npov: Mr. Knightley\n-->\n\n\"Always,\" I said.\n\n* * *\n\n<!-- scene\npov: Nobody At All\n-->\n\n\"Who?\" I said.\n"
	u := manuscript.NewUnit("manuscript/01-hartfield.md", text, 2)
	ch := b.Chapter(u)
	assert.Equal(t, []POVFrom{{From: strings.Index(text, "* * *"), ID: "codex/characters/knightley.md"}, {From: strings.LastIndex(text, "* * *"), ID: ""}}, ch.POVs)
	utts := b.Analyze(u)
	require.Len(t, utts, 3)
	assert.Equal(t, "codex/characters/emma.md", utts[0].Best())
	assert.Equal(t, "codex/characters/knightley.md", utts[1].Best())
	assert.NotEqual(t, "codex/characters/knightley.md", utts[2].Best(), "the scene before's pov holds no further")
}
