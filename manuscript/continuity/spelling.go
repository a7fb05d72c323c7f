package continuity

import (
	"cmp"
	"fmt"
	"hash/maphash"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
)

// The name-spelling check. String similarity alone cannot tell a typo
// from another name (Mara/Marra and Mara/Maria are one letter apart
// alike), so what a word is decides first, and closeness only after:
//
//   - the word is capitalized, of three letters or more, not in capitals,
//     and no mention: not a name or alias of the codex, nor a word of
//     one;
//   - it is no everyday word (manuscript.IsCommonWord's 40,000), no name
//     word with an ending that makes a family or a people of it ("the
//     Bennets", "Ruritanian"), and not one the writer said is no
//     misspelling (quire.yaml's `spelling:`);
//   - after folding accents and case, it is one edit (a letter added,
//     dropped, changed, or two swapped) from a word of a name or alias of
//     four to seven letters, or two edits from a longer one;
//   - the book uses the word at most twice and that name at least five
//     times as often. A name the book keeps using is no slip of the
//     fingers: `quire untracked` offers it as a new entry instead.

// spellWord is one word of the codex's names and aliases that a
// misspelling may be near.
type spellWord struct {
	norm    string
	written string
	runes   int
	entries []string
}

// spellIndex finds the name words near a word: each name word is filed
// under itself and under each way of dropping one of its letters, and a
// word is looked up the same way, so two words one or two edits apart
// share a key (symmetric deletion).
type spellIndex struct {
	words []spellWord
	// keys are every name word's keys (dropKeys), sorted, each with the
	// word's index: one slice sorted once costs a fraction of a map of
	// slices at ten thousand entries.
	keys []spellKey
	seed maphash.Seed
	// memo remembers near's answer for each word asked: a chapter is
	// checked again on every edit, and its words with it.
	mu   sync.Mutex
	memo map[string]*spellWord
}

// spellKey files name word word under key.
type spellKey struct {
	key  uint64
	word int32
}

// memoSize bounds the memo; past it, it starts again.
const memoSize = 8192

const (
	// minSpellRunes is the shortest name word a misspelling is looked
	// for near, and minSlipRunes the shortest misspelling ("Jne" of
	// "Jane").
	minSpellRunes = 4
	minSlipRunes  = 3
	// maxNearUses is how often the book may use a misspelling; nameRatio
	// how many times more often it must name the entry.
	maxNearUses = 2
	nameRatio   = 5
)

func buildSpellIndex(cat *codex.Catalog) *spellIndex {
	ix := &spellIndex{seed: maphash.MakeSeed()}
	byNorm := map[string]int32{}
	for _, e := range cat.All() {
		if !e.Mentions {
			continue
		}
		for _, form := range append([]string{e.Name}, e.Aliases...) {
			for _, w := range strings.FieldsFunc(form, func(r rune) bool { return !unicode.IsLetter(r) }) {
				first, _ := utf8.DecodeRuneInString(w)
				n := utf8.RuneCountInString(w)
				norm := codex.Normalize(w)
				if n < minSpellRunes || !unicode.IsUpper(first) || manuscript.IsCommonWord(norm) {
					continue
				}
				if i, ok := byNorm[norm]; ok {
					if sw := &ix.words[i]; sw.entries[len(sw.entries)-1] != e.ID {
						sw.entries = append(sw.entries, e.ID)
					}
					continue
				}
				i := int32(len(ix.words))
				byNorm[norm] = i
				ix.words = append(ix.words, spellWord{norm: norm, written: w, runes: n, entries: []string{e.ID}})
				dropKeys(ix.seed, norm, editsAllowed(n), func(k uint64) {
					ix.keys = append(ix.keys, spellKey{key: k, word: i})
				})
			}
		}
	}
	slices.SortFunc(ix.keys, func(a, b spellKey) int { return cmp.Or(cmp.Compare(a.key, b.key), cmp.Compare(a.word, b.word)) })
	ix.keys = slices.Compact(ix.keys)
	return ix
}

// editsAllowed is how many edits a misspelling of a name word of n
// letters may be from it: one up to seven letters, two beyond.
func editsAllowed(n int) int {
	if n > 7 {
		return 2
	}
	return 1
}

// dropKeys calls f with the key of s, then of s with any one of its
// letters dropped, then (k is 2) with any two dropped. A key is a hash
// of the letters left, made without building them: two ways of dropping
// may give one key (the same letters, or a collision), which only
// proposes a name word for editDistance to judge.
func dropKeys(seed maphash.Seed, s string, k int, f func(uint64)) {
	var h maphash.Hash
	h.SetSeed(seed)
	key := func(a, b, c string) uint64 {
		h.Reset()
		h.WriteString(a)
		h.WriteString(b)
		h.WriteString(c)
		return h.Sum64()
	}
	f(key(s, "", ""))
	for i, r := range s {
		f(key(s[:i], s[i+utf8.RuneLen(r):], ""))
	}
	if k < 2 {
		return
	}
	for i, r := range s {
		rest := s[i+utf8.RuneLen(r):]
		for j, r2 := range rest {
			f(key(s[:i], rest[:j], rest[j+utf8.RuneLen(r2):]))
		}
	}
}

// near is the name word closest to norm within the edits its length
// allows, nil for none.
func (ix *spellIndex) near(norm string) *spellWord {
	ix.mu.Lock()
	w, ok := ix.memo[norm]
	ix.mu.Unlock()
	if ok {
		return w
	}
	w = ix.nearest(norm)
	ix.mu.Lock()
	if ix.memo == nil || len(ix.memo) >= memoSize {
		ix.memo = map[string]*spellWord{}
	}
	ix.memo[norm] = w
	ix.mu.Unlock()
	return w
}

// nearest is near without the memo.
func (ix *spellIndex) nearest(norm string) *spellWord {
	var best *spellWord
	bestD := 3
	dropKeys(ix.seed, norm, editsAllowed(utf8.RuneCountInString(norm)), func(k uint64) {
		at, _ := slices.BinarySearchFunc(ix.keys, k, func(sk spellKey, k uint64) int { return cmp.Compare(sk.key, k) })
		for ; at < len(ix.keys) && ix.keys[at].key == k; at++ {
			w := &ix.words[ix.keys[at].word]
			limit := editsAllowed(w.runes)
			if d := codex.EditDistance(norm, w.norm, limit); d > 0 && d <= limit && d < bestD {
				best, bestD = w, d
			}
		}
	})
	return best
}

// nameSpelling flags the words of the chapter that may be misspelled
// names, with the name as the fix.
func (c *checker) nameSpelling() {
	ix := c.canon.spelling()
	if len(ix.words) == 0 {
		return
	}
	text := c.u.Text
	names := c.names()
	type slip struct {
		at   codex.Range
		norm string
		word *spellWord
	}
	var slips []slip
	local := map[string]int{}
	mi := 0
	for _, tok := range c.p.tokens {
		for mi < len(names) && names[mi].Range.End <= tok.start {
			mi++
		}
		if mi < len(names) && names[mi].Range.Start < tok.end {
			continue
		}
		end := tok.end
		if w := text[tok.start:end]; strings.HasSuffix(w, "'s") || strings.HasSuffix(w, "’s") {
			end -= len("s") + utf8.RuneLen(lastRuneBefore(w, len(w)-1))
		}
		w := text[tok.start:end]
		first, _ := utf8.DecodeRuneInString(w)
		if !unicode.IsUpper(first) || utf8.RuneCountInString(w) < minSlipRunes || strings.IndexFunc(w[utf8.RuneLen(first):], unicode.IsLower) < 0 {
			continue
		}
		norm := codex.Normalize(w)
		if c.canon.accepted[norm] || manuscript.IsCommonWord(norm) || c.canon.matcher.IsNameWord(norm) || c.canon.matcher.DerivedFromName(norm) {
			continue
		}
		if sw := ix.near(norm); sw != nil {
			local[norm]++
			slips = append(slips, slip{at: codex.Range{Start: tok.start, End: end}, norm: norm, word: sw})
		}
	}
	if len(slips) == 0 {
		return
	}
	book := c.t.mentions
	uses := map[string]int{}
	usesOf := func(sw *spellWord) int {
		if n, ok := uses[sw.norm]; ok {
			return n
		}
		n := 0
		if book != nil {
			for _, id := range sw.entries {
				n += book.Uses(id)
			}
		}
		uses[sw.norm] = n
		return n
	}
	for _, s := range slips {
		variant := local[s.norm]
		if book != nil {
			variant = max(variant, book.UntrackedUses(s.norm))
		}
		// A word the book keeps using is left to untracked; only a rare
		// one asks what the whole book names the entry.
		if variant > maxNearUses {
			continue
		}
		named := usesOf(s.word)
		if named < nameRatio*variant {
			continue
		}
		written := text[s.at.Start:s.at.End]
		who := s.word.written
		if e, ok := c.canon.cat.Get(s.word.entries[0]); ok {
			who = e.Name
		}
		c.add(Diagnostic{Code: CodeNameSpelling, Range: s.at, Entry: s.word.entries[0],
			Message: fmt.Sprintf("“%s” may be a misspelling of %s: the book names %s %d times, and writes “%s” %s",
				written, s.word.written, who, named, written, times(variant)),
			Fix: &Fix{Title: "Change to " + s.word.written, Range: s.at, NewText: s.word.written}})
	}
}

func times(n int) string {
	if n == 1 {
		return "once"
	}
	return fmt.Sprintf("%d times", n)
}

func lastRuneBefore(s string, i int) rune {
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return r
}
