package codex

import (
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/registry"
)

// wordTokenizerName is quire's tokenizer for the index. Bleve's Unicode
// tokenizer runs the full word-boundary algorithm, which dominated the
// cost of indexing a codex; prose needs far less: words are runs of
// letters, digits and combining marks, an apostrophe between letters
// stays inside a word (so "Mara's" reaches the possessive filter), a
// point or comma between digits stays inside a number, and every
// ideograph or kana is a word of its own, as the Unicode rules have it.
const wordTokenizerName = "quire_words"

func init() {
	// Bleve finds analysis components by name in its registry; this is
	// its documented way to add one.
	registry.RegisterTokenizer(wordTokenizerName, func(map[string]any, *registry.Cache) (analysis.Tokenizer, error) {
		return wordTokenizer{}, nil
	})
}

type wordTokenizer struct{}

// wordByte marks the ASCII bytes that belong to words.
var wordByte = func() (t [utf8.RuneSelf]bool) {
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c] = true
		t[c-'a'+'A'] = true
	}
	return t
}()

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return wordByte[r]
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r)
}

func isIdeograph(r rune) bool {
	return r >= 0x2E80 && (unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r))
}

func isDigit(r rune) bool { return r >= '0' && r <= '9' }

// decode reads the rune at i, fast for ASCII.
func decode(b []byte, i int) (rune, int) {
	if b[i] < utf8.RuneSelf {
		return rune(b[i]), 1
	}
	return utf8.DecodeRune(b[i:])
}

// Tokenize splits input into words with byte offsets and positions.
func (wordTokenizer) Tokenize(input []byte) analysis.TokenStream {
	guess := len(input)/6 + 1
	stream := make(analysis.TokenStream, 0, guess)
	// Tokens come from slabs: one allocation for many instead of one
	// each, which was most of the tokenizer's cost.
	slab := make([]analysis.Token, 0, guess)
	pos := 1
	for w := (wordScanner{input: input}); ; {
		start, end, typ, ok := w.next()
		if !ok {
			return stream
		}
		if len(slab) == cap(slab) {
			slab = make([]analysis.Token, 0, max(guess/4, 16))
		}
		slab = append(slab, analysis.Token{
			Term: input[start:end], Start: start, End: end, Position: pos, Type: typ,
		})
		stream = append(stream, &slab[len(slab)-1])
		pos++
	}
}

// wordScanner walks the words of input, in order. It is the tokenizer's
// rule on its own, shared with the index's fused analysis (fused.go),
// which needs the words but not a token for each.
type wordScanner struct {
	input []byte
	i     int
}

// next returns the byte range and type of the next word; ok is false
// once input is exhausted.
func (w *wordScanner) next() (start, end int, typ analysis.TokenType, ok bool) {
	input := w.input
	i := w.i
	for i < len(input) {
		r, size := decode(input, i)
		if isIdeograph(r) {
			w.i = i + size
			return i, i + size, analysis.Ideographic, true
		}
		if !isWordRune(r) {
			i += size
			continue
		}
		start, numeric := i, true
		prev := rune(0)
		for i < len(input) {
			r, size := decode(input, i)
			if isIdeograph(r) {
				break
			}
			if isWordRune(r) {
				numeric = numeric && isDigit(r)
				prev = r
				i += size
				continue
			}
			// A joiner stays when a word character follows.
			joins := (r == '\'' || r == '’') && unicode.IsLetter(prev) ||
				(r == '.' || r == ',') && isDigit(prev)
			if !joins || i+size >= len(input) {
				break
			}
			next, _ := decode(input, i+size)
			if (r == '.' || r == ',') && !isDigit(next) || !isWordRune(next) || isIdeograph(next) {
				break
			}
			prev = r
			i += size
		}
		typ := analysis.AlphaNumeric
		if numeric {
			typ = analysis.Numeric
		}
		w.i = i
		return start, i, typ, true
	}
	w.i = i
	return 0, 0, 0, false
}

// WordTokenizer names quire's word tokenizer in bleve's registry, for
// other indexes (the manuscript's) that analyze prose as the codex does.
const WordTokenizer = wordTokenizerName
