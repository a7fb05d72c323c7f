package continuity

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/quire-ink/quire/codex"
)

// token is one word of prose: a run of letters and digits, with
// apostrophes inside it ("don't", "Jory's").
type token struct {
	start, end int
	lower      string
	// sentence is the index of the sentence the word is in.
	sentence int
}

// sentence is a run of tokens [first, last) ending at a full stop,
// question or exclamation mark, a blank line or a heading.
type sentence struct {
	first, last int
}

// prose is a chapter's body split once into words and sentences, so
// that every check reads it in one pass.
type prose struct {
	text      string
	tokens    []token
	sentences []sentence
}

// maxTokens bounds the words read from one chapter: a chapter is at
// most a few tens of thousands of words; a pasted book is read up to
// here.
const maxTokens = 400_000

// splitProse reads body of text, leaving out the code ranges.
func splitProse(text string, body codex.Range, code []codex.Range) *prose {
	// About one word in six bytes of English prose: growing the slice
	// word by word costs more than the split itself.
	p := &prose{text: text, tokens: make([]token, 0, min(maxTokens, (body.End-body.Start)/6+16))}
	ci := 0
	sentStart := 0
	lineStart := true
	heading := false
	end := func() {
		if len(p.tokens) > sentStart {
			p.sentences = append(p.sentences, sentence{sentStart, len(p.tokens)})
			sentStart = len(p.tokens)
		}
	}
	for i := body.Start; i < body.End && len(p.tokens) < maxTokens; {
		for ci < len(code) && code[ci].End <= i {
			ci++
		}
		if ci < len(code) && code[ci].Start <= i {
			end()
			i = code[ci].End
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case isWordRune(r):
			j := i + size
			for j < body.End {
				r2, s2 := utf8.DecodeRuneInString(text[j:])
				if isWordRune(r2) {
					j += s2
					continue
				}
				if isApostrophe(r2) && j+s2 < body.End {
					if r3, _ := utf8.DecodeRuneInString(text[j+s2:]); isWordRune(r3) {
						j += s2
						continue
					}
				}
				break
			}
			if ci < len(code) && code[ci].Start < j {
				j = code[ci].Start
			}
			p.tokens = append(p.tokens, token{start: i, end: j, lower: lowerWord(text[i:j]), sentence: len(p.sentences)})
			lineStart = false
			i = j
			continue
		case r == '\n':
			if heading || lineStart {
				end() // a heading line, or a blank line: a paragraph ends
			}
			heading = false
			lineStart = true
		case r == '#' && lineStart:
			end()
			heading = true
			lineStart = false
		case r == '.' || r == '!' || r == '?' || r == '…':
			// A stop ends a sentence when what follows is space, a
			// closing quote, or the end.
			j := i + size
			for j < body.End {
				r2, s2 := utf8.DecodeRuneInString(text[j:])
				if !isClosingQuote(r2) && r2 != '.' && r2 != '!' && r2 != '?' && r2 != ')' {
					break
				}
				j += s2
			}
			if r2, _ := utf8.DecodeRuneInString(text[j:]); j >= body.End || unicode.IsSpace(r2) {
				end()
			}
			lineStart = false
		case r == ' ' || r == '\t' || r == '\r' || r == '>':
			// Indentation and quote markers keep a line blank.
		default:
			lineStart = false
		}
		i += size
	}
	end()
	return p
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

func isApostrophe(r rune) bool { return r == '\'' || r == '’' || r == 'ʼ' }

func isClosingQuote(r rune) bool {
	return r == '"' || r == '”' || r == '’' || r == '\'' || r == '»' || r == '“' || r == '«'
}

// tokenAt is the index of the first token that ends after off.
func (p *prose) tokenAt(off int) int {
	lo, hi := 0, len(p.tokens)
	for lo < hi {
		m := (lo + hi) / 2
		if p.tokens[m].end <= off {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// gap is the text between tokens i and i+1.
func (p *prose) gap(i int) string {
	if i < 0 || i+1 >= len(p.tokens) {
		return ""
	}
	return p.text[p.tokens[i].end:p.tokens[i+1].start]
}

// isSpace reports whether s is only white space (and not empty).
func isSpace(s string) bool {
	if s == "" {
		return false
	}
	return strings.TrimSpace(s) == ""
}

// collapse lower-cases s and makes each run of space one space.
func collapse(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

// lowerWord lower-cases a word, sharing the text's bytes when it has no
// capital to change: most words of prose have none, and a chapter is
// then read without copying them.
func lowerWord(w string) string {
	for i := 0; i < len(w); i++ {
		if c := w[i]; c >= utf8.RuneSelf || (c >= 'A' && c <= 'Z') {
			return strings.ToLower(w)
		}
	}
	return w
}
