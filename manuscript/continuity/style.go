package continuity

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/quire-ink/quire/codex"
)

// styleIndex finds the rules that may match at a word without trying
// every rule there: a chapter is read once whatever the number of rules.
type styleIndex struct {
	// byFirst maps the first word of an avoided phrase or of a term, and
	// a term's words run together ("saltdebt"), to the rules.
	byFirst map[string][]int
	// words holds each rule's words, lower-cased.
	words [][]string
}

// ruleWords splits a phrase into lower-cased words as splitProse does.
func ruleWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !isWordRune(r) && !isApostrophe(r) })
}

func buildStyleIndex(rules []rule) styleIndex {
	ix := styleIndex{byFirst: map[string][]int{}, words: make([][]string, len(rules))}
	for i, r := range rules {
		w := ruleWords(r.Avoid + r.Term)
		ix.words[i] = w
		if len(w) == 0 {
			continue
		}
		ix.byFirst[w[0]] = append(ix.byFirst[w[0]], i)
		if r.Term != "" && len(w) > 1 {
			joined := strings.Join(w, "")
			ix.byFirst[joined] = append(ix.byFirst[joined], i)
		}
	}
	return ix
}

// styleRules flags avoided phrases, with the preferred form as a fix,
// and variants of a term's spelling (case, spacing, hyphenation), with
// the term as the fix.
func (c *checker) styleRules() {
	p := c.p
	ix := c.canon.style
	for i, tok := range p.tokens {
		for _, ri := range ix.byFirst[tok.lower] {
			r := c.canon.rules[ri]
			words := ix.words[ri]
			if r.Term != "" {
				c.termAt(i, r, words)
				continue
			}
			end, ok := c.phraseAt(i, words, false)
			if !ok {
				continue
			}
			rg := codex.Range{Start: tok.start, End: p.tokens[end].end}
			got := p.text[rg.Start:rg.End]
			if collapse(got) != collapse(r.Avoid) {
				continue
			}
			d := Diagnostic{Code: CodeStyleRule, Range: rg, Entry: r.entry.ID,
				Related: []Related{ruleRelated(r)}}
			if r.Prefer != "" {
				want := matchCase(got, r.Prefer)
				d.Message = fmt.Sprintf("%q: the style rules of %s prefer %q", got, r.entry.Name, want)
				d.Fix = &Fix{Title: fmt.Sprintf("Replace with %q", want), Range: rg, NewText: want}
			} else {
				d.Message = fmt.Sprintf("%q: the style rules of %s say to avoid it", got, r.entry.Name)
			}
			if r.Note != "" {
				d.Message += " (" + r.Note + ")"
			}
			c.add(d)
		}
	}
}

// phraseAt matches words from token i on, separated by space (or, when
// hyphens is true, by hyphens too); it returns the last token matched.
func (c *checker) phraseAt(i int, words []string, hyphens bool) (int, bool) {
	p := c.p
	if i+len(words) > len(p.tokens) {
		return 0, false
	}
	for k, w := range words {
		t := p.tokens[i+k]
		if t.lower != w || t.sentence != p.tokens[i].sentence {
			return 0, false
		}
		if k > 0 {
			g := p.gap(i + k - 1)
			if !isSpace(g) && !(hyphens && (g == "-" || g == "‐" || g == "–")) {
				return 0, false
			}
		}
	}
	return i + len(words) - 1, true
}

func (c *checker) termAt(i int, r rule, words []string) {
	p := c.p
	tok := p.tokens[i]
	end := i
	switch {
	case len(words) > 1 && tok.lower == strings.Join(words, ""):
		// "saltdebt" for "salt-debt"
	default:
		e, ok := c.phraseAt(i, words, true)
		if !ok {
			return
		}
		end = e
	}
	rg := codex.Range{Start: tok.start, End: p.tokens[end].end}
	got := p.text[rg.Start:rg.End]
	if got == r.Term {
		return
	}
	want := r.Term
	// A term opening a sentence may take a capital.
	if i == 0 || p.tokens[i-1].sentence != tok.sentence {
		if capitalized := upperFirst(r.Term); got == capitalized {
			return
		} else if isUpperStart(got) {
			want = capitalized
		}
	}
	c.add(Diagnostic{Code: CodeStyleRule, Range: rg, Entry: r.entry.ID,
		Message: fmt.Sprintf("%q: %s spells it %q", got, r.entry.Name, r.Term),
		Fix:     &Fix{Title: fmt.Sprintf("Spell it %q", want), Range: rg, NewText: want},
		Related: []Related{ruleRelated(r)}})
}

func ruleRelated(r rule) Related {
	line, _ := codex.LineColumn(r.entry.Source, r.Range.Start)
	what := "term: " + r.Term
	if r.Avoid != "" {
		what = "avoid: " + r.Avoid
		if r.Prefer != "" {
			what += ", prefer: " + r.Prefer
		}
	}
	return Related{Path: r.entry.ID, Range: r.Range, Line: line, Message: what}
}

// matchCase gives the preferred form the capital the prose's form had.
func matchCase(got, prefer string) string {
	if isUpperStart(got) && !isUpperStart(prefer) {
		return upperFirst(prefer)
	}
	return prefer
}

func isUpperStart(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsUpper(r)
}

func upperFirst(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[size:]
}
