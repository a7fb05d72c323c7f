package manuscript

// The names matcher's file: a warm start reads the trie the last
// session built instead of building it again from every name and alias
// of the codex. At 10,000 entries the build took 27 ms of CPU before a
// warm start could answer (docs/performance.md), while the two cores
// were reading the chapters and decoding the codex's state; reading it
// back costs a fraction of that. The file is the book's cache, beside the
// chapter cache, and is taken only for exactly the names it was built
// from: its version (Matcher.version, a hash of every name, alias and
// exclusion with its entry) must be the one of the entries at hand.

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/quire-ink/quire/codex"
)

// matcherFileMagic opens every names matcher file.
const matcherFileMagic = "quire names matcher\n"

// matcherFileFormat names the file's layout: bump it when the layout
// changes. A file is taken only where the chapter cache's format is the
// same too: that format is bumped whenever a scan would find something
// else in the same text (chapterCacheFormat), which a change to how a
// trie is made of a set of names (add, entryForms, mergeForms, the token
// keys) is. The version each file holds covers the names themselves and
// formsRules.
const matcherFileFormat = 1

// maxMatcherFileBytes bounds the file read: 10,000 entries take about
// 2 MB.
const maxMatcherFileBytes = 256 << 20

// ErrMatcherStale says a names matcher file holds the trie of other
// names than those asked for (or of another quire): it is built again.
var ErrMatcherStale = errors.New("names matcher file of other names")

// ReadMatcher is the matcher of entries (a catalog's, in its order, as
// NewMatcherOf takes them) read from the file at path, which SaveMatcher
// wrote. It fails with ErrMatcherStale when the file holds other names,
// with an error of fs.ErrNotExist when there is none, and with another
// error when the file is damaged; the caller then builds it.
func ReadMatcher(path string, entries []*codex.Entry) (*Matcher, error) {
	data, err := readCacheFile(path, "names matcher file", maxMatcherFileBytes)
	if err != nil {
		return nil, err
	}
	// The version and IDs are the entries' own, found as a build finds
	// them: the file is taken only for these very names.
	m := &Matcher{}
	m.identify(entries)
	if err := m.decodeTrie(data); err != nil {
		return nil, fmt.Errorf("read names matcher %s: %w", path, err)
	}
	// A build looks up the common words (a given name that is an
	// everyday word), so the table was made beside the codex's catalog;
	// read, the matcher would leave it to the first scan, on the path to
	// the first answer (5 ms at a warm start). It is made here instead.
	commonWords()
	return m, nil
}

// SavedMatcherIs reports whether the file at path holds the matcher of
// m's names and reads back: a session saves its matcher only when the
// file holds another, or is damaged.
func SavedMatcherIs(path string, m *Matcher) bool {
	data, err := readCacheFile(path, "names matcher file", maxMatcherFileBytes)
	if err != nil {
		return false
	}
	probe := &Matcher{version: m.version, ids: m.ids}
	return probe.decodeTrie(data) == nil
}

// SaveMatcher writes m to the file at path, atomically, for ReadMatcher.
// A book's matcher laid over its series' is not written (the series'
// trie is not its own): nothing is, and no error.
func SaveMatcher(path string, m *Matcher) error {
	if path == "" || m == nil || m.layer != nil {
		return nil
	}
	data, ok := m.encodeTrie()
	if !ok {
		return errors.New("save names matcher: a form names an entry the matcher does not list")
	}
	if err := writeCacheFile(path, data); err != nil {
		return fmt.Errorf("save names matcher: %w", err)
	}
	return nil
}

// matcherFileVersion checks the head of a names matcher file and returns
// the version it holds and the head's length.
func matcherFileVersion(data []byte) (version [sha256.Size]byte, head int, err error) {
	if !bytes.HasPrefix(data, []byte(matcherFileMagic)) {
		return version, 0, errors.New("not a names matcher file")
	}
	rest := data[len(matcherFileMagic):]
	for _, want := range []uint64{matcherFileFormat, chapterCacheFormat} {
		format, n := binary.Uvarint(rest)
		if n <= 0 || format != want {
			return version, 0, ErrMatcherStale
		}
		rest = rest[n:]
	}
	if len(rest) < sha256.Size {
		return version, 0, errors.New("names matcher file damaged")
	}
	copy(version[:], rest)
	return version, len(data) - len(rest) + sha256.Size, nil
}

// encodeTrie lays out m's trie: its strings once each in a table, then
// each node's children (the key's place in the table, the child's
// index) and forms (the entry's place in m's IDs, the kind, the case
// masks), the name words and the longest word; a CRC-32 ends it. ok is
// false when a form names an entry m does not list (none does).
func (m *Matcher) encodeTrie() (data []byte, ok bool) {
	var table cacheEncoder
	places := map[string]uint64{}
	strs := 0
	ref := func(s string) uint64 {
		p, ok := places[s]
		if !ok {
			p = uint64(strs)
			places[s] = p
			strs++
			table.string(s)
		}
		return p
	}
	var body cacheEncoder
	edges, forms := 0, 0
	for i := range m.nodes {
		n := &m.nodes[i]
		body.uint(uint64(len(n.few) + len(n.many)))
		n.children(func(key string, c int32) {
			body.uint(ref(key))
			body.uint(uint64(c))
			edges++
		})
		body.uint(uint64(len(n.forms)))
		for _, f := range n.forms {
			place, found := m.placeOf(f.entry, 0)
			if !found {
				return nil, false
			}
			body.uint(uint64(place))
			body.uint(uint64(f.kind))
			body.uint(f.caps)
			body.uint(f.lower)
			body.uint(f.allCaps)
			forms++
		}
	}
	body.uint(uint64(len(m.nameWords)))
	for w := range m.nameWords {
		body.uint(ref(w))
	}
	var e cacheEncoder
	e.buf.WriteString(matcherFileMagic)
	e.uint(matcherFileFormat)
	e.uint(chapterCacheFormat)
	e.buf.Write(m.version[:])
	e.uint(uint64(m.longestWord))
	e.uint(uint64(strs))
	e.buf.Write(table.buf.Bytes())
	e.uint(uint64(len(m.nodes)))
	e.uint(uint64(edges))
	e.uint(uint64(forms))
	e.buf.Write(body.buf.Bytes())
	return e.seal(), true
}

// decodeTrie reads the trie encodeTrie wrote into m, whose version and
// IDs identify has set: a file of another version is stale. Everything
// a scan relies on is checked, so a damaged file is an error, never a
// trie that loops or reads outside itself: a child comes after its
// parent, and every place is inside its table.
func (m *Matcher) decodeTrie(data []byte) error {
	version, head, err := matcherFileVersion(data)
	if err != nil {
		return err
	}
	if version != m.version {
		return ErrMatcherStale
	}
	content, sealed := unseal(data)
	if !sealed {
		return errors.New("names matcher file damaged (checksum)")
	}
	if head > len(content) {
		return errors.New("names matcher file damaged")
	}
	d := cacheDecoder{data: content[head:]}
	m.longestWord = d.int()
	strs := make([]string, d.count(1))
	for i := range strs {
		strs[i] = d.string()
	}
	str := func() string {
		i := d.uint()
		if i >= uint64(len(strs)) {
			d.fail()
			return ""
		}
		return strs[i]
	}
	// Each node takes two bytes at least, each edge two, each form five.
	m.nodes = make([]trieNode, d.count(2))
	edges := make([]trieEdge, 0, d.count(2))
	forms := make([]nameForm, 0, d.count(5))
	for i := range m.nodes {
		node := &m.nodes[i]
		// The edges and forms fill the arrays sized by the file's totals,
		// and never outgrow them.
		k := d.count(2)
		if k <= fewEdges && k > cap(edges)-len(edges) || d.err != nil {
			d.fail()
			break
		}
		if k > fewEdges {
			node.many = make(map[string]int32, k)
		}
		from := len(edges)
		for range k {
			key, c := str(), d.uint()
			if c <= uint64(i) || c >= uint64(len(m.nodes)) {
				d.fail()
				break
			}
			if node.many != nil {
				node.many[key] = int32(c)
			} else {
				edges = append(edges, trieEdge{key: key, child: int32(c)})
			}
		}
		if k > 0 && node.many == nil {
			node.few = edges[from:len(edges):len(edges)]
		}
		k = d.count(5)
		if k > cap(forms)-len(forms) || d.err != nil {
			d.fail()
			break
		}
		from = len(forms)
		for range k {
			place, kind := d.uint(), d.uint()
			f := nameForm{caps: d.uint(), lower: d.uint(), allCaps: d.uint()}
			if place >= uint64(len(m.ids)) || kind > uint64(formExclude) {
				d.fail()
				break
			}
			f.entry, f.kind = m.ids[place], nameFormKind(kind)
			forms = append(forms, f)
		}
		if k > 0 {
			node.forms = forms[from:len(forms):len(forms)]
		}
	}
	words := d.count(1)
	m.nameWords = make(map[string]struct{}, words)
	for range words {
		m.nameWords[str()] = struct{}{}
	}
	if d.err == nil && (len(d.data) != 0 || len(m.nodes) == 0) {
		d.fail()
	}
	if d.err != nil {
		return errors.New("names matcher file damaged")
	}
	m.firstTokens = firstTokenFilter(&m.nodes[0])
	return nil
}
