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
	if len(name) > maxLookupBytes {
		// Longer than any name or alias can be, even one typo away: no
		// entry matches, and the fuzzy pass is not paid for it.
		return nil
	}
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

// exact collects the exact-key tiers, retrying without a possessive,
// and then, for a name in Cyrillic, as the nominatives it may be another
// case of ("вронского": Вронский), as English's possessive is.
func (c *Catalog) exact(q string, t Type) []Match {
	ms := c.exactTiers(q, t)
	if len(ms) == 0 {
		if bare, ok := StripPossessive(q); ok {
			ms = c.exactTiers(bare, t)
		}
	}
	if len(ms) == 0 && !strings.ContainsRune(q, ' ') {
		for _, n := range NominativesOf(q) {
			ms = appendNew(ms, c.exactTiers(Normalize(n), t))
		}
		c.sortMatches(ms)
	}
	return ms
}

func (c *Catalog) exactTiers(q string, t Type) []Match {
	var ms []Match
	for _, tier := range c.exactMatches(q) {
		for _, e := range tier.entries {
			// An entry found by a better tier keeps that tier; lists are short.
			if (t == "" || e.Type == t) && !slices.ContainsFunc(ms, func(m Match) bool { return m.Entry == e }) {
				ms = append(ms, Match{e, tier.kind, tierScore[tier.kind]})
			}
		}
	}
	c.sortMatches(ms)
	return ms
}

type tierHits struct {
	kind    MatchKind
	entries []*Entry
}

// exactMatches lists the entries whose name, title, file stem or alias is
// q, tier by tier, best first; within a tier in catalog order.
func (c *Catalog) exactMatches(q string) [4]tierHits {
	return [4]tierHits{
		{MatchName, c.byName.at(q)},
		{MatchTitle, c.byTitle.at(q)},
		{MatchStem, c.byStem.at(stemKey(q))},
		{MatchAlias, c.byAlias.at(q)},
	}
}

// partial matches entries where every query word is the start of a word
// in the entry's name, title or aliases: "Vell" finds Mara Vell, "harbor
// wit" finds the Harbor Witch. Candidates come from the query word with
// the fewest matching words, and are checked against the other query
// words one by one, so a common word ("the") costs nothing when a rare
// one is beside it.
func (c *Catalog) partial(q string, t Type) []Match {
	qwords := slices.DeleteFunc(splitWords(q), isArticle)
	if len(qwords) == 0 {
		return nil
	}
	rarest := -1
	var spans [2][]wordRef
	for i, w := range qwords {
		a, b := c.prefixRefs(w)
		if len(a)+len(b) == 0 {
			return nil
		}
		if rarest < 0 || len(a)+len(b) < len(spans[0])+len(spans[1]) {
			rarest, spans = i, [2][]wordRef{a, b}
		}
	}
	seen := make(map[*Entry]bool, len(spans[0])+len(spans[1]))
	var ms []Match
	for _, span := range spans {
		for _, ref := range span {
			e := c.mine(ref.entry)
			if seen[e] || (t != "" && e.Type != t) || !c.live(e) {
				continue
			}
			seen[e] = true
			k := c.keys.at(e)
			if !allPrefixes(qwords, rarest, k.words) {
				continue
			}
			ms = append(ms, Match{e, MatchPartial, tierScore[MatchPartial] + 10*coverage(q, qwords, k)})
		}
	}
	c.sortMatches(ms)
	return ms
}

// isArticle reports words that say nothing about which entry is meant:
// "the" begins a tenth of all names, so partial matching skips it.
func isArticle(w string) bool {
	switch w {
	case "the", "a", "an", "of":
		return true
	}
	return false
}

// prefixRefs are the refs of c.words, then of c.moreWords, whose words
// begin with w.
func (c *Catalog) prefixRefs(w string) (shared, own []wordRef) {
	return prefixSpan(c.words, w), prefixSpan(c.moreWords, w)
}

// prefixSpan is the part of words, sorted, that begin with w.
func prefixSpan(words []wordRef, w string) []wordRef {
	lo, _ := slices.BinarySearchFunc(words, w, func(r wordRef, w string) int { return strings.Compare(r.word, w) })
	n, _ := slices.BinarySearchFunc(words[lo:], true, func(r wordRef, _ bool) int {
		if strings.HasPrefix(r.word, w) {
			return -1
		}
		return 1
	})
	return words[lo : lo+n]
}

// allPrefixes reports whether every query word but skip begins one of
// the entry's words.
func allPrefixes(qwords []string, skip int, words []string) bool {
	for i, w := range qwords {
		if i != skip && !slices.ContainsFunc(words, func(x string) bool { return strings.HasPrefix(x, w) }) {
			return false
		}
	}
	return true
}

// coverage is how much of the matched name the query spells out, from 0
// to 1: of the names, title and aliases that hold every query word, the
// best covered; when the words are spread over several, the shortest.
func coverage(q string, qwords []string, k *keys) float64 {
	n := runeLen(q)
	best := 0.0
	for _, kw := range k.named {
		if allPrefixes(qwords, -1, kw.words) {
			best = max(best, float64(n)/float64(kw.runes))
		}
	}
	if best == 0 && k.shortest > 0 {
		best = float64(n) / float64(k.shortest)
	}
	return min(1, best)
}

// fuzzyIndex groups keys and words by length in characters, so that a
// one-typo search looks only at lengths one apart. It is built on the
// first fuzzy lookup of a catalog.
type fuzzyIndex struct {
	keys  map[int][]fuzzyKey
	words map[int][]wordRef
}

func (c *Catalog) buildFuzzyIndex() *fuzzyIndex {
	fx := &fuzzyIndex{keys: map[int][]fuzzyKey{}, words: map[int][]wordRef{}}
	for _, ks := range [][]fuzzyKey{c.fuzzyKeys, c.moreFuzzy} {
		for _, k := range ks {
			if c.live(c.mine(k.entry)) {
				fx.keys[k.runes] = append(fx.keys[k.runes], k)
			}
		}
	}
	for _, ws := range [][]wordRef{c.words, c.moreWords} {
		for _, w := range ws {
			if c.live(c.mine(w.entry)) {
				n := runeLen(w.word)
				fx.words[n] = append(fx.words[n], w)
			}
		}
	}
	return fx
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
	fx := c.fuzzyIdx()
	best := map[*Entry]Match{}
	offer := func(e *Entry, score float64) {
		if m, ok := best[e]; !ok || score > m.Score {
			best[e] = Match{e, MatchFuzzy, score}
		}
	}
	for size := n - 1; size <= n+1; size++ {
		for _, k := range fx.keys[size] {
			if (t == "" || k.entry.Type == t) && withinOneEdit(q, k.key) {
				offer(c.mine(k.entry), tierScore[MatchFuzzy]+tierScore[k.tier]/10)
			}
		}
	}
	if len(best) == 0 {
		for e, hits := range c.fuzzyWords(fx, splitWords(q), t) {
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
// a word of the entry, or is a prefix of one; it counts the words that
// needed a typo to match.
func (c *Catalog) fuzzyWords(fx *fuzzyIndex, qwords []string, t Type) map[*Entry]int {
	var hits map[*Entry]int
	for i, w := range qwords {
		found := map[*Entry]int{}
		take := func(e *Entry, typo int) {
			if (t != "" && e.Type != t) || (i > 0 && hits[e] == 0) {
				return
			}
			found[e] = max(found[e], hits[e]+typo)
		}
		shared, own := c.prefixRefs(w)
		for _, span := range [][]wordRef{shared, own} {
			for _, ref := range span {
				if e := c.mine(ref.entry); c.live(e) {
					take(e, 1)
				}
			}
		}
		if wn := runeLen(w); wn >= minFuzzyRunes {
			for size := wn - 1; size <= wn+1; size++ {
				for _, ref := range fx.words[size] {
					if withinOneEdit(w, ref.word) {
						take(c.mine(ref.entry), 1)
					}
				}
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

// sortMatches orders matches best first, ties in catalog order.
func (c *Catalog) sortMatches(ms []Match) {
	if len(ms) < 2 {
		return
	}
	// Look each rank up once; a common word can match a thousand entries.
	rank := c.ranks()
	type ranked struct {
		m    Match
		rank int
	}
	rs := make([]ranked, len(ms))
	for i, m := range ms {
		rs[i] = ranked{m, rank[m.Entry]}
	}
	slices.SortFunc(rs, func(a, b ranked) int {
		return cmp.Or(cmp.Compare(b.m.Score, a.m.Score), cmp.Compare(a.rank, b.rank))
	})
	for i, r := range rs {
		ms[i] = r.m
	}
}

// maxLookupBytes is the longest text Lookup compares with names: an
// alias of MaxAliasBytes, a possessive and two typos, with room to spare.
const maxLookupBytes = 2 * MaxAliasBytes
