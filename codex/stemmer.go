package codex

import (
	"sync"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/token/porter"
	"github.com/blevesearch/bleve/v2/registry"
)

// stemmerName is bleve's Porter stemmer with a memory of the words it
// has stemmed. Prose repeats its words: stemming each occurrence again
// (decoding it to runes, stemming, encoding it back) was a fifth of the
// cost of analyzing a codex. The stems are bleve's own; the cache only
// saves computing them twice. It lives with the index that made it.
const stemmerName = "quire_porter"

// maxStems bounds the memory: past it, new words are stemmed each time.
const maxStems = 1 << 16

func init() {
	// Bleve finds analysis components by name in its registry; this is
	// its documented way to add one.
	registry.RegisterTokenFilter(stemmerName, func(map[string]any, *registry.Cache) (analysis.TokenFilter, error) {
		return &cachedStemmer{stems: map[string][]byte{}}, nil
	})
}

type cachedStemmer struct {
	porter porter.PorterStemmer
	mu     sync.RWMutex
	stems  map[string][]byte
}

// Filter stems every token that is not a keyword, as porter does.
func (c *cachedStemmer) Filter(input analysis.TokenStream) analysis.TokenStream {
	one := make(analysis.TokenStream, 1)
	for _, t := range input {
		if t.KeyWord {
			continue
		}
		c.mu.RLock()
		stem, ok := c.stems[string(t.Term)]
		c.mu.RUnlock()
		if ok {
			// Shared between tokens: nothing after the stemmer writes
			// into a term.
			t.Term = stem
			continue
		}
		word := string(t.Term)
		one[0] = t
		c.porter.Filter(one)
		c.mu.Lock()
		if len(c.stems) < maxStems {
			c.stems[word] = t.Term
		}
		c.mu.Unlock()
	}
	return input
}
