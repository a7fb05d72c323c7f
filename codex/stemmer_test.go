package codex

import (
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/token/porter"
	"github.com/stretchr/testify/assert"
)

// The cached stemmer gives porter's stems, the first time and every time
// after, and leaves keywords alone.
func TestCachedStemmerMatchesPorter(t *testing.T) {
	words := strings.Fields("running runs ran harbors harbor's generalization lanterns lantern quietly naïve café 港口 x")
	stream := func() analysis.TokenStream {
		var ts analysis.TokenStream
		for i, w := range words {
			ts = append(ts, &analysis.Token{Term: []byte(w), KeyWord: i == 1})
		}
		return ts
	}
	want := porter.NewPorterStemmer().Filter(stream())
	c := &cachedStemmer{stems: map[string][]byte{}}
	for round := range 3 {
		got := c.Filter(stream())
		for i := range want {
			assert.Equal(t, string(want[i].Term), string(got[i].Term), "round %d, %q", round, words[i])
		}
	}
	assert.Equal(t, "runs", string(c.Filter(stream())[1].Term), "a keyword is not stemmed")
}
