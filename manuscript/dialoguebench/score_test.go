package dialoguebench

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript/dialogue"
)

func TestMatchesNinetyPercentBothWays(t *testing.T) {
	gold := []Gold{{Spans: []codex.Range{rng(0, 100)}}}
	for _, tc := range []struct {
		name  string
		found dialogue.Utterance
		match bool
	}{
		{"exact", utt(rng(0, 100)), true},
		{"holds 90% of the gold", utt(rng(0, 90)), true},
		{"holds 89% of the gold", utt(rng(0, 89)), false},
		{"holds 90% from the other end", utt(rng(10, 100)), true},
		{"90.1% of it inside the gold", utt(rng(0, 111)), true},
		{"89.3% of it inside the gold", utt(rng(0, 112)), false},
		{"reaches back over 11 bytes before it", utt(rng(-11, 100)), true},
		{"reaches back over 12 bytes before it", utt(rng(-12, 100)), false},
		{"two spans that hold all of it", utt(rng(0, 50), rng(50, 100)), true},
		{"disjoint", utt(rng(200, 300)), false},
		{"no spans", utt(), false},
	} {
		got := Matches(gold, []dialogue.Utterance{tc.found})
		if tc.match {
			assert.Equal(t, []Match{{0, 0}}, got, tc.name)
		} else {
			assert.Empty(t, got, tc.name)
		}
	}
}

// A quotation a tag interrupts is one utterance: found as one it
// matches; found as its two parts, neither does; found as one stretch
// over the tag, it does only while the tag is under a tenth of it.
func TestMatchesInterruptedQuotation(t *testing.T) {
	text := `"I cannot think it right," said Emma, looking up from her work, "to encourage her so far."`
	a, b := span(t, text, "I cannot think it right,"), span(t, text, "to encourage her so far.")
	gold := []Gold{{Spans: []codex.Range{a, b}, Speaker: "emma"}}

	assert.Equal(t, []Match{{0, 0}}, Matches(gold, []dialogue.Utterance{utt(a, b)}), "one utterance of two spans")

	parts := []dialogue.Utterance{utt(a), utt(b)}
	assert.Empty(t, Matches(gold, parts), "two utterances, one for each part, are two errors")
	var s Score
	s.Add(gold, parts, Matches(gold, parts))
	assert.Equal(t, Score{Gold: 1, Found: 2}, s)

	whole := utt(rng(a.Start, b.End))
	assert.Empty(t, Matches(gold, []dialogue.Utterance{whole}), "the tag is more than a tenth of one stretch over it")
	long := `"I cannot think it right, I am sure, my dear Harriet, that we should go to Hartfield this very morning and leave poor Mrs. Goddard alone," said Emma, "so soon."`
	a, b = span(t, long, "I cannot think it right, I am sure, my dear Harriet, that we should go to Hartfield this very morning and leave poor Mrs. Goddard alone,"), span(t, long, "so soon.")
	gold = []Gold{{Spans: []codex.Range{a, b}}}
	assert.Equal(t, []Match{{0, 0}}, Matches(gold, []dialogue.Utterance{utt(rng(a.Start, b.End))}), "a tag under a tenth of one stretch over it")
}

func TestMatchesOneToOne(t *testing.T) {
	gold := []Gold{
		{Spans: []codex.Range{rng(0, 100)}},
		{Spans: []codex.Range{rng(200, 300)}},
	}
	found := []dialogue.Utterance{
		utt(rng(5, 100)),   // matches the first, sharing 95 bytes
		utt(rng(0, 100)),   // matches the first too, sharing 100: it wins
		utt(rng(0, 300)),   // lies mostly outside both
		utt(rng(200, 299)), // the second
	}
	got := Matches(gold, found)
	assert.Equal(t, []Match{{Gold: 0, Found: 1}, {Gold: 1, Found: 3}}, got)
	var s Score
	s.Add(gold, found, got)
	assert.Equal(t, 2, s.Matched)
	assert.InDelta(t, 0.5, s.Precision(), 1e-9)
	assert.InDelta(t, 1.0, s.Recall(), 1e-9)
	assert.InDelta(t, 2*0.5/1.5, s.F1(), 1e-9)
}

// Found utterances out of order, and one long one that starts before
// many others, are matched all the same.
func TestMatchesUnsortedAndLong(t *testing.T) {
	gold := []Gold{
		{Spans: []codex.Range{rng(0, 1000)}},
		{Spans: []codex.Range{rng(1010, 1020)}},
		{Spans: []codex.Range{rng(1030, 1040)}},
	}
	found := []dialogue.Utterance{utt(rng(1030, 1040)), utt(rng(1010, 1020)), utt(rng(0, 500), rng(500, 1000))}
	assert.Equal(t, []Match{{0, 2}, {1, 1}, {2, 0}}, Matches(gold, found))
}

func TestScoreSpeakers(t *testing.T) {
	g := func(start int, speaker string, typ QuoteType) Gold {
		return Gold{Spans: []codex.Range{rng(start, start+10)}, Speaker: speaker, Named: speaker, Type: typ}
	}
	gold := []Gold{
		g(0, "emma", Explicit),
		g(20, "emma", Explicit),
		g(40, "harriet", Anaphoric),
		g(60, "harriet", Implicit),
		g(80, "", Implicit), // a speaker not in the codex
		g(100, "emma", ""),  // no type
		g(120, "emma", Implicit),
	}
	u := func(start int, speaker string, uncertain bool, cands ...string) dialogue.Utterance {
		x := utt(rng(start, start+10))
		x.Speaker, x.Uncertain = speaker, uncertain
		for _, c := range cands {
			x.Candidates = append(x.Candidates, EntryID(c))
		}
		if speaker != "" {
			x.Speaker = EntryID(speaker)
		}
		return x
	}
	found := []dialogue.Utterance{
		u(0, "emma", false),                // right, certain
		u(20, "harriet", false),            // wrong, certain
		u(40, "", true, "harriet", "emma"), // right by its best candidate, uncertain
		u(60, "", true),                    // no speaker at all
		u(80, "emma", false),               // not in the codex: not counted
		u(100, "emma", false),              // right, certain, untyped
		u(120, "", true, "harriet"),        // wrong candidate
		u(500, "emma", false),              // no gold
	}
	var s Score
	s.Add(gold, found, Matches(gold, found))
	assert.Equal(t, 7, s.Gold)
	assert.Equal(t, 8, s.Found)
	assert.Equal(t, 7, s.Matched)
	assert.Equal(t, 1, s.NotInCodex)
	assert.Equal(t, Tally{N: 6, Right: 3, Certain: 3, CertainRight: 2}, s.Speakers)
	assert.InDelta(t, 0.5, s.Speakers.Accuracy(), 1e-9)
	assert.InDelta(t, 2.0/6, s.Speakers.StrictAccuracy(), 1e-9)
	assert.InDelta(t, 2.0/3, s.Speakers.CertainPrecision(), 1e-9)
	assert.InDelta(t, 0.5, s.Speakers.CertainShare(), 1e-9)
	assert.Equal(t, Tally{N: 2, Right: 1, Certain: 2, CertainRight: 1}, s.Type(Explicit))
	assert.Equal(t, Tally{N: 1, Right: 1}, s.Type(Anaphoric))
	assert.Equal(t, Tally{N: 2, Right: 0}, s.Type(Implicit))

	var total Score
	total.Merge(s)
	total.Merge(s)
	assert.Equal(t, 14, total.Gold)
	assert.Equal(t, Tally{N: 12, Right: 6, Certain: 6, CertainRight: 4}, total.Speakers)
	assert.Equal(t, Tally{N: 4, Right: 2, Certain: 4, CertainRight: 2}, total.Type(Explicit))
}

// fakeBook is two chapters of speech whose second chapter's offsets
// only come right when the benchmark adds the chapter's start.
func fakeBook(t *testing.T) (Book, []Chapter) {
	t.Helper()
	text := "CHAPTER I.\n\n\"I cannot,\" said Emma, \"agree.\"\n\n\"Nor I,\" said Harriet.\n\n" +
		"CHAPTER II.\n\n\"It's o'clock,\" said Emma. \"The Bennets' carriage.\"\n\nThey went.\n\n\"Yes.\"\n"
	b := Book{
		Title: "fake",
		Text:  text,
		Characters: []Character{
			{ID: "emma", Name: "Emma Woodhouse", Aliases: []string{"Emma"}, Gender: "female"},
			{ID: "harriet", Name: "Harriet Smith", Aliases: []string{"Harriet"}, Gender: "female"},
		},
	}
	q := func(id, speaker string, typ QuoteType, words ...string) {
		var spans []codex.Range
		from := 0
		if len(b.Quotes) > 0 {
			last := b.Quotes[len(b.Quotes)-1].Spans
			from = last[len(last)-1].End
		}
		for _, w := range words {
			s := span(t, text[from:], w)
			spans = append(spans, rng(from+s.Start, from+s.End))
			from += s.End
		}
		b.Quotes = append(b.Quotes, Quote{ID: id, Speaker: speaker, Type: typ, Spans: spans})
	}
	q("Q1", "emma", Explicit, "I cannot,", "agree.")
	q("Q2", "harriet", Explicit, "Nor I,")
	q("Q3", "emma", Explicit, "It's o'clock,", "The Bennets' carriage.")
	q("Q4", "Mr. Nobody", Implicit, "Yes.")
	return b, SplitChapters(text)
}

// fake is an analyzer that finds the speech of fakeBook as quire should
// (each quotation one utterance, its parts its spans) and says Emma
// speaks all of it, certain of the first utterance of each chapter only.
func fake(ch dialogue.Chapter, cast *dialogue.Cast) []dialogue.Utterance {
	var spans []codex.Range
	for i := 0; i < len(ch.Text); {
		open := strings.IndexAny(ch.Text[i:], "\"“")
		if open < 0 {
			break
		}
		open += i
		_, size := firstRune(ch.Text[open:])
		rest := ch.Text[open+size:]
		end := strings.IndexAny(rest, "\"”")
		spans = append(spans, rng(open+size, open+size+end))
		_, csize := firstRune(rest[end:])
		i = open + size + end + csize
	}
	var out []dialogue.Utterance
	for i := 0; i < len(spans); i++ {
		u := utt(spans[i])
		if i+1 < len(spans) && !strings.Contains(ch.Text[spans[i].End:spans[i+1].Start], "\n\n") {
			u = utt(spans[i], spans[i+1])
			i++
		}
		u.Speaker = EntryID("emma")
		if len(out) > 0 {
			u.Speaker, u.Uncertain, u.Candidates = "", true, []string{EntryID("emma")}
		}
		out = append(out, u)
	}
	return out
}

func firstRune(s string) (rune, int) {
	for _, r := range s {
		return r, len(string(r))
	}
	return 0, 0
}

func TestEvaluateWithAFakeAnalyzer(t *testing.T) {
	b, chapters := fakeBook(t)
	require.Len(t, chapters, 2)
	eds := NewEditions(b, chapters, true)
	require.Len(t, eds, 2)
	for _, ed := range eds {
		assert.Len(t, ed.Gold, 4, ed.Name)
		assert.Empty(t, ed.Straddling, ed.Name)
		r := Evaluate(ed, "fake", fake)
		s := r.Score
		assert.Equal(t, 4, s.Gold, ed.Name)
		assert.Equal(t, 4, s.Found, ed.Name)
		assert.Equal(t, 4, s.Matched, ed.Name, "every utterance, in both chapters, matches")
		assert.Equal(t, 1, s.NotInCodex, ed.Name)
		// Q1 emma certain right; Q2 harriet, uncertain guess emma: wrong;
		// Q3 emma certain right.
		assert.Equal(t, Tally{N: 3, Right: 2, Certain: 2, CertainRight: 2}, s.Speakers, ed.Name)
		assert.InDelta(t, 1.0, r.Raw.F1(), 1e-9, ed.Name)
		for _, m := range r.Matches {
			u := r.Found[m.Found]
			for i, sp := range u.Spans {
				assert.Equal(t, ed.Book.Text[ed.Gold[m.Gold].Spans[i].Start:ed.Gold[m.Gold].Spans[i].End], ed.Book.Text[sp.Start:sp.End], ed.Name)
			}
		}
		var dump strings.Builder
		require.NoError(t, WriteErrors(&dump, r))
		assert.Contains(t, dump.String(), "## Speakers wrong (1)")
		assert.Contains(t, dump.String(), "gold Harriet Smith; fake Emma Woodhouse")
		assert.Contains(t, dump.String(), "(uncertain)")
	}
	curly := eds[1].Book.Text
	assert.Contains(t, curly, "“I cannot,” said Emma, “agree.”")
	assert.Contains(t, curly, "“It’s o’clock,” said Emma. “The Bennets’ carriage.”")
}

// The baseline finds each pair of marks and a speaker only beside a
// speech verb.
func TestBaseline(t *testing.T) {
	b, chapters := fakeBook(t)
	for _, ed := range NewEditions(b, chapters, true) {
		r := Evaluate(ed, "baseline", Baseline)
		assert.Equal(t, 6, r.Score.Found, ed.Name)
		assert.Equal(t, 2, r.Score.Matched, ed.Name, "Nor I and Yes")
		var speakers []string
		for _, u := range r.Found {
			speakers = append(speakers, u.Speaker)
		}
		assert.Equal(t, []string{EntryID("emma"), EntryID("emma"), EntryID("harriet"), EntryID("emma"), EntryID("emma"), ""}, speakers, ed.Name)
	}
}

func TestContext(t *testing.T) {
	assert.True(t, strings.HasPrefix(elide(strings.Repeat("a", 1000)), strings.Repeat("a", 300)+"«…»"))
	text := "before “I cannot,” said Emma, “agree.” after"
	got := context(text, []codex.Range{span(t, text, "I cannot,"), span(t, text, "agree.")})
	assert.Equal(t, "    before “⟦I cannot,⟧” said Emma, “⟦agree.⟧” after", got)
}

// Speakers are tallied by the rule that decided them too, merged like
// the rest, and RuleTable lists them in the chain's order.
func TestScoreByRule(t *testing.T) {
	gold := []Gold{
		{Spans: []codex.Range{rng(0, 10)}, Speaker: "emma"},
		{Spans: []codex.Range{rng(20, 30)}, Speaker: "emma"},
		{Spans: []codex.Range{rng(40, 50)}, Speaker: "harriet"},
	}
	u := func(start int, rule dialogue.Rule, speaker string, uncertain bool) dialogue.Utterance {
		x := utt(rng(start, start+10))
		x.Rule, x.Uncertain = rule, uncertain
		if uncertain {
			x.Candidates = []string{EntryID(speaker)}
		} else {
			x.Speaker = EntryID(speaker)
		}
		return x
	}
	found := []dialogue.Utterance{
		u(0, dialogue.RuleExplicit, "emma", false),
		u(20, dialogue.RuleTurn, "harriet", true),
		u(40, dialogue.RuleTurn, "harriet", true),
	}
	var s Score
	s.Add(gold, found, Matches(gold, found))
	assert.Equal(t, map[dialogue.Rule]Tally{
		dialogue.RuleExplicit: {N: 1, Right: 1, Certain: 1, CertainRight: 1},
		dialogue.RuleTurn:     {N: 2, Right: 1},
	}, s.ByRule)

	var total Score
	total.Merge(s)
	total.Merge(s)
	assert.Equal(t, Tally{N: 4, Right: 2}, total.ByRule[dialogue.RuleTurn])

	table := RuleTable(total)
	lines := strings.Split(strings.TrimSpace(table), "\n")
	require.Len(t, lines, 3, table)
	assert.Equal(t, []string{"explicit", "2", "0.333", "1.000", "2", "1.000"}, strings.Fields(lines[1]))
	assert.Equal(t, []string{"turn-taking", "4", "0.667", "0.500", "0", "-"}, strings.Fields(lines[2]))
}

// The speakers a pronoun gave are tallied by the clue that resolved it,
// merged like the rest, and ClueTable lists them in the pronoun chain's
// order; a line no clue resolved is in no row.
func TestScoreByClue(t *testing.T) {
	gold := []Gold{
		{Spans: []codex.Range{rng(0, 10)}, Speaker: "emma"},
		{Spans: []codex.Range{rng(20, 30)}, Speaker: "emma"},
		{Spans: []codex.Range{rng(40, 50)}, Speaker: "harriet"},
	}
	u := func(start int, clue dialogue.Clue, speaker string) dialogue.Utterance {
		x := utt(rng(start, start+10))
		x.Rule, x.Clue, x.Uncertain, x.Candidates = dialogue.RulePronoun, clue, true, []string{EntryID(speaker)}
		if clue == "" {
			x.Rule = dialogue.RuleExplicit
		}
		return x
	}
	found := []dialogue.Utterance{
		u(0, dialogue.ClueLastNamed, "harriet"),
		u(20, dialogue.ClueParagraph, "emma"),
		u(40, "", "harriet"),
	}
	var s Score
	s.Add(gold, found, Matches(gold, found))
	assert.Equal(t, map[dialogue.Clue]Tally{
		dialogue.ClueLastNamed: {N: 1},
		dialogue.ClueParagraph: {N: 1, Right: 1},
	}, s.ByClue)

	var total Score
	total.Merge(s)
	total.Merge(s)
	table := ClueTable(total)
	lines := strings.Split(strings.TrimSpace(table), "\n")
	require.Len(t, lines, 3, table)
	assert.Equal(t, []string{"paragraph", "2", "0.500", "1.000"}, strings.Fields(lines[1]))
	assert.Equal(t, []string{"last-named", "2", "0.500", "0.000"}, strings.Fields(lines[2]))
}
