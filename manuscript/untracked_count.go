package manuscript

import (
	"runtime"
	"slices"
	"sync"
	"unicode/utf8"

	"github.com/quire-ink/quire/codex"
)

// What an untracked name's entry would find.
//
// A suggestion promises a count: the mentions the entry it offers (its
// name and aliases) would have once the writer creates it, with the
// codex as it is and none of the other suggestions made entries yet. The
// count is found by the mention scan itself, with a matcher of the codex
// and that one entry (Matcher.withEntry), so every rule of the scan
// holds for it: a sentence's first word counts, a name before an
// unknown capitalized word does not, nor "Mrs. Bennet" for an entry
// written "Mr. Bennet".
//
// Scanning the whole book once per suggestion would cost the book's
// length times the number of names. The scan's state does not cross a
// blank line (a paragraph begins a sentence, and no name spans two), so
// each paragraph can be scanned alone and finds there what the whole
// scan finds; and a paragraph is cut further after a full stop,
// exclamation or question mark that ends a word in lower case no entry
// names, where the scan's state is again that of a new sentence. Each
// suggestion's entry is scanned over the blocks that hold a word its
// forms need, and each unit remembers its counts by the entry's forms:
// an edit counts the edited unit again, and the others only for the
// suggestions the edit changed.
//
// Bounded: a unit's counting scans at most untrackedScanFactor times its
// length (and untrackedScanSlack more); past that, which only a unit
// whose long paragraphs each hold very many different names reaches,
// the remaining suggestions take the finder's tally for the unit
// instead, counted most used first.

// whatIfID is the ID of the entry a suggestion offers, while it is
// counted: no codex file has it.
const whatIfID = "\x00untracked"

// untrackedBlockBytes is how long a block of a paragraph runs before it
// is cut at a sentence's end: 0 cuts at every end a block may be cut at,
// which scans the least (on Pride and Prejudice, 2.3 times the book for
// its 76 suggestions, against 4.4 times for blocks of 512 bytes).
const untrackedBlockBytes = 0

const (
	untrackedScanFactor = 8
	untrackedScanSlack  = 64 << 10
)

// maxRememberedCounts bounds the counts a unit remembers, and
// maxRememberedPasses the countings whose zeros it remembers; past
// either, it forgets them all (suggestions come and go as the writer
// edits).
const (
	maxRememberedCounts = 4096
	maxRememberedPasses = 16
)

// untrackedCounts are a unit's counts of suggestions' entries, by the
// entry's forms. Most suggestions are found in a few units and not in
// the rest: a unit keeps the counts it found above zero, and for its
// zeros the forms each counting asked for, one set that counting's
// units share. A book of 200 chapters whose codex names few of its
// thousands of names (a series book before its series is trusted) held
// 83 MB of zeros, one map entry a suggestion in every chapter.
type untrackedCounts struct {
	mu sync.Mutex
	// found are the counts above zero.
	found map[string]int32
	// asked are the countings this unit took part in, latest last: a
	// form one of them asked for and found holds no count of is none.
	asked []*formSet
}

// formSet are the forms of the suggestions one counting counted.
type formSet struct{ forms map[string]struct{} }

// get is the count of the entry of forms sig, and whether it is known.
func (u *untrackedCounts) get(sig string) (int32, bool) {
	if n, ok := u.found[sig]; ok {
		return n, true
	}
	for i := len(u.asked) - 1; i >= 0; i-- {
		if _, ok := u.asked[i].forms[sig]; ok {
			return 0, true
		}
	}
	return 0, false
}

// remember keeps counts, of the entries of forms sigs, all that the
// counting asked knows for the unit now.
func (u *untrackedCounts) remember(asked *formSet, sigs []string, counts []int32) {
	found := 0
	for _, n := range counts {
		if n > 0 {
			found++
		}
	}
	if u.found == nil || len(u.found)+found > maxRememberedCounts || len(u.asked) >= maxRememberedPasses {
		u.found, u.asked = make(map[string]int32, found), nil
	}
	for i, n := range counts {
		if n > 0 {
			u.found[sigs[i]] = n
		}
	}
	if len(u.asked) == 0 || u.asked[len(u.asked)-1] != asked {
		u.asked = append(u.asked, asked)
	}
}

// countUntracked sets each group's count and units.
func (ix *MentionIndex) countUntracked(groups []*untrackedGroup, blockBytes int) {
	if len(groups) == 0 || ix.matcher == nil || len(ix.order) == 0 {
		return
	}
	c := newGroupCounter(ix.matcher, groups, blockBytes)
	results := make([][]int32, len(ix.order))
	workers := min(runtime.GOMAXPROCS(0), len(ix.order))
	var wg sync.WaitGroup
	jobs := make(chan int)
	for range workers {
		wg.Go(func() {
			for i := range jobs {
				results[i] = c.countUnit(ix.order[i])
				// A unit at a time, then the cores go to whatever waits:
				// this count keeps both busy for tens of milliseconds (a
				// chapter's diagnostics, right after a book opens), and
				// a request read meanwhile would otherwise wait for the
				// scheduler's 10 ms preemption to be served.
				runtime.Gosched()
			}
		})
	}
	for i := range ix.order {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	for _, counts := range results {
		for g, n := range counts {
			if n > 0 {
				groups[g].count += int(n)
				groups[g].units++
			}
		}
	}
}

// groupCounter counts groups' entries in units.
type groupCounter struct {
	base       *Matcher
	groups     []*untrackedGroup
	blockBytes int
	// sigs are the groups' forms, as the units' counts are keyed; asked
	// is the set of them the units this counter counts remember.
	sigs  []string
	asked *formSet
	// matchers make each group's matcher once, when a unit needs it.
	matchers []func() *Matcher
	// needs lists, by a word's key, the groups a block must hold that word
	// for; anywhere lists the groups no such word stands for.
	needs    map[string][]int32
	anywhere []int32
	// longestKey bounds the words worth a key.
	longestKey int
	// scanFactor and scanSlack bound the bytes a unit's counting scans.
	scanFactor, scanSlack int
}

func newGroupCounter(base *Matcher, groups []*untrackedGroup, blockBytes int) *groupCounter {
	c := &groupCounter{base: base, groups: groups, blockBytes: blockBytes, scanFactor: untrackedScanFactor, scanSlack: untrackedScanSlack,
		sigs: make([]string, len(groups)), matchers: make([]func() *Matcher, len(groups)), needs: map[string][]int32{},
		asked: &formSet{forms: make(map[string]struct{}, len(groups))}}
	for i, g := range groups {
		e := g.untrackedEntry()
		c.sigs[i] = entrySignature(e)
		c.asked.forms[c.sigs[i]] = struct{}{}
		c.matchers[i] = sync.OnceValue(func() *Matcher { return base.withEntry(e) })
		keys, ok := neededWords(e)
		if !ok {
			c.anywhere = append(c.anywhere, int32(i))
			continue
		}
		for _, k := range keys {
			if list := c.needs[k]; len(list) == 0 || list[len(list)-1] != int32(i) {
				c.needs[k] = append(list, int32(i))
			}
			c.longestKey = max(c.longestKey, len(k))
		}
	}
	return c
}

// entrySignature keys a unit's remembered count of e: its name, aliases,
// exclusions and type.
func entrySignature(e *codex.Entry) string {
	n := len(e.Name) + 1
	for _, a := range append(e.Aliases[:len(e.Aliases):len(e.Aliases)], e.Exclude...) {
		n += 1 + len(a)
	}
	b := make([]byte, 0, n)
	b = append(b, e.Name...)
	for _, a := range e.Aliases {
		b = append(append(b, 0), a...)
	}
	b = append(b, 1)
	for _, x := range e.Exclude {
		b = append(append(b, 0), x...)
	}
	// The type, which decides the given name with the name (GivenName).
	b = append(append(b, 2), e.Type...)
	return string(b)
}

// neededWords are, for each form of e the scan can find, the key of one
// capitalized word of it (its longest): a block that holds none of them,
// capitalized, holds no mention of e. ok is false when some form has no
// capitalized word.
func neededWords(e *codex.Entry) (keys []string, ok bool) {
	// Every form the scan finds: a block that holds only "Петрицкого"
	// holds a mention of Петрицкий.
	var phrases []string
	entryFinds(e, func(p string) { phrases = append(phrases, p) })
	var key []byte
	for _, p := range phrases {
		t := proseTokenizer{text: p}
		var tok proseToken
		best := ""
		for i := 0; t.next(&tok) && i < maxFormTokens; i++ {
			if tok.kind != proseWord || !tok.upper {
				continue
			}
			key = appendTokenKey(key[:0], p, &tok)
			if len(key) > len(best) {
				best = string(key)
			}
		}
		if best == "" {
			return nil, false
		}
		if !slices.Contains(keys, best) {
			keys = append(keys, best)
		}
	}
	return keys, true
}

// countUnit is each group's count in um: remembered, or found.
func (c *groupCounter) countUnit(um *unitMentions) []int32 {
	out := make([]int32, len(c.groups))
	missing := make([]bool, len(c.groups))
	nMissing := 0
	if um.untracked != nil {
		um.untracked.mu.Lock()
		for i, sig := range c.sigs {
			n, ok := um.untracked.get(sig)
			out[i], missing[i] = n, !ok
			if !ok {
				nMissing++
			}
		}
		um.untracked.mu.Unlock()
	} else {
		for i := range missing {
			missing[i] = true
		}
		nMissing = len(missing)
	}
	if nMissing == 0 {
		return out
	}
	c.find(um, missing, out)
	if um.untracked != nil {
		um.untracked.mu.Lock()
		um.untracked.remember(c.asked, c.sigs, out)
		um.untracked.mu.Unlock()
	}
	return out
}

// find counts the missing groups in um into out.
func (c *groupCounter) find(um *unitMentions, missing []bool, out []int32) {
	u := um.unit
	body := u.BodyRange()
	text := u.Text[:body.End]
	blocks, hits := c.blocks(text, body.Start, missing)
	budget := c.scanFactor*(body.End-body.Start) + c.scanSlack
	for g := range c.groups {
		if !missing[g] {
			continue
		}
		n := int32(0)
		for _, b := range hits[g] {
			r := blocks[b]
			if budget < r.End-r.Start {
				n = c.tallied(um, g)
				break
			}
			budget -= r.End - r.Start
			for _, mn := range c.matchers[g]().scan(text[:r.End], r.Start, false) {
				if mn.Entry == whatIfID || slices.Contains(mn.Others, whatIfID) {
					n++
				}
			}
		}
		out[g] = n
	}
}

// tallied is group g's count in um as the finder tallied it: what the
// counting falls back on past its bound.
func (c *groupCounter) tallied(um *unitMentions, g int) int32 {
	names := um.names()
	n := 0
	for _, k := range c.groups[g].forms {
		t := names[k]
		n += t.count + t.shouted
	}
	return int32(n)
}

// blocks cuts text[from:] into the blocks counting scans apart, and
// lists for each missing group the blocks that hold a word it needs.
func (c *groupCounter) blocks(text string, from int, missing []bool) ([]codex.Range, [][]int32) {
	hits := make([][]int32, len(c.groups))
	hit := func(g int32, block int32) {
		if missing[g] && (len(hits[g]) == 0 || hits[g][len(hits[g])-1] != block) {
			hits[g] = append(hits[g], block)
		}
	}
	var blocks []codex.Range
	t := proseTokenizer{text: text, pos: from}
	var tok, prev, prev2 proseToken
	start := -1
	var key []byte
	for t.next(&tok) {
		switch {
		case start < 0:
			start = tok.start
		case tok.lineBreaks > 1 || tok.start-start >= c.blockBytes && c.endsSentence(text, &prev2, &prev, &tok):
			blocks = append(blocks, codex.Range{Start: start, End: tok.start})
			start = tok.start
		}
		if tok.kind == proseWord && tok.upper && tok.end-tok.start <= 8*c.longestKey+64 {
			block := int32(len(blocks))
			key = appendTokenKey(key[:0], text, &tok)
			for _, g := range c.needs[string(key)] {
				hit(g, block)
			}
			if tok.stem > 0 {
				key = appendWordKey(key[:0], text[tok.start:tok.stem])
				for _, g := range c.needs[string(key)] {
					hit(g, block)
				}
			}
		}
		prev2, prev = prev, tok
	}
	if start >= 0 {
		blocks = append(blocks, codex.Range{Start: start, End: len(text)})
	}
	for _, g := range c.anywhere {
		for b := range blocks {
			hit(g, int32(b))
		}
	}
	return blocks, hits
}

// endsSentence reports whether a block may be cut before tok: the token
// before it is a full stop, exclamation or question mark right after a
// word in lower case of two letters or more that is no title's
// abbreviation and no word of any name, with space after it. There the
// scan is past every name (none holds the word) and begins a sentence,
// as a scan starting at tok does.
func (c *groupCounter) endsSentence(text string, word, mark, tok *proseToken) bool {
	if mark.kind != prosePunct || mark.gap != 0 || tok.gap == 0 || word.kind != proseWord || word.upper || word.stem > 0 || word.end != mark.start {
		return false
	}
	switch text[mark.start] {
	case '.', '!', '?':
	default:
		return false
	}
	if word.end-word.start < 2 || word.end-word.start > 64 || !startsLower(text[word.start:word.end]) {
		return false
	}
	var buf [64]byte
	key := appendTokenKey(buf[:0], text, word)
	return utf8.RuneCount(key) >= 2 && !isTitleAbbreviation(key) && !c.base.IsNameWord(string(key))
}
