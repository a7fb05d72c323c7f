package dialogue

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/manuscript"
)

// firstPerson is a book Watson tells: the lines beside his "I" lines in
// the first two chapters call him by name, while in the third the
// porter is the one called by name beside them.
var firstPerson = map[string]string{
	"codex/characters/holmes.md":  "---\ntype: character\nname: Sherlock Holmes\naliases: [Holmes]\npronouns: he/him\n---\n",
	"codex/characters/watson.md":  "---\ntype: character\nname: John Watson\naliases: [Watson]\npronouns: he/him\n---\n",
	"codex/characters/mcmurdo.md": "---\ntype: character\nname: McMurdo\npronouns: he/him\n---\n",
	"manuscript/01-the-case.md": "# The Case\n\n" +
		"\"What do you make of it, Watson?\" asked Holmes.\n\n" +
		"\"Nothing at all,\" said I.\n\n" +
		"\"Look again, Watson.\"\n",
	"manuscript/02-the-cab.md": "# The Cab\n\n" +
		"\"Are you armed, Watson?\" said Holmes.\n\n" +
		"\"I have my revolver,\" I answered.\n\n" +
		"\"Good, Watson.\"\n",
	"manuscript/03-the-gate.md": "# The Gate\n\n" +
		"The porter stood at the gate with his lamp.\n\n" +
		"\"Let us in, McMurdo,\" said Holmes.\n\n" +
		"\"Is this the house?\" I asked.\n\n" +
		"\"It is, McMurdo, and you know me.\"\n",
}

const (
	watson  = "codex/characters/watson.md"
	mcmurdo = "codex/characters/mcmurdo.md"
)

// iLine is the speaker quire gives the "I asked" line of the third
// chapter.
func iLine(t *testing.T, utts []Utterance, text string) Utterance {
	t.Helper()
	for _, u := range utts {
		if text[u.Spans[0].Start:u.Spans[0].End] == "Is this the house?" {
			return u
		}
	}
	require.FailNow(t, "no line \"Is this the house?\"")
	return Utterance{}
}

// TestTheBooksNarratorSaysI: a chapter that names no pov gives its "I"
// lines to the narrator the book's chapters show, not to the one its
// own lines suggest; a guess still.
func TestTheBooksNarratorSaysI(t *testing.T) {
	snap, cat := openSmallBook(t, firstPerson)
	u, ok := snap.Unit("manuscript/03-the-gate.md")
	require.True(t, ok)

	// The chapter alone suggests the porter, a guess.
	b := NewBook(snap, cat, Options{})
	alone := b.chapter(u)
	got := iLine(t, Analyze(alone, b.Cast(), Options{}), u.Text)
	assert.Equal(t, mcmurdo, got.Best())
	assert.True(t, got.Uncertain, "one chapter's own reading is a guess")
	assert.Equal(t, ClueNarrator, got.Clue)

	// The book's other chapters say Watson.
	ch := b.Chapter(u)
	assert.Equal(t, Votes{watson: 4}, ch.Narrators())
	got = iLine(t, Analyze(ch, b.Cast(), Options{}), u.Text)
	assert.Equal(t, watson, got.Best())
	assert.Equal(t, RulePronoun, got.Rule)
	assert.False(t, got.Uncertain, "the narrator the book's chapters agree on is certain")
	assert.Equal(t, ClueNarrator, got.Clue)

	for _, cd := range b.Chapters() {
		if cd.Unit.Path == u.Path {
			line := iLine(t, cd.Utterances, u.Text)
			assert.Equal(t, watson, line.Best(), "a whole book's analysis")
		}
	}

	// A pov, where the chapter names one, is "I" still.
	withPOV := map[string]string{}
	for k, v := range firstPerson {
		withPOV[k] = v
	}
	withPOV["manuscript/03-the-gate.md"] = "---\npov: McMurdo\n---\n" + firstPerson["manuscript/03-the-gate.md"]
	snap2, cat2 := openSmallBook(t, withPOV)
	u2, ok := snap2.Unit("manuscript/03-the-gate.md")
	require.True(t, ok)
	b2 := NewBook(snap2, cat2, Options{})
	line := iLine(t, b2.Analyze(u2), u2.Text)
	assert.Equal(t, mcmurdo, line.Best())
	assert.False(t, line.Uncertain, "the writer said whose chapter it is")
	assert.Equal(t, CluePOV, line.Clue)
}

// TestNarratorVotes: the leader needs three votes and more than any
// other; a chapter with no "I" line is left alone.
func TestNarratorVotes(t *testing.T) {
	for _, tc := range []struct {
		votes Votes
		want  string
	}{
		{nil, ""},
		{Votes{watson: 2}, ""},
		{Votes{watson: 3}, watson},
		{Votes{watson: 3, mcmurdo: 3}, ""},
		{Votes{watson: 4, mcmurdo: 3}, watson},
	} {
		assert.Equal(t, tc.want, tc.votes.leader(), "%v", tc.votes)
	}
	assert.Equal(t, Votes{watson: 3}, Votes{watson: 1}.Plus(Votes{watson: 2}))
	assert.Equal(t, Votes{watson: 1}, Votes{watson: 3, mcmurdo: 2}.Minus(Votes{watson: 2, mcmurdo: 2}))
	assert.True(t, Votes{}.Equal(nil))

	// No "I" line: the book's narrator takes no turn.
	snap, cat := openSmallBook(t, firstPerson)
	b := NewBook(snap, cat, Options{})
	text := "# Elsewhere\n\n\"Come, McMurdo,\" said Holmes.\n\n\"Where to?\"\n"
	u := manuscript.NewUnit("manuscript/04-elsewhere.md", text, 4)
	ch := b.Chapter(u)
	assert.Equal(t, Votes{watson: 4, mcmurdo: 2}, ch.Narrators())
	alone := b.chapter(u)
	assert.Equal(t, Analyze(alone, b.Cast(), Options{}), Analyze(ch, b.Cast(), Options{}))
	asked := false
	ch.Narrators = func() Votes { asked = true; return Votes{watson: 4} }
	_, read := AnalyzeAfter(nil, ch, b.Cast(), Options{}).OtherVotes()
	assert.False(t, asked || read, "a chapter with no line of \"I\" never counts the votes")
}

// TestNarratorsRemember: a Book given a Narrators counts a chapter it
// read before without reading it again, and reads again one whose text
// changed.
func TestNarratorsRemember(t *testing.T) {
	snap, cat := openSmallBook(t, firstPerson)
	var n Narrators
	b := NewBook(snap, cat, Options{}).WithNarrators(&n)
	u, _ := snap.Unit("manuscript/03-the-gate.md")
	assert.Equal(t, Votes{watson: 4}, b.OtherVotes(u))
	one, _ := snap.Unit("manuscript/01-the-case.md")
	v, ok := n.get(one.Path, b.voteKey(one, nil))
	require.True(t, ok)
	assert.Equal(t, Votes{watson: 2}, v)
	_, ok = n.get(u.Path, b.voteKey(u, nil))
	assert.False(t, ok, "the chapter asked about is not counted")

	edited := manuscript.NewUnit(one.Path, one.Text+"\nAn edit.\n", 2)
	_, ok = n.get(one.Path, b.voteKey(edited, nil))
	assert.False(t, ok, "a changed text is read again")

	// An analysis remembered is its chapter's vote.
	changes := 0
	n.OnChange(func() { changes++ })
	an := AnalyzeAfter(nil, b.Chapter(u), b.Cast(), Options{})
	b.Remember(u, an)
	v, ok = n.get(u.Path, b.voteKey(u, nil))
	require.True(t, ok)
	assert.Equal(t, Votes{mcmurdo: 2}, v)
	assert.Zero(t, changes, "a first vote is no change")

	// The same vote again is none; another is.
	b.Remember(u, an)
	assert.Zero(t, changes)
	quiet := manuscript.NewUnit(u.Path, "# The Gate\n\nNobody spoke.\n", 2)
	b.Remember(quiet, AnalyzeAfter(nil, b.chapter(quiet), b.Cast(), Options{}))
	assert.Equal(t, 1, changes, "the chapter no longer votes")
}
