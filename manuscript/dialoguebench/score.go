package dialoguebench

import (
	"slices"
	"sort"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript/dialogue"
	"github.com/quire-ink/quire/manuscript/namebench"
)

// Match pairs a gold utterance with the found utterance that matches it,
// by their indexes.
type Match struct {
	Gold, Found int
}

// Matches pairs gold and found utterances one to one, strictly: found
// utterance u matches gold g when the bytes both cover are at least 90%
// of g's and at least 90% of u's, where u covers the union of its Spans
// and g of its own. So an utterance that a tag interrupts must be found
// as one utterance, and one that runs on over narration is wrong. Where
// several pairs qualify, those sharing the most bytes are taken first.
func Matches(gold []Gold, found []dialogue.Utterance) []Match {
	covers := make([][]codex.Range, len(found))
	order := make([]int, len(found))
	for i, u := range found {
		covers[i] = union(u.Spans)
		order[i] = i
	}
	start := func(i int) int {
		if len(covers[i]) == 0 {
			return 0
		}
		return covers[i][0].Start
	}
	end := func(i int) int {
		if len(covers[i]) == 0 {
			return 0
		}
		return covers[i][len(covers[i])-1].End
	}
	sort.SliceStable(order, func(a, b int) bool { return start(order[a]) < start(order[b]) })
	// maxEnd[k] is the furthest end among order[:k+1], so a scan back
	// from a gold utterance's end stops where nothing can reach it.
	maxEnd := make([]int, len(order))
	for k, i := range order {
		maxEnd[k] = end(i)
		if k > 0 {
			maxEnd[k] = max(maxEnd[k], maxEnd[k-1])
		}
	}
	type pair struct{ g, f, shared int }
	var pairs []pair
	for gi, g := range gold {
		gc := union(g.Spans)
		if len(gc) == 0 {
			continue
		}
		glen := coverLen(gc)
		gStart, gEnd := gc[0].Start, gc[len(gc)-1].End
		k := sort.Search(len(order), func(k int) bool { return start(order[k]) >= gEnd }) - 1
		for ; k >= 0 && maxEnd[k] > gStart; k-- {
			fi := order[k]
			shared := overlap(gc, covers[fi])
			if shared > 0 && 10*shared >= 9*glen && 10*shared >= 9*coverLen(covers[fi]) {
				pairs = append(pairs, pair{gi, fi, shared})
			}
		}
	}
	slices.SortStableFunc(pairs, func(a, b pair) int {
		if a.shared != b.shared {
			return b.shared - a.shared
		}
		if a.g != b.g {
			return a.g - b.g
		}
		return a.f - b.f
	})
	usedG, usedF := map[int]bool{}, map[int]bool{}
	var out []Match
	for _, p := range pairs {
		if !usedG[p.g] && !usedF[p.f] {
			usedG[p.g], usedF[p.f] = true, true
			out = append(out, Match{Gold: p.g, Found: p.f})
		}
	}
	slices.SortFunc(out, func(a, b Match) int { return a.Gold - b.Gold })
	return out
}

// Tally counts speakers over matched gold utterances whose speaker is in
// the codex.
type Tally struct {
	// N is how many; Right how many the analyzer's best speaker
	// (Utterance.Best) has right.
	N, Right int
	// Certain counts those the analyzer gives a speaker without marking
	// it uncertain; CertainRight those of them it has right.
	Certain, CertainRight int
}

func (t *Tally) add(o Tally) {
	t.N += o.N
	t.Right += o.Right
	t.Certain += o.Certain
	t.CertainRight += o.CertainRight
}

// Accuracy is the share of speakers right.
func (t Tally) Accuracy() float64 { return namebench.Ratio(t.Right, t.N) }

// StrictAccuracy counts an uncertain speaker as wrong.
func (t Tally) StrictAccuracy() float64 { return namebench.Ratio(t.CertainRight, t.N) }

// CertainPrecision is the share of certain speakers that are right.
func (t Tally) CertainPrecision() float64 { return namebench.Ratio(t.CertainRight, t.Certain) }

// CertainShare is the share of speakers the analyzer is certain of.
func (t Tally) CertainShare() float64 { return namebench.Ratio(t.Certain, t.N) }

// Score is an analyzer's figures over one or more books.
type Score struct {
	// Gold, Found and Matched count utterances: detection's precision
	// is Matched/Found, its recall Matched/Gold.
	Gold, Found, Matched int
	// Speakers are over every matched gold utterance whose speaker is in
	// the codex; ByType the same by PDNC's quotation type (Explicit,
	// Anaphoric, Implicit).
	Speakers Tally
	ByType   [3]Tally
	// ByRule are the speakers by the link of quire's chain that decided
	// them (Utterance.Rule): how far a writer may trust each, and where
	// the errors come from.
	ByRule map[dialogue.Rule]Tally
	// ByClue are the speakers a pronoun gave, by the clue that resolved
	// it (Utterance.Clue): which readings of the text around a line
	// hold, and which mislead.
	ByClue map[dialogue.Clue]Tally
	// NotInCodex counts matched gold utterances whose speaker is no
	// character of the codex (LitBank's people with no proper name in
	// the excerpt): left out of speaker accuracy.
	NotInCodex int
}

// Add scores one edition's utterances against its gold.
func (s *Score) Add(gold []Gold, found []dialogue.Utterance, matches []Match) {
	s.Gold += len(gold)
	s.Found += len(found)
	s.Matched += len(matches)
	for _, m := range matches {
		g, u := gold[m.Gold], found[m.Found]
		if g.Speaker == "" {
			s.NotInCodex++
			continue
		}
		want := EntryID(g.Speaker)
		var t Tally
		t.N = 1
		if u.Best() == want {
			t.Right = 1
		}
		if !u.Uncertain && u.Speaker != "" {
			t.Certain = 1
			if u.Speaker == want {
				t.CertainRight = 1
			}
		}
		s.Speakers.add(t)
		addTally(&s.ByRule, u.Rule, t)
		if u.Clue != "" {
			addTally(&s.ByClue, u.Clue, t)
		}
		if i := typeIndex(g.Type); i >= 0 {
			s.ByType[i].add(t)
		}
	}
}

// Merge adds another score's counts.
func (s *Score) Merge(o Score) {
	s.Gold += o.Gold
	s.Found += o.Found
	s.Matched += o.Matched
	s.Speakers.add(o.Speakers)
	for i := range s.ByType {
		s.ByType[i].add(o.ByType[i])
	}
	for r, t := range o.ByRule {
		addTally(&s.ByRule, r, t)
	}
	for c, t := range o.ByClue {
		addTally(&s.ByClue, c, t)
	}
	s.NotInCodex += o.NotInCodex
}

// addTally adds t to (*m)[k], making the map when it has none.
func addTally[K comparable](m *map[K]Tally, k K, t Tally) {
	if *m == nil {
		*m = map[K]Tally{}
	}
	kt := (*m)[k]
	kt.add(t)
	(*m)[k] = kt
}

// Precision, Recall and F1 of detection.
func (s Score) Precision() float64 { return namebench.Ratio(s.Matched, s.Found) }
func (s Score) Recall() float64    { return namebench.Ratio(s.Matched, s.Gold) }
func (s Score) F1() float64        { return namebench.F1(s.Precision(), s.Recall()) }

// Type is the tally of one quotation type.
func (s Score) Type(t QuoteType) Tally {
	if i := typeIndex(t); i >= 0 {
		return s.ByType[i]
	}
	return Tally{}
}
