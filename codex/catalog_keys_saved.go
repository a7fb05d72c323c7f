package codex

import (
	"reflect"
	"slices"
)

// A warm start's catalog is built from the entries of the saved state.
// Making each entry's keys (keysOf: every name, title, stem and alias
// normalized and split into words) was half the catalog's cost, and the
// catalog a third of the processor time a warm start spent before its
// first answer on a 10,000-entry codex. The state therefore saves the
// keys beside the entries, and a warm start reads them back: the
// normalized strings point into the state as its names do, and the words
// are spans of them.

// keysRules names the rules keysOf follows (Normalize, stemKey, eachWord,
// keys.complete). A state saves its keys with it; a quire whose rules
// differ makes the keys again rather than read them. Bump it whenever
// any of those changes what it makes: TestKeysRulesRecorded fails until
// the new rules' sum is recorded beside it.
const keysRules = 1

// keysChecked is how many entries, spread over the codex, a read of
// saved keys makes again to compare with what it read: a change of rules
// that keysRules missed is then caught on most codexes rather than
// showing stale names.
const keysChecked = 64

// savedKeys writes k, the keys of one entry: its normalized name, title
// (sameAsName), stem (sameAsName) and aliases, then the words of the
// name, the title unless it is the name, and each alias, as spans (gap
// since the last word's end, length).
func (e *encoder) savedKeys(k *keys) {
	e.str(k.name)
	e.sameAsName(k.title, k.name)
	e.sameAsName(k.stem, k.name)
	e.strs(k.aliases)
	words := func(key string) {
		var spans [][2]int
		eachWord(key, func(start, end int) { spans = append(spans, [2]int{start, end}) })
		e.uvarint(uint64(len(spans)))
		last := 0
		for _, s := range spans {
			e.uvarint(uint64(s[0] - last))
			e.uvarint(uint64(s[1] - s[0]))
			last = s[1]
		}
	}
	words(k.name)
	if k.title != k.name {
		words(k.title)
	}
	for _, a := range k.aliases {
		words(a)
	}
}

// sameAsName writes key, a title or stem key, as 0 where it is the name
// key (most entries' title and file stem are their name), else as its
// length plus one and its bytes.
func (e *encoder) sameAsName(key, name string) {
	if key == name {
		e.uvarint(0)
		return
	}
	e.uvarint(uint64(len(key)) + 1)
	e.buf = append(e.buf, key...)
}

// sameAsName reads what encoder.sameAsName wrote.
func (d *decoder) sameAsName(name string) string {
	n := d.uvarint()
	if n == 0 || d.err != nil {
		return name
	}
	if n-1 > uint64(len(d.buf)-d.off) {
		d.fail()
		return ""
	}
	return d.text(int(n - 1))
}

// savedKeys reads the keys of e that encoder.savedKeys wrote; nil once
// d has failed.
func (d *decoder) savedKeys(e *Entry) *keys {
	k := &d.keysSlab.take(1)[0]
	k.name = d.str()
	k.title, k.stem, k.aliases = d.sameAsName(k.name), d.sameAsName(k.name), d.strs()
	lists := d.keyWords(k.name, make([][]string, 0, 2+len(k.aliases)))
	if k.title != k.name {
		lists = d.keyWords(k.title, lists)
	} else {
		lists = append(lists, lists[0])
	}
	for _, a := range k.aliases {
		lists = d.keyWords(a, lists)
	}
	if d.err != nil {
		return nil
	}
	k.complete(e, lists)
	return k
}

// keyWords reads the words of key, spans of it, and appends them to
// lists as one list.
func (d *decoder) keyWords(key string, lists [][]string) [][]string {
	n := d.count(2)
	if n == 0 || d.err != nil {
		return append(lists, nil)
	}
	words := d.stringSlab.take(n)
	last := 0
	for i := range words {
		start := last + int(d.uvarint())
		end := start + int(d.uvarint())
		if d.err != nil || start < last || end <= start || end > len(key) {
			d.fail()
			return append(lists, nil)
		}
		words[i] = key[start:end]
		last = end
	}
	return append(lists, words)
}

// savedCatalog is what a state saves of its catalog beside the entries:
// the keys of each entry, in the entries' order (nil where none), and
// the catalog's sorted words, when it had them for exactly these
// entries (nil otherwise).
type savedCatalog struct {
	keys  []*keys
	words []wordRef
}

// keysOfState writes the keys section of a state: keysRules, the keys of
// each entry in order, saved where the caller had them (the catalog's),
// made here where not; then the catalog's sorted words as pairs (entry,
// word of its keys), their count first, 0 where the caller had none or
// they are not all of these keys.
func (e *encoder) keysOfState(entries []*Entry, saved savedCatalog) {
	e.uvarint(keysRules)
	all := make([]*keys, len(entries))
	for i, en := range entries {
		if i < len(saved.keys) {
			all[i] = saved.keys[i]
		}
		if all[i] == nil {
			all[i] = keysOf(en)
		}
		e.savedKeys(all[i])
		e.spill()
	}
	pairs := wordPairs(entries, all, saved.words)
	e.uvarint(uint64(len(pairs)))
	for _, p := range pairs {
		e.uvarint(uint64(p[0]))
		e.uvarint(uint64(p[1]))
		e.spill()
	}
}

// wordPairs are words, a catalog's sorted words, as the index of each
// one's entry in entries and of the word among its keys' words: nil
// when one is not found there.
func wordPairs(entries []*Entry, all []*keys, words []wordRef) [][2]int {
	if len(words) == 0 {
		return nil
	}
	index := make(map[*Entry]int, len(entries))
	for i, en := range entries {
		index[en] = i
	}
	pairs := make([][2]int, len(words))
	for n, w := range words {
		i, ok := index[w.entry]
		if !ok {
			return nil
		}
		j := slices.Index(all[i].words, w.word)
		if j < 0 {
			return nil
		}
		pairs[n] = [2]int{i, j}
	}
	return pairs
}

// keysOfState reads the keys section of a state whose entries d has
// read. It takes nothing when the keys were saved by other rules, or
// when a few of them, made again, differ from what was read; and no
// words unless they are each word of each entry's keys once, sorted.
func (d *decoder) keysOfState(entries []*Entry) savedCatalog {
	if d.uvarint() != keysRules || d.err != nil {
		// Another quire's keys: the section is passed over, and the
		// catalog makes its own.
		d.off = len(d.buf)
		return savedCatalog{}
	}
	out := make([]*keys, len(entries))
	for i, en := range entries {
		if out[i] = d.savedKeys(en); d.err != nil {
			return savedCatalog{}
		}
	}
	if !keysAgree(entries, out) {
		d.off = len(d.buf)
		return savedCatalog{}
	}
	words := d.savedWords(entries, out)
	if d.err != nil {
		return savedCatalog{}
	}
	return savedCatalog{keys: out, words: words}
}

// savedWords reads the catalog's sorted words that keysOfState wrote:
// nil when there are none, or when they are not each word of each
// entry's keys exactly once, in order.
func (d *decoder) savedWords(entries []*Entry, all []*keys) []wordRef {
	n := d.count(2)
	if n == 0 || d.err != nil {
		return nil
	}
	// Where each entry's words start among all the words, to note each
	// one met.
	first := make([]int, len(all)+1)
	for i, k := range all {
		first[i+1] = first[i] + len(k.words)
	}
	met := make([]bool, first[len(all)])
	words := make([]wordRef, n)
	ok := n == len(met)
	for w := range words {
		i, j := d.uvarint(), d.uvarint()
		if d.err != nil {
			return nil
		}
		if !ok || i >= uint64(len(all)) || j >= uint64(len(all[i].words)) || met[first[i]+int(j)] {
			ok = false
			continue
		}
		met[first[i]+int(j)] = true
		words[w] = wordRef{all[i].words[j], entries[i]}
		if w > 0 && words[w-1].word > words[w].word {
			ok = false
		}
	}
	if !ok {
		return nil
	}
	return words
}

// keysAgree makes again the keys of up to keysChecked entries spread over
// entries and reports whether each equals the one read.
func keysAgree(entries []*Entry, read []*keys) bool {
	step := max(1, len(entries)/keysChecked)
	for i := 0; i < len(entries); i += step {
		if !reflect.DeepEqual(keysOf(entries[i]), read[i]) {
			return false
		}
	}
	return true
}
