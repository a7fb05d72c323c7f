package codex

import (
	"cmp"
	"slices"
	"strings"
)

// MatchKind says how a lookup matched, best first.
type MatchKind string

const (
	MatchName    MatchKind = "name"
	MatchTitle   MatchKind = "title"
	MatchStem    MatchKind = "stem"
	MatchAlias   MatchKind = "alias"
	MatchPartial MatchKind = "partial"
	MatchFuzzy   MatchKind = "fuzzy"
)

// Base scores per tier. Partial and fuzzy matches add up to 10 for how
// much of the name the query covers, so tiers never overlap.
var tierScore = map[MatchKind]float64{
	MatchName: 100, MatchTitle: 90, MatchStem: 80, MatchAlias: 70, MatchPartial: 40, MatchFuzzy: 20,
}

// Match is one lookup candidate.
type Match struct {
	Entry *Entry
	Kind  MatchKind
	Score float64
}

// maxLookup bounds how many candidates a lookup returns.
const maxLookup = 20

// minFuzzyRunes keeps one-typo matching off short queries, where a single
// edit reaches too many names.
const minFuzzyRunes = 4

// Lookup finds entries by name, best first: exact name, title, file
// stem, alias, then partial name (every query word begins a word of the
// name), then one typo away. Case, diacritics and a possessive ending
// ("Mara's") are ignored. An empty type searches all types.
func (c *Catalog) Lookup(name string, t Type) []Match {
	q := Normalize(name)
	if q == "" {
		return nil
	}
	ms := c.exact(q, t)
	if bare, ok := StripPossessive(q); ok && len(ms) == 0 {
		q = bare
	}
	ms = appendNew(ms, c.partial(q, t))
	if len(ms) == 0 {
		ms = c.fuzzy(q, t)
	}
	if len(ms) > maxLookup {
		ms = ms[:maxLookup]
	}
	return ms
}

// exact collects the exact-key tiers, retrying without a possessive.
func (c *Catalog) exact(q string, t Type) []Match {
	ms := c.exactTiers(q, t)
	if len(ms) == 0 {
		if bare, ok := StripPossessive(q); ok {
			ms = c.exactTiers(bare, t)
		}
	}
	return ms
}

func (c *Catalog) exactTiers(q string, t Type) []Match {
	var ms []Match
	seen := map[*Entry]bool{}
	collect := func(es []*Entry, kind MatchKind) {
		for _, e := range es {
			if (t == "" || e.Type == t) && !seen[e] {
				seen[e] = true
				ms = append(ms, Match{e, kind, tierScore[kind]})
			}
		}
	}
	collect(c.byName[q], MatchName)
	collect(c.byTitle[q], MatchTitle)
	collect(c.byStem[stemKey(q)], MatchStem)
	collect(c.byAlias[q], MatchAlias)
	c.sortMatches(ms)
	return ms
}

// partial matches entries where every query word is the start of a word
// in the entry's name, title or aliases: "Vell" finds Mara Vell, "harbor
// wit" finds the Harbor Witch.
func (c *Catalog) partial(q string, t Type) []Match {
	qwords := splitWords(q)
	if len(qwords) == 0 {
		return nil
	}
	var hits map[*Entry]int
	for i, w := range qwords {
		lo, _ := slices.BinarySearchFunc(c.words, w, func(r wordRef, w string) int {
			return strings.Compare(r.word, w)
		})
		found := map[*Entry]int{}
		for j := lo; j < len(c.words) && strings.HasPrefix(c.words[j].word, w); j++ {
			e := c.words[j].entry
			if t != "" && e.Type != t {
				continue
			}
			if i == 0 || hits[e] > 0 {
				found[e] = hits[e] + 1
			}
		}
		hits = found
		if len(hits) == 0 {
			return nil
		}
	}
	ms := make([]Match, 0, len(hits))
	for e := range hits {
		ms = append(ms, Match{e, MatchPartial, tierScore[MatchPartial] + 10*c.coverage(q, e)})
	}
	c.sortMatches(ms)
	return ms
}

// coverage is how much of the entry's shortest name the query spells
// out, from 0 to 1.
func (c *Catalog) coverage(q string, e *Entry) float64 {
	if n := c.keys[e].shortest; n > 0 {
		return min(1, float64(runeLen(q))/float64(n))
	}
	return 0
}

// fuzzy matches names, titles, stems and aliases one typo away, either
// whole ("Harbour Tally") or word by word, where every query word is one
// typo from a word of the entry or begins one ("Greyhnd" finds Greyhand
// Company).
func (c *Catalog) fuzzy(q string, t Type) []Match {
	n := runeLen(q)
	if n < minFuzzyRunes {
		return nil
	}
	best := map[*Entry]Match{}
	offer := func(e *Entry, score float64) {
		if m, ok := best[e]; !ok || score > m.Score {
			best[e] = Match{e, MatchFuzzy, score}
		}
	}
	for _, k := range c.fuzzyKeys {
		if k.runes < n-1 || k.runes > n+1 || (t != "" && k.entry.Type != t) {
			continue
		}
		if withinOneEdit(q, k.key) {
			offer(k.entry, tierScore[MatchFuzzy]+tierScore[k.tier]/10)
		}
	}
	if len(best) == 0 {
		for e, hits := range c.fuzzyWords(splitWords(q), t) {
			offer(e, tierScore[MatchFuzzy]+float64(hits))
		}
	}
	ms := make([]Match, 0, len(best))
	for _, m := range best {
		ms = append(ms, m)
	}
	c.sortMatches(ms)
	return ms
}

// fuzzyWords finds entries where every query word is within one typo of
// a word of the entry, or is a prefix of one; it counts the typo matches.
func (c *Catalog) fuzzyWords(qwords []string, t Type) map[*Entry]int {
	var hits map[*Entry]int
	for i, w := range qwords {
		wn := runeLen(w)
		found := map[*Entry]int{}
		for _, ref := range c.words {
			e := ref.entry
			if (t != "" && e.Type != t) || (i > 0 && hits[e] == 0) {
				continue
			}
			switch {
			case strings.HasPrefix(ref.word, w):
				found[e] = max(found[e], hits[e]+1)
			case wn >= minFuzzyRunes && abs(runeLen(ref.word)-wn) <= 1 && withinOneEdit(w, ref.word):
				found[e] = max(found[e], hits[e]+1)
			}
		}
		hits = found
		if len(hits) == 0 {
			return nil
		}
	}
	return hits
}

func appendNew(ms, more []Match) []Match {
	have := make(map[*Entry]bool, len(ms))
	for _, m := range ms {
		have[m.Entry] = true
	}
	for _, m := range more {
		if !have[m.Entry] {
			ms = append(ms, m)
		}
	}
	return ms
}

func (c *Catalog) sortMatches(ms []Match) {
	slices.SortFunc(ms, func(a, b Match) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), c.compareEntries(a.Entry, b.Entry))
	})
}
