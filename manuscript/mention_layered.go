package manuscript

import (
	"cmp"
	"slices"
	"strings"

	"github.com/quire-ink/quire/codex"
)

// A book of a series finds the names of the series' thousands of entries
// and of its own few. The series' names are the same for every book of
// the series in a workspace, so their trie is built once per series
// catalog (codex.Catalog.Shared) and each book's matcher holds only its
// own entries, laid over it: a scan walks both tries side by side and
// finds exactly what one matcher of the merged catalog would, the series
// entries the book overrides left out.

// matcherLayer is what a book's matcher adds to walk its series' shared
// matcher.
type matcherLayer struct {
	base *Matcher
	// wordEntries counts the base's entries that have each name word.
	wordEntries map[string]int32
	// hiddenForms are the forms of the base's nodes that lose a form of
	// an entry the book overrides, without those forms.
	hiddenForms map[int32][]nameForm
	// lostWords are the base's name words that only entries the book
	// overrides have.
	lostWords map[string]struct{}
}

// seriesMatcherKey keys the shared matcher of a series catalog.
type seriesMatcherKey struct{}

// seriesMatcher is the series' own matcher: its trie, and how many
// entries have each name word, so a book that hides some knows which
// words it loses.
type seriesMatcher struct {
	*Matcher
	wordEntries map[string]int32
}

// BeginSeries begins the series' shared matcher from the entries of its
// store's saved state (codex.Options.OnLoaded) while the store still
// checks its files, for its books' matchers to lay theirs over
// (codex.SeriesCatalogs.Early).
func BeginSeries(sc *codex.SeriesCatalogs, entries []*codex.Entry) {
	sc.Early(entries, map[any]func([]*codex.Entry) any{
		seriesMatcherKey{}: func(copies []*codex.Entry) any { return newSeriesMatcher(copies) },
	})
}

func newSeriesMatcher(entries []*codex.Entry) *seriesMatcher {
	s := &seriesMatcher{Matcher: newTrie(entries), wordEntries: make(map[string]int32, len(entries))}
	words := map[string]struct{}{}
	var key []byte
	for _, e := range entries {
		clear(words)
		key = entryNameWords(e, words, key)
		for w := range words {
			s.wordEntries[w]++
		}
	}
	// The trie's word set is the counts' keys; one copy is enough.
	s.nameWords = nil
	return s
}

// entryNameWords adds to words the name words e gives a matcher (as add
// and addNameWords record them). key is scratch space, returned for
// reuse.
func entryNameWords(e *codex.Entry, words map[string]struct{}, key []byte) []byte {
	phrase := func(p string, whole bool) {
		t := proseTokenizer{text: p}
		var tok proseToken
		for i := 0; t.next(&tok); i++ {
			if !whole && (tok.kind == proseInvalid || i == maxFormTokens) {
				return
			}
			if tok.kind == proseWord {
				key = appendTokenKey(key[:0], p, &tok)
				if _, ok := words[string(key)]; !ok {
					words[string(key)] = struct{}{}
				}
			}
		}
	}
	if !e.Mentions {
		phrase(e.Name, true)
		for _, a := range e.Aliases {
			phrase(a, true)
		}
		return key
	}
	entryFinds(e, func(p string) { phrase(p, false) })
	return key
}

// newLayeredMatcher is NewMatcher(cat) for a catalog merged with its
// series as l says.
func newLayeredMatcher(cat *codex.Catalog, l *codex.SeriesLayer) *Matcher {
	base := l.Series.Shared(seriesMatcherKey{}, func() any { return newSeriesMatcher(l.Series.All()) }).(*seriesMatcher)
	m := newTrie(l.Book)
	m.own = l.Book
	m.identify(cat.All())
	m.longestWord = max(m.longestWord, base.longestWord)
	layer := &matcherLayer{base: base.Matcher, wordEntries: base.wordEntries}
	hidden := make(map[string]bool, len(l.Hidden))
	for _, id := range l.Hidden {
		hidden[id] = true
	}
	lost := map[string]int32{}
	words := map[string]struct{}{}
	var key []byte
	for _, id := range l.Hidden {
		e, ok := l.Series.Get(id)
		if !ok {
			continue
		}
		clear(words)
		key = entryNameWords(e, words, key)
		for w := range words {
			lost[w]++
		}
		if !e.Mentions {
			continue
		}
		for _, phrase := range entryPhrases(e) {
			node, ok := base.find(phrase)
			if !ok {
				continue
			}
			if layer.hiddenForms == nil {
				layer.hiddenForms = map[int32][]nameForm{}
			}
			forms, seen := layer.hiddenForms[node]
			if !seen {
				forms = base.nodes[node].forms
			}
			kept := make([]nameForm, 0, len(forms))
			for _, f := range forms {
				if !hidden[f.entry] {
					kept = append(kept, f)
				}
			}
			layer.hiddenForms[node] = kept
		}
	}
	for w, n := range lost {
		if base.wordEntries[w] <= n {
			if layer.lostWords == nil {
				layer.lostWords = map[string]struct{}{}
			}
			layer.lostWords[w] = struct{}{}
		}
	}
	m.layer = layer
	return m
}

// find is the node phrase leads to in the trie, as add walks it.
func (m *Matcher) find(phrase string) (int32, bool) {
	t := proseTokenizer{text: phrase}
	var tok proseToken
	var key []byte
	node := int32(0)
	honorific := false
	for i := 0; t.next(&tok); i++ {
		if tok.kind == proseInvalid || i == maxFormTokens {
			return 0, false
		}
		if honorific && isFullStop(phrase, &tok) {
			honorific = false
			i--
			continue
		}
		key = appendTokenKey(key[:0], phrase, &tok)
		honorific = tok.kind == proseWord && isTitleAbbreviation(key)
		c, ok := m.nodes[node].child(key)
		if !ok {
			return 0, false
		}
		node = c
	}
	return node, node != 0
}

func (l *matcherLayer) isNameWord(w string) bool {
	if l.wordEntries == nil {
		// A matcher laid over a whole book's (Matcher.withEntry).
		return l.base.IsNameWord(w)
	}
	if l.wordEntries[w] == 0 {
		return false
	}
	_, lost := l.lostWords[w]
	return !lost
}

// baseForms are the forms that end at the base's node, without those of
// the entries the book overrides.
func (l *matcherLayer) baseForms(node int32) []nameForm {
	if l.hiddenForms != nil {
		if forms, ok := l.hiddenForms[node]; ok {
			return forms
		}
	}
	return l.base.nodes[node].forms
}

// layeredMatch is the longest form at a place in the text of either
// trie: node is the book's trie's node, base the series', -1 where
// the form's tokens lead nowhere in that trie.
type layeredMatch struct {
	trieMatch
	base int32
}

// childOf is node's child by key, -1 for none.
func childOf(m *Matcher, node int32, key []byte) int32 {
	if node < 0 {
		return -1
	}
	if c, ok := m.nodes[node].child(key); ok {
		return c
	}
	return -1
}

// longestLayeredAt is longestAt over both tries.
func (s *mentionScanner) longestLayeredAt(first proseToken, start textCase) (layeredMatch, bool) {
	m := s.m
	base := m.layer.base
	var best layeredMatch
	ok := false
	node, bnode := int32(0), int32(0)
	tok := first
	w := formWalk{ahead: proseTokenizer{text: s.text, pos: first.end}, tc: start}
	for i := 0; ; i++ {
		more := node >= 0 && m.nodes[node].hasChildren() || bnode >= 0 && base.nodes[bnode].hasChildren()
		if !more || tok.kind == proseInvalid || (i > 0 && tok.lineBreaks > 1) || !m.mayBeFormWord(&tok) {
			break
		}
		if tok.stem > 0 {
			s.key = appendWordKey(s.key[:0], s.text[tok.start:tok.stem])
			w.note(i, &tok, s.key)
			if i > 0 || m.mayStartForm(s.key) || base.mayStartForm(s.key) {
				c, bc := childOf(m, node, s.key), childOf(base, bnode, s.key)
				if m.layer.accepts(m, c, bc, w.tc) {
					best, ok = layeredMatch{trieMatch: trieMatch{node: c, tc: w.tc, span: codex.Range{Start: first.start, End: tok.stem}, resume: tok.end}, base: bc}, true
				}
			}
		}
		s.key = appendTokenKey(s.key[:0], s.text, &tok)
		w.note(i, &tok, s.key)
		if i == 0 && !m.mayStartForm(s.key) && !base.mayStartForm(s.key) {
			break
		}
		c, bc := childOf(m, node, s.key), childOf(base, bnode, s.key)
		if c < 0 && bc < 0 {
			break
		}
		node, bnode = c, bc
		if m.layer.accepts(m, c, bc, w.tc) {
			best, ok = layeredMatch{trieMatch: trieMatch{node: c, tc: w.tc, span: codex.Range{Start: first.start, End: w.end(&tok)}, resume: tok.end}, base: bc}, true
		}
		if !w.next(&tok) {
			break
		}
	}
	return best, ok
}

// accepts is Matcher.accepts over the book's node and the base's.
func (l *matcherLayer) accepts(m *Matcher, node, bnode int32, tc textCase) bool {
	return node >= 0 && m.accepts(node, tc) || bnode >= 0 && acceptsForms(l.baseForms(bnode), tc)
}

// resolveLayered is resolve over the forms of both tries.
func (m *Matcher) resolveLayered(f layeredMatch) (Mention, bool) {
	var own, base []nameForm
	if f.node >= 0 {
		own = m.nodes[f.node].forms
	}
	if f.base >= 0 {
		base = m.layer.baseForms(f.base)
	}
	switch {
	case len(base) == 0:
		return resolveForms(own, f.trieMatch)
	case len(own) == 0:
		return resolveForms(base, f.trieMatch)
	}
	return resolveForms(mergeSortedForms(own, base), f.trieMatch)
}

// mergeSortedForms merges two lists sorted by kind, then entry, whose
// entries differ.
func mergeSortedForms(a, b []nameForm) []nameForm {
	out := make([]nameForm, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if cmp.Or(cmp.Compare(a[0].kind, b[0].kind), strings.Compare(a[0].entry, b[0].entry)) <= 0 {
			out, a = append(out, a[0]), a[1:]
		} else {
			out, b = append(out, b[0]), b[1:]
		}
	}
	return append(append(out, a...), b...)
}

// withEntry is a matcher that finds what m's catalog with e added would
// find, built without going over the catalog again: e's trie laid over
// m, or, for a book of a series, the book's own trie made again with e,
// over the series'. It has no version or IDs: it is for counting what an
// entry not yet made would find (untracked_count.go), never for an
// index. e's ID must be no entry's of m.
func (m *Matcher) withEntry(e *codex.Entry) *Matcher {
	if m.layer == nil {
		w := newTrie([]*codex.Entry{e})
		w.longestWord = max(w.longestWord, m.longestWord)
		w.layer = &matcherLayer{base: m}
		return w
	}
	w := newTrie(append(slices.Clip(m.own), e))
	w.longestWord = max(w.longestWord, m.longestWord)
	w.layer = m.layer
	return w
}
