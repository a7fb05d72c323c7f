package dialoguebench

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/manuscript/dialogue"
)

// Baseline is the yardstick quire is measured beside, what a plain
// script would do: every pair of double quotation marks ("…" or “…”,
// the regular expression "[^"]*") is one utterance, and its speaker is a
// codex name or alias right beside a speech verb ("said Emma", "Emma
// replied") in the narration of its paragraph, the nearest after it,
// else the nearest before it; else it has none.
func Baseline(ch dialogue.Chapter, cast *dialogue.Cast) []dialogue.Utterance {
	re := regexp.MustCompile(`"[^"]*"|“[^”]*”`)
	body := ch.Text[ch.Body.Start:ch.Body.End]
	locs := re.FindAllStringIndex(body, -1)
	var out []dialogue.Utterance
	for k, loc := range locs {
		start, end := ch.Body.Start+loc[0], ch.Body.Start+loc[1]
		_, opening := utf8.DecodeRuneInString(ch.Text[start:])
		_, closing := utf8.DecodeLastRuneInString(ch.Text[:end])
		inner := codex.Range{Start: start + opening, End: end - closing}
		u := dialogue.Utterance{
			Spans: []codex.Range{inner},
			Marks: []codex.Range{{Start: start, End: end}},
			Words: len(strings.Fields(ch.Text[inner.Start:inner.End])),
			Rule:  dialogue.RuleNone,
		}
		// The narration beside it in its paragraph, up to the next and
		// from the previous quotation.
		pStart, pEnd := paragraphOf(ch.Text, start, end)
		after := codex.Range{Start: end, End: pEnd}
		if k+1 < len(locs) {
			after.End = min(after.End, ch.Body.Start+locs[k+1][0])
		}
		before := codex.Range{Start: pStart, End: start}
		if k > 0 {
			before.Start = max(before.Start, ch.Body.Start+locs[k-1][1])
		}
		if id, tag, ok := speechVerbName(ch, cast, after, true); ok {
			u.Speaker, u.Tag, u.Rule = id, tag, dialogue.RuleExplicit
		} else if id, tag, ok := speechVerbName(ch, cast, before, false); ok {
			u.Speaker, u.Tag, u.Rule = id, tag, dialogue.RuleExplicit
		} else {
			u.Uncertain = true
		}
		out = append(out, u)
	}
	return out
}

// paragraphOf is the paragraph around text[start:end]: from the blank
// line before it to the blank line after it.
func paragraphOf(text string, start, end int) (int, int) {
	pStart := 0
	for i := start - 1; i > 0; i-- {
		if text[i] == '\n' {
			if j := strings.LastIndexByte(text[:i], '\n'); strings.TrimSpace(text[j+1:i]) == "" {
				pStart = i + 1
				break
			}
		}
	}
	pEnd := len(text)
	for i := end; i < len(text); i++ {
		if text[i] == '\n' {
			if j := strings.IndexByte(text[i+1:], '\n'); j >= 0 && strings.TrimSpace(text[i+1:i+1+j]) == "" {
				pEnd = i
				break
			}
		}
	}
	return pStart, pEnd
}

// speechVerbName finds in the window a character's mention with a
// speech verb right before or after it: the first when first, else the
// last.
func speechVerbName(ch dialogue.Chapter, cast *dialogue.Cast, window codex.Range, first bool) (string, codex.Range, bool) {
	var found []manuscript.Mention
	for _, m := range ch.Mentions {
		if m.Range.Start < window.Start || m.Range.End > window.End {
			continue
		}
		if _, ok := cast.Character(m.Entry); !ok {
			continue
		}
		if speechVerb(wordBefore(ch.Text, m.Range.Start, window.Start)) || speechVerb(wordAfter(ch.Text, m.Range.End, window.End)) {
			found = append(found, m)
		}
	}
	if len(found) == 0 {
		return "", codex.Range{}, false
	}
	m := found[len(found)-1]
	if first {
		m = found[0]
	}
	return m.Entry, m.Range, true
}

// wordBefore is the word right before offset i, with nothing but spaces
// between; "" when something else is there.
func wordBefore(text string, i, floor int) string {
	j := i
	for j > floor && (text[j-1] == ' ' || text[j-1] == '\n') {
		j--
	}
	k := j
	for k > floor {
		r, size := utf8.DecodeLastRuneInString(text[:k])
		if !unicode.IsLetter(r) {
			break
		}
		k -= size
	}
	return text[k:j]
}

// wordAfter is the word right after offset i, with nothing but spaces
// between; "" when something else is there.
func wordAfter(text string, i, ceil int) string {
	j := i
	for j < ceil && (text[j] == ' ' || text[j] == '\n') {
		j++
	}
	k := j
	for k < ceil {
		r, size := utf8.DecodeRuneInString(text[k:])
		if !unicode.IsLetter(r) {
			break
		}
		k += size
	}
	return text[j:k]
}

// speechVerb reports whether w is a verb of saying.
func speechVerb(w string) bool {
	switch strings.ToLower(w) {
	case "said", "says", "say", "asked", "asks", "replied", "replies", "cried", "cries",
		"answered", "answers", "exclaimed", "added", "continued", "returned", "rejoined",
		"observed", "remarked", "whispered", "shouted", "muttered", "murmured", "called",
		"began", "repeated", "thought", "inquired", "enquired", "interrupted", "resumed":
		return true
	}
	return false
}
