package continuity

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
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

// scratch holds the buffers one check fills: a chapter's words and
// sentences, and its mentions. A 5,000-word chapter's words take about
// 270 kB; made afresh on every edit, they were most of what the
// server allocated per keystroke, and the collections they caused
// landed inside edits. They are taken from scratchPool and given back
// when the check is done: nothing a diagnostic keeps points into them.
type scratch struct {
	prose    prose
	mentions []manuscript.Mention
	// starts and ends back checker.mentionStarts and mentionEnds.
	starts, ends []int
}

// scratchPool keeps scratch buffers between checks; checks running side
// by side (quire check) each take their own. A pool hands a buffer back
// only to a goroutine on the processor that returned it, or after it
// spilled: a caller that checks again and again keeps a Scratch instead.
var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// maxPooledTokens bounds the buffers kept for the next check: a pasted
// book's words are let go rather than held for ordinary chapters.
const maxPooledTokens = 64 << 10

func getScratch() *scratch { return scratchPool.Get().(*scratch) }

// release gives s back to the pool.
func (s *scratch) release() {
	s.reset()
	scratchPool.Put(s)
}

// reset empties s for the next check, dropping what it points to (the
// chapter's text, the entries' names) so that a kept scratch holds no
// text.
func (s *scratch) reset() {
	p := &s.prose
	clear(p.tokens)
	clear(s.mentions)
	p.text, p.tokens, p.sentences = "", p.tokens[:0], p.sentences[:0]
	s.mentions, s.starts, s.ends = s.mentions[:0], s.starts[:0], s.ends[:0]
	if cap(p.tokens) > maxPooledTokens {
		*s = scratch{}
	}
}

// Scratch keeps the buffers of a check for the next one, for a caller
// that checks chapters again and again (the server, on each edit):
// checking with it allocates no words for the prose. It serves one
// check at a time; its zero value is ready.
type Scratch struct{ s scratch }

// Check is Check(t, u) with the buffers of s.
func (s *Scratch) Check(t *Timeline, u *manuscript.Unit) []Diagnostic {
	defer s.s.reset()
	return check(t, u, &s.s)
}

// splitProse reads body of text, leaving out the code ranges, into p,
// whose buffers it reuses.
func splitProse(p *prose, text string, body codex.Range, code []codex.Range) {
	// About one word in six bytes of English prose: growing the slice
	// word by word costs more than the split itself. A quarter more is
	// kept for the next check, since a chapter being written grows.
	if want := min(maxTokens, (body.End-body.Start)/6+16); cap(p.tokens) < want {
		p.tokens = make([]token, 0, want+want/4)
	}
	p.text, p.tokens, p.sentences = text, p.tokens[:0], p.sentences[:0]
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
