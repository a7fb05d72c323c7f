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
//   - it is no everyday word (manuscript.IsCommonWord's 40,000) unless a
//     title stands before it ("Mrs. Hurts": a title makes the word after
//     it a name), no word of address ("Ma'am"; manuscript.IsAddress) or
//     people ("Frenchwoman"; manuscript.IsPeople), no word made from a
//     word of address by an ending ("Admiralty" is no slip of the
//     Admiral in "Admiral Croft"), no name an English dictionary knows
//     ("Julia" beside Julius, "Rome" beside Rose: another name, which
//     costs the slips that happen to make one; manuscript.IsKnownName),
//     no name word with an ending that makes a family or a people of it
//     ("the Bennets", "Ruritanian"), not among another language's words
//     or a dialect's ("Mais le Baron est si irascible", "Wud of Bister
//     Fagid's lads": amongForeignWords), and not one the writer said is
//     no misspelling (quire.yaml's `spelling:`); and the chapter is in
//     English, as the dictionary is (englishProse);
//   - after folding accents and case, it is one edit (a letter added,
//     dropped, changed, or two swapped) from a word of a name or alias of
//     four to seven letters, or two edits from a longer one. A word the
//     codex capitalizes in a name is a name word even when it is an
//     everyday word too ("Kitty" of Kitty Bennet): the codex says it is
//     a name. Two edits from a name word of five to seven letters count
//     where the book's evidence says so (twoEditsLikely): "Lidya" for
//     Lydia;
//   - the book uses the word at most twice and that name at least five
//     times as often. A name the book keeps using is no slip of the
//     fingers: `quire untracked` offers it as a new entry instead.
//
// Of name words as near as each other, the one the book uses most is
// the one meant. A name word several entries share ("Bingley" of Charles
// and Caroline Bingley) is used as often as they are named together,
// and the warning names each of them with its own count.

// spellWord is one word of the codex's names and aliases that a
// misspelling may be near.
type spellWord struct {
	norm    string
	written string
	runes   int
	entries []string
	// address marks a word of address (the Admiral of "Admiral Croft"):
	// a word that goes on past it is made from it ("Admiralty",
	// "Captaincy"), not a slip.
	address bool
}

// spellIndex finds the name words near a word: each name word is filed
// under itself and under each way of dropping one or two of its
// letters, and a word is looked up the same way, so two words one or
// two edits apart share a key (symmetric deletion).
type spellIndex struct {
	words []spellWord
	// longest is the most letters a name word has.
	longest int
	// keys are every name word's keys (dropKeys), sorted, each the key's
	// top bits with the word's index below them (fileKey): one slice of
	// numbers sorted once costs a fraction of a map of slices at ten
	// thousand entries, and half a slice of pairs.
	keys []uint64
	seed maphash.Seed
	// memo remembers near's answer for each word asked: a chapter is
	// checked again on every edit, and its words with it.
	mu   sync.Mutex
	memo map[string]nearWords
}

// nearWords are the name words nearest a word, dist edits from it.
type nearWords struct {
	words []*spellWord
	dist  int
}

// wordBits are the low bits of a filed key that hold the word's index;
// the key keeps the rest, 40 bits, enough that two keys rarely meet by
// chance (and a chance meeting only proposes a word for editDistance to
// judge). A codex past 16 million name words is filed up to there.
const (
	wordBits = 24
	wordMask = 1<<wordBits - 1
	maxWords = wordMask
)

// fileKey is key k with word i in its low bits.
func fileKey(k uint64, i int) uint64 { return k&^wordMask | uint64(i) }

// memoSize bounds the memo; past it, it starts again.
const memoSize = 8192

// maxNear bounds the name words near reports for one word, all as near
// as each other: the check names the one the book uses most.
const maxNear = 8

const (
	// minSpellRunes is the shortest name word a misspelling is looked
	// for near, and minSlipRunes the shortest misspelling ("Jne" of
	// "Jane").
	minSpellRunes = 4
	minSlipRunes  = 3
	// maxNameRunes is the longest name word filed ("Wolfeschlegelstein"
	// and kin fit): its keys grow as the square of its length, and a
	// word more than two letters longer than every name word is near
	// none, so a pasted run of letters costs nothing.
	maxNameRunes = 40
	// maxOneEditRunes is the longest name word a word two edits from
	// needs more than closeness to be its misspelling, and
	// minTwoEditRunes the shortest one it may be at all.
	maxOneEditRunes = 7
	minTwoEditRunes = 5
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
				if n < minSpellRunes || n > maxNameRunes || !unicode.IsUpper(first) {
					continue
				}
				if i, ok := byNorm[norm]; ok {
					if sw := &ix.words[i]; sw.entries[len(sw.entries)-1] != e.ID {
						sw.entries = append(sw.entries, e.ID)
					}
					continue
				}
				if len(ix.words) >= maxWords {
					continue
				}
				byNorm[norm] = int32(len(ix.words))
				ix.words = append(ix.words, spellWord{norm: norm, written: w, runes: n, entries: []string{e.ID}, address: manuscript.IsAddress(norm)})
				ix.longest = max(ix.longest, n)
			}
		}
	}
	// The keys are filed in one slice of their exact size: grown by
	// appending, it left as much again behind as garbage while a codex
	// of 10,000 entries was read.
	total := 0
	for i := range ix.words {
		total += keyCount(utf8.RuneCountInString(ix.words[i].norm), keyEdits(ix.words[i].runes))
	}
	ix.keys = make([]uint64, 0, total)
	for i := range ix.words {
		dropKeys(ix.seed, ix.words[i].norm, keyEdits(ix.words[i].runes), func(k uint64) {
			ix.keys = append(ix.keys, fileKey(k, i))
		})
	}
	slices.Sort(ix.keys)
	ix.keys = slices.Compact(ix.keys)
	return ix
}

// editsAllowed is how many edits a misspelling of a name word of n
// letters may be from it on its closeness alone: one up to seven
// letters, two beyond.
func editsAllowed(n int) int {
	if n > maxOneEditRunes {
		return 2
	}
	return 1
}

// keyEdits is how many edits from a name word of n letters the index
// finds a word: two from one of five letters or more, where the book's
// evidence may show a second slip in a shorter name (twoEditsLikely);
// a four-letter name's two edits leave two of its letters, no evidence
// of a name at all.
func keyEdits(n int) int {
	if n >= minTwoEditRunes {
		return 2
	}
	return 1
}

// keyCount is how many keys dropKeys makes of a word of n runes.
func keyCount(n, k int) int {
	if k < 2 {
		return 1 + n
	}
	return 1 + n + n*(n-1)/2
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

// maxProbes bounds the name words one lookup weighs: a codex of
// thousands of names that share their letters cannot make one word cost
// thousands of comparisons.
const maxProbes = 512

// near are the name words closest to norm within the edits the index
// finds, all as near as each other, in the order of their letters (at
// most maxNear); none for none.
func (ix *spellIndex) near(norm string) nearWords {
	ix.mu.Lock()
	ws, ok := ix.memo[norm]
	ix.mu.Unlock()
	if ok {
		return ws
	}
	ws = ix.nearest(norm)
	ix.mu.Lock()
	if ix.memo == nil || len(ix.memo) >= memoSize {
		ix.memo = map[string]nearWords{}
	}
	ix.memo[norm] = ws
	ix.mu.Unlock()
	return ws
}

// nearest is near without the memo.
func (ix *spellIndex) nearest(norm string) nearWords {
	// Two edits make a word two letters longer at most: a longer word is
	// near no name, and its keys are never made.
	if utf8.RuneCountInString(norm) > ix.longest+2 {
		return nearWords{}
	}
	var best []*spellWord
	bestD, probes := 3, 0
	dropKeys(ix.seed, norm, 2, func(k uint64) {
		k &^= wordMask
		at, _ := slices.BinarySearch(ix.keys, k)
		for ; at < len(ix.keys) && ix.keys[at]&^wordMask == k && probes < maxProbes; at++ {
			probes++
			w := &ix.words[ix.keys[at]&wordMask]
			limit := keyEdits(w.runes)
			d := codex.EditDistance(norm, w.norm, limit)
			switch {
			case d <= 0 || d > limit || d > bestD || w.address && strings.HasPrefix(norm, w.norm):
			case d < bestD:
				best, bestD = append(best[:0], w), d
			case !slices.Contains(best, w):
				best = append(best, w)
			}
		}
	})
	// The order keys are found in is the hash's: sorted, the choice
	// among names as near is the same on every run.
	slices.SortFunc(best, func(a, b *spellWord) int { return strings.Compare(a.norm, b.norm) })
	return nearWords{words: best[:min(len(best), maxNear)], dist: bestD}
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
		near nearWords
	}
	var slips []slip
	local := map[string]int{}
	mi := 0
	for ti, tok := range c.p.tokens {
		for mi < len(names) && names[mi].Range.End <= tok.start {
			mi++
		}
		if mi < len(names) && names[mi].Range.Start < tok.end {
			continue
		}
		end := tok.start + len(manuscript.WithoutClitic(text[tok.start:tok.end]))
		w := text[tok.start:end]
		first, _ := utf8.DecodeRuneInString(w)
		if !unicode.IsUpper(first) || utf8.RuneCountInString(w) < minSlipRunes || strings.IndexFunc(w[utf8.RuneLen(first):], unicode.IsLower) < 0 {
			continue
		}
		norm := codex.Normalize(w)
		if c.canon.accepted[norm] || manuscript.IsCommonWord(norm) && !c.afterTitle(ti) || manuscript.IsAddress(norm) || manuscript.IsPeople(norm) || manuscript.IsKnownName(norm) || c.canon.matcher.IsNameWord(norm) || c.canon.matcher.DerivedFromName(norm) {
			continue
		}
		if near := ix.near(norm); len(near.words) > 0 {
			// Counted as the book's use of the word either way: among
			// another language's words it is no slip, but it is written.
			local[norm]++
			if !c.amongForeignWords(ti) {
				slips = append(slips, slip{at: codex.Range{Start: tok.start, End: end}, norm: norm, near: near})
			}
		}
	}
	if len(slips) == 0 || !c.englishProse() {
		return
	}
	book := c.t.mentions
	entryUses := map[string]int{}
	usesOfEntry := func(id string) int {
		n, ok := entryUses[id]
		if !ok && book != nil {
			n = book.Uses(id)
			entryUses[id] = n
		}
		return n
	}
	// A name word's uses are those of the entries that have it:
	// "Bingley" is used as often as Charles and Caroline Bingley are.
	usesOf := func(sw *spellWord) int {
		n := 0
		for _, id := range sw.entries {
			n += usesOfEntry(id)
		}
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
		// Of names as near, the one the book uses most is the likelier
		// meant; a second slip in a short name needs the book's evidence.
		var word *spellWord
		named := 0
		for _, w := range s.near.words {
			n := usesOf(w)
			if s.near.dist > editsAllowed(w.runes) && !twoEditsLikely(s.norm, w, n, variant) {
				continue
			}
			if word == nil || n > named {
				word, named = w, n
			}
		}
		if word == nil || named < nameRatio*variant {
			continue
		}
		who := c.namedBy(word, usesOfEntry)
		written := text[s.at.Start:s.at.End]
		c.add(Diagnostic{Code: CodeNameSpelling, Range: s.at, Entry: who[0].id,
			Message: fmt.Sprintf("“%s” may be a misspelling of %s: the book names %s, and writes “%s” %s",
				written, word.written, whoUses(who), written, times(variant)),
			Fix: &Fix{Title: "Change to " + word.written, Range: s.at, NewText: word.written}})
	}
}

// minEnglishShare is the share of a chapter's words in lower case that
// must be everyday English words for the name-spelling check to judge
// it: English prose has most of them so (the, and, was, her), a chapter
// in French or Russian few.
const minEnglishShare = 0.5

// englishProse says the chapter is written in English, as the
// name-spelling check's dictionary is: in another language every word
// is no English word, and a name declined or a word at the start of a
// sentence ("Дарье" of Дарья, "Слава" beside Стива) would be taken for
// a slip.
func (c *checker) englishProse() bool {
	words, english := 0, 0
	for _, tok := range c.p.tokens {
		first, _ := utf8.DecodeRuneInString(c.p.text[tok.start:tok.end])
		if !unicode.IsLower(first) || tok.end-tok.start < 2 {
			continue
		}
		words++
		if manuscript.IsCommonWord(codex.Normalize(manuscript.WithoutClitic(c.p.text[tok.start:tok.end]))) {
			english++
		}
	}
	return words == 0 || float64(english) >= minEnglishShare*float64(words)
}

// foreignNeighbours is how many words around a capitalized word, in its
// sentence and up to foreignReach either side, must be of no English
// dictionary and no name for the word to be read as another language's.
const (
	foreignReach      = 4
	foreignNeighbours = 2
)

// amongForeignWords reports whether token i stands among words of
// another language: at least foreignNeighbours of the words around it in
// its sentence are neither everyday English words nor names the book or
// a dictionary knows ("Mais, madame, cela sera", "Elle vivra cent ans",
// "Lascia, prego, lascia"). A capitalized word there is that language's
// ("Mais" is French, no slip of the Marquis), and a novel that quotes
// French or Italian would otherwise be told so at each sentence. One
// such word is not enough: English prose names places and people the
// codex does not hold ("Darcey of Pemberley") beside a real slip.
func (c *checker) amongForeignWords(i int) bool {
	toks := c.p.tokens
	foreign := 0
	for j := max(0, i-foreignReach); j < len(toks) && j <= i+foreignReach; j++ {
		if j == i || toks[j].sentence != toks[i].sentence {
			continue
		}
		if c.foreignWord(c.p.text[toks[j].start:toks[j].end]) {
			if foreign++; foreign == foreignNeighbours {
				return true
			}
		}
	}
	return false
}

// foreignWord reports whether a word of the prose is no English word and
// no name: not an everyday word, a word of address, a people or one the
// writer accepted, nor, when it is capitalized, a name a dictionary
// knows or a word of the codex's names. A name is capitalized: "le" and
// "si" written in lower case are French, though "Le" and "Si" are names.
// A letter alone is not read either way.
func (c *checker) foreignWord(w string) bool {
	w = manuscript.WithoutClitic(w)
	first, _ := utf8.DecodeRuneInString(w)
	if utf8.RuneCountInString(w) < 2 {
		return false
	}
	norm := codex.Normalize(w)
	if c.canon.accepted[norm] || manuscript.IsCommonWord(norm) || manuscript.IsAddress(norm) || manuscript.IsPeople(norm) {
		return false
	}
	return !unicode.IsUpper(first) || !manuscript.IsKnownName(norm) && !c.canon.matcher.IsNameWord(norm)
}

// twoEditsLikely reports whether norm, two edits from the short name
// word w that the book names named times, is more likely its
// misspelling than another name, by the book's evidence: the word is
// written once (two slips the same way twice are no slips); its letters
// are the name's, moved ("Lidya" for Lydia), which is as likely as one
// slip; or else the name is used often enough for two slips in one use
// of it to be likelier than a name of its own, five times as often as
// one slip asks, since two slips together are that much rarer.
func twoEditsLikely(norm string, w *spellWord, named, variant int) bool {
	switch {
	case variant > 1:
		return false
	case sameLetters(norm, w.norm):
		return named >= nameRatio
	}
	return named >= nameRatio*nameRatio
}

// sameLetters reports whether a and b are made of the same letters, in
// any order.
func sameLetters(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	ra, rb := []rune(a), []rune(b)
	slices.Sort(ra)
	slices.Sort(rb)
	return slices.Equal(ra, rb)
}

// afterTitle reports whether a capitalized title ("Mrs.", "Colonel")
// stands right before token i: its full stop, if any, and one space
// between them.
func (c *checker) afterTitle(i int) bool {
	if i == 0 {
		return false
	}
	prev := c.p.tokens[i-1]
	first, _ := utf8.DecodeRuneInString(c.p.text[prev.start:prev.end])
	if !unicode.IsUpper(first) || !manuscript.IsTitle(prev.lower) {
		return false
	}
	gap := strings.TrimPrefix(c.p.gap(i-1), ".")
	r, size := utf8.DecodeRuneInString(gap)
	return size == len(gap) && unicode.IsSpace(r)
}

// entryUse is an entry that has a name word, and how often the book
// names it.
type entryUse struct {
	id, name string
	uses     int
}

// namedBy are the entries that have the name word w, most named first
// (by name among equals), leaving out those the book never names unless
// it names none.
func (c *checker) namedBy(w *spellWord, uses func(string) int) []entryUse {
	out := make([]entryUse, 0, len(w.entries))
	for _, id := range w.entries {
		name := w.written
		if e, ok := c.canon.cat.Get(id); ok {
			name = e.Name
		}
		out = append(out, entryUse{id: id, name: name, uses: uses(id)})
	}
	slices.SortStableFunc(out, func(a, b entryUse) int { return cmp.Or(cmp.Compare(b.uses, a.uses), strings.Compare(a.name, b.name)) })
	for len(out) > 1 && out[len(out)-1].uses == 0 {
		out = out[:len(out)-1]
	}
	return out
}

// whoUses says how often the book names each entry of a name word:
// "Charles Bingley 10 times and Caroline Bingley once"; past three
// entries, the two most named and the rest together ("and 4 others of
// that name 52 times"), so that a family's name stays one line.
func whoUses(who []entryUse) string {
	part := func(e entryUse) string { return e.name + " " + times(e.uses) }
	switch {
	case len(who) == 1:
		return part(who[0])
	case len(who) <= 3:
		parts := make([]string, len(who))
		for i, e := range who {
			parts[i] = part(e)
		}
		return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
	}
	rest := 0
	for _, e := range who[2:] {
		rest += e.uses
	}
	return fmt.Sprintf("%s, %s and %d others of that name %s", part(who[0]), part(who[1]), len(who)-2, times(rest))
}

func times(n int) string {
	if n == 1 {
		return "once"
	}
	return fmt.Sprintf("%d times", n)
}
