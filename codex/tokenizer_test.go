package codex

import (
	"testing"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/stretchr/testify/assert"
)

func TestWordTokenizer(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"  \n\t ", nil},
		{"The Low Bell rang.", []string{"The", "Low", "Bell", "rang"}},
		{"Mara's coat; Mara’s boat", []string{"Mara's", "coat", "Mara’s", "boat"}},
		{"'quoted' words'", []string{"quoted", "words"}},
		{"tide-reading and [[Ilse Dorn]]", []string{"tide", "reading", "and", "Ilse", "Dorn"}},
		{"Year 238, 3.5 knots, 1,200 hulls.", []string{"Year", "238", "3.5", "knots", "1,200", "hulls"}},
		{"Séverine Aubrac, Ølby, naïve", []string{"Séverine", "Aubrac", "Ølby", "naïve"}},
		{"tea 茶室 here", []string{"tea", "茶", "室", "here"}},
		{"emoji 🔔 bell", []string{"emoji", "bell"}},
		{"ends with '", []string{"ends", "with"}},
		{"x\xffy", []string{"x", "y"}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			stream := wordTokenizer{}.Tokenize([]byte(tt.in))
			var got []string
			for i, tok := range stream {
				got = append(got, string(tok.Term))
				assert.Equal(t, tt.in[tok.Start:tok.End], string(tok.Term), "offsets match the term")
				assert.Equal(t, i+1, tok.Position)
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestWordTokenizerTypes(t *testing.T) {
	stream := wordTokenizer{}.Tokenize([]byte("bell 238 茶"))
	types := []analysis.TokenType{analysis.AlphaNumeric, analysis.Numeric, analysis.Ideographic}
	for i, tok := range stream {
		assert.Equal(t, types[i], tok.Type, string(tok.Term))
	}
}

func FuzzWordTokenizer(f *testing.F) {
	f.Add([]byte("Mara's 3.5 茶 tide-reading"))
	f.Add([]byte("''..,,"))
	f.Fuzz(func(t *testing.T, in []byte) {
		prevEnd := 0
		for _, tok := range (wordTokenizer{}).Tokenize(in) {
			if tok.Start < prevEnd || tok.End <= tok.Start || tok.End > len(in) {
				t.Fatalf("bad token %q at [%d,%d) after %d", tok.Term, tok.Start, tok.End, prevEnd)
			}
			prevEnd = tok.End
		}
	})
}
