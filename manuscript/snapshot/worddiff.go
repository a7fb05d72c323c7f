package snapshot

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// Op is one run of a word-level diff.
type Op struct {
	// Kind is "=" (both), "-" (only in the old text), "+" (only in the
	// new).
	Kind string `json:"kind"`
	Text string `json:"text"`
}

// maxDiffTokens bounds the tokens a diff maps to runes: the private
// use planes hold about 130,000, more than any chapter's distinct words.
const maxDiffTokens = 130000

// WordDiff compares two texts word by word: words, spaces and
// punctuation are the units, so a changed word shows as that word, not
// as characters.
func WordDiff(old, new string) []Op {
	toks := tokenizer{ids: map[string]rune{}}
	a, b := toks.runes(old), toks.runes(new)
	if a == nil || b == nil {
		// More distinct words than runes to name them: fall back to a
		// diff by lines, still correct, only coarser.
		return lineDiff(old, new)
	}
	diffs := boundedDiff(a, b)
	out := make([]Op, 0, len(diffs))
	for _, d := range diffs {
		var sb strings.Builder
		for _, r := range d.Text {
			sb.WriteString(toks.words[r-tokenBase])
		}
		out = appendOp(out, kindOf(d.Type), sb.String())
	}
	return out
}

func lineDiff(old, new string) []Op {
	dmp := diffmatchpatch.New()
	a, b, lines := dmp.DiffLinesToChars(old, new)
	diffs := dmp.DiffCharsToLines(boundedDiff([]rune(a), []rune(b)), lines)
	var out []Op
	for _, d := range diffs {
		out = appendOp(out, kindOf(d.Type), d.Text)
	}
	return out
}

func appendOp(out []Op, kind, text string) []Op {
	if text == "" {
		return out
	}
	if n := len(out); n > 0 && out[n-1].Kind == kind {
		out[n-1].Text += text
		return out
	}
	return append(out, Op{Kind: kind, Text: text})
}

func kindOf(t diffmatchpatch.Operation) string {
	switch t {
	case diffmatchpatch.DiffInsert:
		return "+"
	case diffmatchpatch.DiffDelete:
		return "-"
	}
	return "="
}

// Counts are the words a diff adds and removes.
func Counts(ops []Op) (added, removed int) {
	for _, op := range ops {
		switch op.Kind {
		case "+":
			added += words(op.Text)
		case "-":
			removed += words(op.Text)
		}
	}
	return added, removed
}

// words counts runs of letters and digits, as a diff's units are cut.
func words(s string) int {
	n, in := 0, false
	for _, r := range s {
		w := unicode.IsLetter(r) || unicode.IsDigit(r)
		if w && !in {
			n++
		}
		in = w
	}
	return n
}

// tokenBase is the first rune tokens are named with (plane 15, private
// use).
const tokenBase = 0xF0000

// tokenizer names each distinct token with one rune.
type tokenizer struct {
	ids   map[string]rune
	words []string
}

// runes is s as one rune per token; nil when there are too many
// distinct tokens.
func (t *tokenizer) runes(s string) []rune {
	var out []rune
	for len(s) > 0 {
		n := tokenLen(s)
		tok := s[:n]
		s = s[n:]
		id, ok := t.ids[tok]
		if !ok {
			if len(t.words) >= maxDiffTokens {
				return nil
			}
			id = tokenBase + rune(len(t.words))
			t.ids[tok] = id
			t.words = append(t.words, tok)
		}
		out = append(out, id)
	}
	if out == nil {
		out = []rune{}
	}
	return out
}

// tokenLen is the length of the token s starts with: a run of letters
// and digits (with inner apostrophes), a run of spaces, or one other
// character.
func tokenLen(s string) int {
	r, n := utf8.DecodeRuneInString(s)
	switch {
	case unicode.IsLetter(r) || unicode.IsDigit(r):
		for n < len(s) {
			r2, m := utf8.DecodeRuneInString(s[n:])
			if unicode.IsLetter(r2) || unicode.IsDigit(r2) || unicode.Is(unicode.Mn, r2) {
				n += m
				continue
			}
			if (r2 == '\'' || r2 == '’') && n+m < len(s) {
				r3, _ := utf8.DecodeRuneInString(s[n+m:])
				if unicode.IsLetter(r3) {
					n += m
					continue
				}
			}
			break
		}
	case r == ' ' || r == '\t':
		for n < len(s) && (s[n] == ' ' || s[n] == '\t') {
			n++
		}
	}
	return n
}
