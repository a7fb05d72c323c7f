package codex

import (
	"sync"
	"unsafe"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/single"
	"github.com/blevesearch/bleve/v2/size"
	index "github.com/blevesearch/bleve_index_api"
)

// Fused analysis of the text fields of an entry. bleve analyzes a field
// as a chain: the tokenizer makes a token for every word, each filter
// walks all of them, and the token frequencies are counted in a last
// pass; the stemmer's cache is one map behind one lock for every worker.
// That chain was a quarter of the CPU of a cold index. A fused field does
// the same work word by word, with no token kept: the word is cut from
// the text by the tokenizer's own rule (wordScanner), its possessive cut
// and its case lowered in place as bleve's filters do (ASCII inline;
// anything wider through bleve's own filters), and for prose the rest of
// the chain (stop words, the stemmer) runs once per distinct word in a
// cache owned by one worker at a time. The terms, counts and lengths are
// bleve's (fused_test.go compares them, also on fuzzed text); queries
// still analyze their text through the mapping.

// fusedChain is an analyzer of the mapping taken apart: the two filters
// every quire analyzer starts with, and the filters that follow them,
// which depend on the word alone.
type fusedChain struct {
	// whole says the analyzer is the keyword one: the whole value is
	// its single term.
	whole             bool
	possessive, lower analysis.TokenFilter
	tail              []analysis.TokenFilter
	// caches holds *wordCache values, one per worker at a time.
	caches *sync.Pool
}

// fuse takes an analyzer of the mapping apart, when it has the shape
// quire's analyzers have: no character filters, quire's tokenizer, the
// possessive and lower case filters first; or when it is the keyword
// analyzer, a single token and no filters.
func fuse(a analysis.Analyzer) (*fusedChain, bool) {
	d, ok := a.(*analysis.DefaultAnalyzer)
	if !ok || len(d.CharFilters) > 0 {
		return nil, false
	}
	if _, ok := d.Tokenizer.(*single.SingleTokenTokenizer); ok && len(d.CharFilters) == 0 && len(d.TokenFilters) == 0 {
		return &fusedChain{whole: true}, true
	}
	if _, ok := d.Tokenizer.(wordTokenizer); !ok {
		return nil, false
	}
	if len(d.TokenFilters) < 2 {
		return nil, false
	}
	if _, ok := d.TokenFilters[0].(*en.PossessiveFilter); !ok {
		return nil, false
	}
	if _, ok := d.TokenFilters[1].(*lowercase.LowerCaseFilter); !ok {
		return nil, false
	}
	return &fusedChain{
		possessive: d.TokenFilters[0],
		lower:      d.TokenFilters[1],
		tail:       d.TokenFilters[2:],
		caches:     &sync.Pool{New: func() any { return &wordCache{words: map[string]wordFate{}} }},
	}, true
}

// maxCachedWords bounds one worker's cache; past it, new words run the
// tail of the chain each time.
const maxCachedWords = 1 << 16

// wordCache remembers what the tail of the chain made of each word.
type wordCache struct {
	words map[string]wordFate
	// one is a stream of one token, reused to run filters on one word.
	tok analysis.Token
	one analysis.TokenStream
}

// wordFate is a word after the tail of the chain: dropped (a stop word)
// or the term it became.
type wordFate struct {
	term    []byte
	dropped bool
}

// run passes one word through filters, as the chain would.
func (c *wordCache) run(term []byte, filters ...analysis.TokenFilter) analysis.TokenStream {
	c.tok = analysis.Token{Term: term, Start: 0, End: len(term), Position: 1, Type: analysis.AlphaNumeric}
	if c.one == nil {
		c.one = make(analysis.TokenStream, 1)
	}
	out := c.one[:1]
	out[0] = &c.tok
	for _, f := range filters {
		out = f.Filter(out)
	}
	return out
}

// fusedField is a text field analyzed by a fusedChain.
type fusedField struct {
	name           string
	arrayPositions []uint64
	value          []byte
	chain          *fusedChain
	length         int
	frequencies    index.TokenFrequencies
	// freqSize is what frequencies.Size() would count, summed as the
	// terms are added: bleve asks every field its size for its
	// statistics, and walking each map again for it cost a twentieth of
	// a cold index.
	freqSize int
}

func newFusedField(name string, arrayPositions []uint64, value []byte, chain *fusedChain) *fusedField {
	return &fusedField{name: name, arrayPositions: arrayPositions, value: value, chain: chain}
}

func (f *fusedField) Name() string                        { return f.name }
func (f *fusedField) ArrayPositions() []uint64            { return f.arrayPositions }
func (f *fusedField) Options() index.FieldIndexingOptions { return fieldOptions }
func (f *fusedField) Value() []byte                       { return f.value }
func (f *fusedField) NumPlainTextBytes() uint64           { return uint64(len(f.value)) }
func (f *fusedField) EncodedFieldType() byte              { return 't' }
func (f *fusedField) AnalyzedLength() int                 { return f.length }
func (f *fusedField) AnalyzedTokenFrequencies() index.TokenFrequencies {
	return f.frequencies
}

// Size estimates the field's memory, as bleve's fields do for its batch
// accounting.
func (f *fusedField) Size() int {
	return 64 + len(f.name) + len(f.arrayPositions)*size.SizeOfUint64 + len(f.value) + f.freqSize
}

// Analyze counts the field's terms. Like bleve's lower case filter it
// lowers the case of the field's value in place.
func (f *fusedField) Analyze() {
	c := f.chain
	if c.whole {
		tf := &index.TokenFreq{Term: f.value}
		tf.SetFrequency(1)
		f.length = 1
		f.frequencies = index.TokenFrequencies{string(f.value): tf}
		f.freqSize = size.SizeOfMap + size.SizeOfString + size.SizeOfPtr + 2*len(f.value) + int(unsafe.Sizeof(*tf))
		return
	}
	cache := c.caches.Get().(*wordCache)
	defer c.caches.Put(cache)
	guess := len(f.value)/12 + 1
	freqs := make(index.TokenFrequencies, guess)
	slab := make([]index.TokenFreq, 0, guess)
	n, mem := 0, size.SizeOfMap
	for w := (wordScanner{input: f.value}); ; {
		start, end, _, ok := w.next()
		if !ok {
			break
		}
		term := f.value[start:end]
		if ascii(term) {
			if k := len(term); k >= 2 && (term[k-1] == 's' || term[k-1] == 'S') && term[k-2] == '\'' {
				term = term[:k-2]
			}
			for i, b := range term {
				if 'A' <= b && b <= 'Z' {
					term[i] = b + 'a' - 'A'
				}
			}
		} else {
			term = cache.run(term, c.possessive, c.lower)[0].Term
		}
		if len(c.tail) > 0 {
			fate, ok := cache.words[string(term)]
			if !ok {
				fate = cache.fate(term, c.tail)
			}
			if fate.dropped {
				continue
			}
			term = fate.term
		}
		n++
		if tf, ok := freqs[string(term)]; ok {
			tf.SetFrequency(tf.Frequency() + 1)
			continue
		}
		if len(slab) == cap(slab) {
			slab = make([]index.TokenFreq, 0, max(guess/2, 8))
		}
		slab = append(slab, index.TokenFreq{Term: term})
		tf := &slab[len(slab)-1]
		tf.SetFrequency(1)
		freqs[string(term)] = tf
		mem += size.SizeOfString + size.SizeOfPtr + 2*len(term) + int(unsafe.Sizeof(*tf))
	}
	f.length = n
	f.frequencies = freqs
	f.freqSize = mem
}

// fate runs the tail of the chain on a word and remembers the outcome.
func (c *wordCache) fate(word []byte, tail []analysis.TokenFilter) wordFate {
	key := string(word)
	out := c.run([]byte(key), tail...)
	fate := wordFate{dropped: len(out) == 0}
	if !fate.dropped {
		// The term outlives this field: it is kept as the cache's own.
		fate.term = append([]byte(nil), out[0].Term...)
	}
	if len(c.words) < maxCachedWords {
		c.words[key] = fate
	}
	return fate
}

func ascii(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}
