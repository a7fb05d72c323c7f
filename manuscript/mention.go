package manuscript

import (
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/quire-ink/quire/codex"
)

// Mention is one place where prose names a codex entry.
type Mention struct {
	// Entry is the ID of the entry named.
	Entry string `json:"entry"`
	// Others lists, sorted, the other entries that have the same name or
	// alias: the mention is ambiguous between them and Entry.
	Others []string `json:"others,omitempty"`
	// Range covers the name in the text, without a possessive or other
	// clitic ending ("Mara" of "Mara's").
	Range codex.Range `json:"range"`
	// Alias is true when the text used an alias rather than the name,
	// or the name in another grammatical case (Declined).
	Alias bool `json:"alias,omitempty"`
	// Declined is true when the text names the entry in another case
	// than the codex writes (Вронского of Вронский; codex/declension.go): the
	// sentence's object or a possessor, not its subject.
	Declined bool `json:"declined,omitempty"`
	// Uncertain is true when the name is used in a way that may name
	// someone or something else (mention_judge.go): before an unknown
	// surname ("Anthony Comstock"), after an unknown given name, as a
	// modifier ("the Pendleton family", "Maule's Lane") or in "the house
	// of …". Scan leaves such mentions out; ScanAll keeps them, marked.
	Uncertain bool `json:"uncertain,omitempty"`
}

// Matcher finds the names and aliases of codex entries in prose. It is
// a trie whose edges are normalized words and punctuation marks, so a
// scan reads each token of the text once and, where a name may begin,
// follows the trie as far as the text allows: the longest name wins.
// A Matcher is immutable and safe for concurrent use.
type Matcher struct {
	// nodes[0] is the root.
	nodes []trieNode
	// nameWords holds every normalized word of every name and alias, for
	// telling untracked names from parts of known ones.
	nameWords map[string]struct{}
	// longestWord bounds the words a scan normalizes: a word of prose
	// far longer than every word of every form cannot be one of them, and
	// is passed over without being copied (see mayBeFormWord).
	longestWord int
	// firstTokens is a Bloom filter of the first tokens of every form.
	// Most words of prose begin no name; the filter turns them away for
	// the price of a hash, without a lookup in the root's large map.
	firstTokens []uint64
	// version identifies the name set: a hash of every name, alias and
	// exclusion with its entry. Two matchers of one version find the same
	// mentions, so a scan kept in the chapter cache holds while it stays.
	version [sha256.Size]byte
	// ids are the entries the matcher finds, sorted: the chapter cache
	// numbers them in this order, the same for every matcher of one
	// version.
	ids []string
	// layer, when set, makes this matcher a book's names laid over its
	// series' shared matcher (mention_layered.go); the trie above then
	// holds the book's entries only.
	layer *matcherLayer
	// own are the entries of the trie above, for a book's matcher laid
	// over its series' (withEntry makes the trie again with one more).
	own []*codex.Entry
}

// firstTokenBits sizes the filter: 2^18 bits (32 KiB) keep false hits
// near 6% at 17,000 distinct first tokens.
const firstTokenBits = 18

func (m *Matcher) mayStartForm(key []byte) bool {
	h := fnv1a(key) >> (64 - firstTokenBits)
	return m.firstTokens[h/64]&(1<<(h%64)) != 0
}

// fnv1a hashes a token key.
func fnv1a(key []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range key {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
}

type trieNode struct {
	// The node's children by token key: few while there are at most
	// fewEdges of them, many beyond. Most nodes have one child or none,
	// and a map for each was a fifth of the matcher's build at a warm
	// start; the root and a few titles ("Mr") have thousands.
	few  []trieEdge
	many map[string]int32
	// forms end at this node, sorted by kind, then entry.
	forms []nameForm
}

// maxFormTokens bounds the length of a name, alias or excluded phrase;
// one bit per token of it fits the capitals mask.
const maxFormTokens = 64

type nameFormKind uint8

// The order of the kinds is their precedence: a name beats an alias.
const (
	formName nameFormKind = iota
	formAlias
	// formDeclined is a name or alias in another grammatical case.
	formDeclined
	// formGiven is a character's given name alone, which the codex does
	// not list ("Teodora" of "Teodora Quill"): it gives way to every
	// form another entry lists (GivenName).
	formGiven
	// formGivenEveryday is a given name that is an everyday word too
	// ("Will" of "Will Turner"): found only inside a sentence (fits).
	formGivenEveryday
	formExclude
)

// given says the kind is a given name the codex does not list.
func (k nameFormKind) given() bool { return k == formGiven || k == formGivenEveryday }

// nameForm is a name, alias or excluded phrase of one entry.
type nameForm struct {
	entry string
	kind  nameFormKind
	// The case the codex writes each token in, by index in the form: a
	// name matches text written the same way (textCase.fits).
	// caps marks capitalized tokens ("Hope" names a character, "hope"
	// does not), lower the tokens in lower case ("de" of "de Winter"),
	// allCaps those written in capitals ("NASA").
	caps, lower, allCaps uint64
}

// textCase is how the tokens of a place in the text are written, by
// index from the first: capitalized, or in capitals (two letters or
// more); and whether the first begins a sentence.
type textCase struct {
	upper, allCaps uint64
	sentenceStart  bool
	// quoteStart says the place opens a quotation ("Will you come?"
	// after `she asked, `).
	quoteStart bool
}

// fits reports whether text written as c may be the form f. Case is
// matched as the codex writes the name, except that text in capitals
// matches any form, and a sentence may capitalize a form's first word.
func (f *nameForm) fits(c textCase) bool {
	if f.kind == formExclude {
		return true
	}
	// An everyday word's capital is the name's only inside a sentence.
	if f.kind == formGivenEveryday && (c.sentenceStart || c.quoteStart || c.allCaps != 0) {
		return false
	}
	lowerOK := c.allCaps
	if c.sentenceStart {
		lowerOK |= 1
	}
	return f.caps&^c.upper == 0 && f.lower&c.upper&^lowerOK == 0 && f.allCaps&^c.allCaps == 0
}

// NewMatcher builds the matcher for every entry of cat that takes part
// in mention detection. A nil catalog makes a matcher that finds
// nothing.
func NewMatcher(cat *codex.Catalog) *Matcher {
	var entries []*codex.Entry
	if cat != nil {
		if l, ok := cat.SeriesLayer(); ok {
			return newLayeredMatcher(cat, l)
		}
		entries = cat.All()
	}
	return NewMatcherOf(entries)
}

// NewMatcherOf is NewMatcher for a catalog's entries in its order (All),
// for a caller that has them before the catalog is built.
func NewMatcherOf(entries []*codex.Entry) *Matcher {
	m := newTrie(entries)
	m.identify(entries)
	return m
}

// newTrie builds the trie, name words and first-token filter of entries.
func newTrie(entries []*codex.Entry) *Matcher {
	m := &Matcher{nodes: []trieNode{{}}, nameWords: map[string]struct{}{}}
	var key []byte
	for _, e := range entries {
		key = m.addEntry(e, key)
	}
	for i := range m.nodes {
		m.nodes[i].forms = mergeForms(m.nodes[i].forms)
	}
	m.firstTokens = firstTokenFilter(&m.nodes[0])
	return m
}

// firstTokenFilter is the Bloom filter of the keys of root's children.
func firstTokenFilter(root *trieNode) []uint64 {
	filter := make([]uint64, (1<<firstTokenBits)/64)
	root.children(func(k string, _ int32) {
		h := fnv1a([]byte(k)) >> (64 - firstTokenBits)
		filter[h/64] |= 1 << (h % 64)
	})
	return filter
}

// addEntry puts the names, aliases and exclusions of e into the trie.
// key is scratch space, returned for reuse.
func (m *Matcher) addEntry(e *codex.Entry, key []byte) []byte {
	// An entry that opted out of mentions still has names: its words
	// are known, never untracked.
	if !e.Mentions {
		key = m.addNameWords(e.Name, key)
		for _, a := range e.Aliases {
			key = m.addNameWords(a, key)
		}
		return key
	}
	entryForms(e, func(phrase string, kind nameFormKind) {
		key = m.add(phrase, e.ID, kind, key)
	})
	return key
}

// identify sets the version and IDs of the matcher of entries,
// a catalog's in its order.
func (m *Matcher) identify(entries []*codex.Entry) {
	names := sha256.New()
	// Each phrase is hashed from one scratch buffer: the hash takes no
	// string, and io.WriteString copied each of some 40,000 phrases
	// into a new slice (a seventh of the build at 10,000 entries).
	var phrase []byte
	hashPhrase := func(s string) {
		phrase = binary.AppendUvarint(phrase[:0], uint64(len(s)))
		phrase = append(phrase, s...)
		names.Write(phrase)
	}
	m.ids = make([]string, 0, len(entries))
	// The rules that make forms of what an entry says (entryForms) are
	// part of every version: scans made by a quire with other rules are
	// stale.
	hashPhrase(formsRules)
	var shape []byte
	for _, e := range entries {
		hashPhrase(e.ID)
		shape = appendEntryShape(shape[:0], e)
		phrase = binary.AppendUvarint(phrase[:0], uint64(len(shape)))
		phrase = append(phrase, shape...)
		names.Write(phrase)
		hashPhrase(e.Name)
		for _, a := range e.Aliases {
			hashPhrase(a)
		}
		for _, x := range e.Exclude {
			hashPhrase(x)
		}
		if e.Mentions {
			m.ids = append(m.ids, e.ID)
		}
	}
	names.Sum(m.version[:0])
	slices.Sort(m.ids)
	m.ids = slices.Compact(m.ids)
}

// placeOf is id's place in ids, found by halving rather than in a map of
// its own: the index finds an entry's count in a chapter by comparing
// places, not strings, and a map of ten thousand IDs per book of a
// series cost more memory than the few comparisons cost time. Places
// are looked up from from on: the caller that asks for IDs in order
// narrows each search by the place before.
func (m *Matcher) placeOf(id string, from int32) (int32, bool) {
	i, ok := slices.BinarySearch(m.ids[from:], id)
	return from + int32(i), ok
}

// formsRules names the rules entryForms makes forms by; a change to
// them changes it.
const formsRules = "forms: name, aliases, without article, declined, given name, everyday given name inside a sentence (2026-12-02b)"

// appendEntryShape appends what fmt.Sprint(e.Mentions, len(e.Aliases),
// len(e.Exclude), e.Type) makes, which versions hash, without its cost: a
// matcher of a series book hashes ten thousand entries while the writer
// waits for a first hover. The type decides the given name (GivenName):
// a character made a place loses it.
func appendEntryShape(dst []byte, e *codex.Entry) []byte {
	dst = strconv.AppendBool(dst, e.Mentions)
	dst = append(dst, ' ')
	dst = strconv.AppendInt(dst, int64(len(e.Aliases)), 10)
	dst = append(dst, ' ')
	dst = strconv.AppendInt(dst, int64(len(e.Exclude)), 10)
	dst = append(dst, ' ')
	return append(dst, e.Type...)
}

// add puts one phrase into the trie. key is scratch space, returned for
// reuse.
func (m *Matcher) add(phrase, entry string, kind nameFormKind, key []byte) []byte {
	t := proseTokenizer{text: phrase}
	var tok proseToken
	node := int32(0)
	var caps, lower, allCaps uint64
	words := 0
	honorific := false
	for i := 0; t.next(&tok); i++ {
		// No name runs to 64 words and marks; the bound keeps every scan
		// linear, however long the phrases a codex holds.
		if tok.kind == proseInvalid || i == maxFormTokens {
			return key
		}
		// "Mr." and "Mr" are one: the full stop after a title's
		// abbreviation is not part of the form (the scan passes over it
		// too).
		if honorific && isFullStop(phrase, &tok) {
			honorific = false
			i--
			continue
		}
		key = appendTokenKey(key[:0], phrase, &tok)
		honorific = tok.kind == proseWord && isTitleAbbreviation(key)
		if tok.kind == proseWord {
			m.longestWord = max(m.longestWord, len(key))
			words++
			switch {
			case tok.allCaps:
				allCaps |= 1 << i
				caps |= 1 << i
			case tok.upper:
				caps |= 1 << i
			case startsLower(phrase[tok.start:tok.end]):
				lower |= 1 << i
			}
			if kind != formExclude {
				m.nameWords[string(key)] = struct{}{}
			}
		}
		node = m.child(node, key)
	}
	// A phrase of punctuation alone would match every dash in the book.
	if words == 0 {
		return key
	}
	if kind == formExclude {
		caps, lower, allCaps = 0, 0, 0
	}
	m.nodes[node].forms = append(m.nodes[node].forms, nameForm{entry: entry, kind: kind, caps: caps, lower: lower, allCaps: allCaps})
	return key
}

// withoutArticle is a form less the capitalized article it opens with,
// when more than the article is left.
func withoutArticle(form string) (string, bool) {
	for _, a := range []string{"The ", "A ", "An "} {
		if rest, ok := strings.CutPrefix(form, a); ok && strings.TrimSpace(rest) != "" {
			return strings.TrimSpace(rest), true
		}
	}
	return "", false
}

// startsLower reports whether word begins with a lower-case letter (a
// digit has no case, and matches either way).
func startsLower(word string) bool {
	r, _ := utf8.DecodeRuneInString(word)
	return unicode.IsLower(r)
}

// isFullStop reports whether tok is a full stop.
func isFullStop(text string, tok *proseToken) bool {
	return tok.kind == prosePunct && text[tok.start] == '.'
}

// mayBeFormWord reports whether a word of prose is short enough to be a
// word of some form. Normalizing shortens a word only by dropping
// combining marks and folding letters, so a word more than eight times
// the longest key (plus a margin) cannot normalize to one; a word of
// megabytes then costs no copy at all.
func (m *Matcher) mayBeFormWord(tok *proseToken) bool {
	return tok.kind != proseWord || tok.end-tok.start <= 8*m.longestWord+64
}

// addNameWords records the words of a name without making it matchable.
func (m *Matcher) addNameWords(phrase string, key []byte) []byte {
	t := proseTokenizer{text: phrase}
	var tok proseToken
	for t.next(&tok) {
		if tok.kind == proseWord {
			key = appendTokenKey(key[:0], phrase, &tok)
			m.nameWords[string(key)] = struct{}{}
		}
	}
	return key
}

// child returns the node key leads to from node, adding it if needed.
func (m *Matcher) child(node int32, key []byte) int32 {
	if c, ok := m.nodes[node].child(key); ok {
		return c
	}
	c := int32(len(m.nodes))
	m.nodes = append(m.nodes, trieNode{})
	m.nodes[node].put(string(key), c)
	return c
}

// mergeForms sorts forms by precedence and keeps one per entry and kind;
// an entry whose two aliases normalize alike needs a case only where
// both have it.
func mergeForms(forms []nameForm) []nameForm {
	if len(forms) < 2 {
		return forms
	}
	slices.SortFunc(forms, func(a, b nameForm) int {
		return cmp.Or(cmp.Compare(a.kind, b.kind), strings.Compare(a.entry, b.entry))
	})
	out := forms[:1]
	for _, f := range forms[1:] {
		last := &out[len(out)-1]
		if f.kind == last.kind && f.entry == last.entry {
			last.caps &= f.caps
			last.lower &= f.lower
			last.allCaps &= f.allCaps
			continue
		}
		out = append(out, f)
	}
	return slices.Clip(out)
}

// IsNameWord reports whether a normalized word (as codex.Normalize makes
// it) is a word of some entry's name or alias.
func (m *Matcher) IsNameWord(normalizedWord string) bool {
	_, ok := m.nameWords[normalizedWord]
	if !ok && m.layer != nil {
		return m.layer.isNameWord(normalizedWord)
	}
	return ok
}

// Scan finds every mention in text, in order and never overlapping. A
// mention that may name someone else (Mention.Uncertain) is left out.
func (m *Matcher) Scan(text string) []Mention {
	return m.scan(text, 0, false)
}

// ScanAll is Scan with the uncertain mentions kept, marked: the
// untracked-name finder offers what they may name instead.
func (m *Matcher) ScanAll(text string) []Mention {
	return m.scan(text, 0, true)
}

// scan finds the mentions in text[from:]; ranges are offsets into text.
func (m *Matcher) scan(text string, from int, uncertain bool) []Mention {
	var out []Mention
	if m.layer == nil && !m.nodes[0].hasChildren() || m.layer != nil && !m.nodes[0].hasChildren() && !m.layer.base.nodes[0].hasChildren() {
		return out
	}
	s := mentionScanner{m: m, text: text, key: make([]byte, 0, 64)}
	t := proseTokenizer{text: text, pos: from}
	var tok proseToken
	// The text begins a sentence.
	ctx := proseContext{pending: true}
	for t.next(&tok) {
		ctx.see(&tok)
		if tok.kind == proseInvalid || !m.mayBeFormWord(&tok) {
			ctx.after(m, text, &tok, s.key[:0])
			continue
		}
		// Most tokens begin no name: turn them away before setting up a
		// walk of the trie. A word with a clitic may begin one either way.
		if tok.stem == 0 {
			s.key = appendTokenKey(s.key[:0], text, &tok)
			if !m.mayStartAny(s.key) {
				ctx.after(m, text, &tok, s.key)
				continue
			}
		}
		mention, resume, matched, ok := s.mentionAt(tok, textCase{sentenceStart: ctx.sentenceStart, quoteStart: ctx.quoteStart})
		if !matched {
			ctx.after(m, text, &tok, s.key[:0])
			continue
		}
		if !ok {
			// Only exclusions matched: the phrase names nothing, and no
			// shorter name inside it is a mention either ("Lady
			// Catherine" excluded from Catherine).
			ctx.afterName()
			t.pos = resume
			continue
		}
		if keep := m.judge(text, &mention, resume, &ctx, s.key); keep && (uncertain || !mention.Uncertain) {
			out = append(out, mention)
		}
		ctx.afterName()
		t.pos = resume
	}
	return out
}

// mayStartAny reports whether key may begin a form of the matcher or of
// the series' matcher under it.
func (m *Matcher) mayStartAny(key []byte) bool {
	return m.mayStartForm(key) || m.layer != nil && m.layer.base.mayStartForm(key)
}

// mentionAt is the mention that begins at tok, if any (ok), and where the
// scan goes on after it; matched reports a form found there, which may
// be only exclusions, naming nothing.
func (s *mentionScanner) mentionAt(tok proseToken, start textCase) (mention Mention, resume int, matched, ok bool) {
	if s.m.layer != nil {
		match, found := s.longestLayeredAt(tok, start)
		if !found {
			return Mention{}, 0, false, false
		}
		mention, ok := s.m.resolveLayered(match)
		return mention, match.resume, true, ok
	}
	match, found := s.longestAt(tok, start)
	if !found {
		return Mention{}, 0, false, false
	}
	mention, ok = s.m.resolve(match)
	return mention, match.resume, true, ok
}

// mentionScanner holds one scan's scratch space.
type mentionScanner struct {
	m    *Matcher
	text string
	key  []byte
}

// trieMatch is the longest form that matches at a place in the text.
type trieMatch struct {
	node int32
	tc   textCase
	// span is what the mention covers; resume is where scanning goes on,
	// past any clitic the span leaves out.
	span   codex.Range
	resume int
}

// formWalk follows the tokens of one place in the text as a form's
// tokens: it passes over the full stop after a title's abbreviation
// ("Mr." is "Mr"), and notes how each token is written.
type formWalk struct {
	ahead     proseTokenizer
	tc        textCase
	honorific bool
}

// note records how the i-th token of the place, tok, is written; key is
// its normalized form.
func (w *formWalk) note(i int, tok *proseToken, key []byte) {
	if i < maxFormTokens {
		if tok.upper {
			w.tc.upper |= 1 << i
		}
		if tok.allCaps {
			w.tc.allCaps |= 1 << i
		}
	}
	w.honorific = tok.kind == proseWord && isTitleAbbreviation(key)
}

// next moves tok to the place's next token, past a full stop that ends a
// title's abbreviation.
func (w *formWalk) next(tok *proseToken) bool {
	if !w.ahead.next(tok) {
		return false
	}
	if w.honorific && tok.gap == 0 && isFullStop(w.ahead.text, tok) {
		w.honorific = false
		return w.ahead.next(tok)
	}
	return true
}

// end is where a mention whose last token is tok ends: past the full stop
// of an abbreviation that ends it ("Smith & Co."), which is the
// abbreviation's own, though scanning still sees it end a sentence.
func (w *formWalk) end(tok *proseToken) int {
	if w.honorific && tok.end < len(w.ahead.text) && w.ahead.text[tok.end] == '.' {
		return tok.end + 1
	}
	return tok.end
}

// longestAt follows the trie from the token first as far as the text
// allows and returns the longest form that matches there. For a first
// token without a clitic, s.key holds its key already: the scan made it
// to find that the token begins a form. start says whether the place
// opens a sentence or a quotation.
func (s *mentionScanner) longestAt(first proseToken, start textCase) (trieMatch, bool) {
	keyed := first.stem == 0
	var best trieMatch
	ok := false
	node := int32(0)
	tok := first
	w := formWalk{ahead: proseTokenizer{text: s.text, pos: first.end}, tc: start}
	for i := 0; ; i++ {
		next := &s.m.nodes[node]
		// A name may wrap onto the next line, never across a paragraph.
		if !next.hasChildren() || tok.kind == proseInvalid || (i > 0 && tok.lineBreaks > 1) || !s.m.mayBeFormWord(&tok) {
			break
		}
		if tok.stem > 0 {
			s.key = appendWordKey(s.key[:0], s.text[tok.start:tok.stem])
			w.note(i, &tok, s.key)
			if i > 0 || s.m.mayStartForm(s.key) {
				if c, hit := next.child(s.key); hit && s.m.accepts(c, w.tc) {
					best, ok = trieMatch{node: c, tc: w.tc, span: codex.Range{Start: first.start, End: tok.stem}, resume: tok.end}, true
				}
			}
		}
		if i > 0 || !keyed {
			s.key = appendTokenKey(s.key[:0], s.text, &tok)
		}
		w.note(i, &tok, s.key)
		if i == 0 && !keyed && !s.m.mayStartForm(s.key) {
			break
		}
		c, hit := next.child(s.key)
		if !hit {
			break
		}
		node = c
		if s.m.accepts(c, w.tc) {
			best, ok = trieMatch{node: c, tc: w.tc, span: codex.Range{Start: first.start, End: w.end(&tok)}, resume: tok.end}, true
		}
		if !w.next(&tok) {
			break
		}
	}
	return best, ok
}
