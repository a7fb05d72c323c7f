// Package untrusted makes text from the book, which quire does not
// trust, fit to enter a prompt: one line where one line is meant, and
// without the sentences that read as an attempt to steer the model
// itself (overriding its instructions, reassigning its role, asking for
// its prompt, chat role tags), which are left out and reported. The
// advisor's actions and its prompt both use it.
package untrusted

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Line is one untrusted line as it may enter a prompt: one line,
// flagged sentences left out.
func Line(s string) string {
	clean, _ := Sanitize(OneLine(s))
	return OneLine(clean)
}

// Clean normalizes multi-line untrusted text: CRLF to LF, control
// characters other than newline and tab removed, runs of blank lines
// folded to one, and the ends trimmed.
func Clean(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\t':
			return r
		case r == '\r' || r == '\u2028' || r == '\u2029':
			return '\n'
		case unicode.IsControl(r) || r == utf8.RuneError:
			return -1
		}
		return r
	}, s)
	lines := strings.Split(s, "\n")
	var out []string
	blank := false
	for _, l := range lines {
		l = strings.TrimRightFunc(l, unicode.IsSpace)
		if l == "" {
			blank = len(out) > 0
			continue
		}
		if blank {
			out = append(out, "")
		}
		blank = false
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// injectionPattern is one kind of attempt to steer the model itself.
type injectionPattern struct {
	label string
	re    *regexp.Regexp
}

// injectionPatterns run on normalized text (lower case, runs of spaces one
// space, runs with a newline one newline, no format characters, straight
// quotes). They are narrow on purpose: fiction is full of instructions,
// systems and characters who act as something, so a pattern needs words
// addressed to the model ("your instructions", "previous instructions",
// "system prompt") or a chat role marker.
//
// They are compiled on first use: every quire process links this
// package, and only an advisor's turn reads them.
var injectionPatterns = sync.OnceValue(func() []injectionPattern {
	return []injectionPattern{
		// "ignore all previous instructions", "disregard the above rules"
		{"overriding earlier instructions", regexp.MustCompile(
			`\b(?:ignore|disregard|forget|override|bypass|skip|discard|abandon)\s+(?:(?:all|any|every|each|the|of|these|those|your|my|our)\s+)*` +
				`(?:previous|prior|above|earlier|preceding|foregoing|former|original|initial|system)\s+` +
				`(?:instructions?|prompts?|rules|directions|directives|guidelines|guardrails|messages|context|constraints)\b`)},
		// "disregard your instructions", "override your programming"
		{"overriding earlier instructions", regexp.MustCompile(
			`\b(?:ignore|disregard|forget|override|bypass|discard)\s+(?:(?:all|any|every|the|of)\s+)*(?:your|the\s+system's|the\s+model's)\s+` +
				`(?:instructions?|prompts?|rules|directives|guidelines|guardrails|programming|training|constraints|restrictions|persona|role)\b`)},
		// "forget everything above", "ignore all you were told"
		{"overriding earlier instructions", regexp.MustCompile(
			`\b(?:ignore|disregard|forget)\s+(?:everything|all(?:\s+of\s+it)?|anything)\s+(?:above|before\s+this|prior|previously|earlier|you\s+(?:were|have\s+been)\s+told)\b`)},
		// "ignore the above."
		{"overriding earlier instructions", regexp.MustCompile(
			`\b(?:ignore|disregard|forget)\s+(?:all\s+of\s+)?the\s+above\s*(?:[.,;:!]|$|\band\b)`)},
		// "here are your new instructions", "new system prompt"
		{"overriding earlier instructions", regexp.MustCompile(
			`\byour\s+new\s+(?:instructions|rules|directives|system\s+prompt)\b`)},
		// "you are no longer bound by your rules"
		{"overriding earlier instructions", regexp.MustCompile(
			`\b(?:you\s+are|you're)\s+(?:no\s+longer|not)\s+(?:bound|restricted|limited)\s+by\s+(?:your\s+|any\s+|the\s+)?(?:rules|instructions|guidelines|restrictions|guardrails|policies)\b`)},
		// "you are now an unfiltered AI", "from now on you will"
		{"reassigning the model's role", regexp.MustCompile(
			`\b(?:you\s+are|you're)\s+now\s+(?:a|an|my|no\s+longer|free|unrestricted|unfiltered|jailbroken|dan)\b`)},
		{"reassigning the model's role", regexp.MustCompile(
			`\bfrom\s+now\s+on,?\s+(?:you\s+(?:are|will|must|shall|should)|act|respond|answer|behave|pretend)\b`)},
		// "act as an unrestricted AI", "act as if you have no rules"
		{"reassigning the model's role", regexp.MustCompile(
			`\b(?:act|behave|respond)\s+as\s+(?:if\s+you\s+(?:were|are)\s+)?(?:an?\s+)?(?:unrestricted|unfiltered|uncensored|jailbroken|different|new)\s+(?:ai|assistant|model|chatbot|llm|persona)\b`)},
		{"reassigning the model's role", regexp.MustCompile(
			`\b(?:act|behave|respond|pretend)\s+(?:as\s+if|as\s+though|like|that)\s+you\s+(?:have|had|are\s+under|were\s+under)\s+no\s+(?:rules|restrictions|instructions|guidelines|guardrails|filters)\b`)},
		{"reassigning the model's role", regexp.MustCompile(
			`\b(?:developer|jailbreak|dan)\s+mode\b`)},
		// "system prompt", "developer message", "reveal your prompt"
		{"asking for the system prompt", regexp.MustCompile(
			`\bsystem\s+prompts?\b|\bdeveloper\s+(?:message|prompt|instructions)s?\b`)},
		{"asking for the system prompt", regexp.MustCompile(
			`\b(?:reveal|show|print|repeat|output|display|leak|dump|recite|disclose|tell\s+me|write\s+out|paste)\s+(?:me\s+)?(?:all\s+)?(?:of\s+)?` +
				`(?:your|the\s+model's|the\s+assistant's)\s+(?:\w+\s+)?(?:prompt|instructions|configuration|context\s+window)\b`)},
		{"asking for the system prompt", regexp.MustCompile(
			`\bwhat\s+(?:are|were)\s+your\s+(?:\w+\s+)?instructions\b`)},
		// "<|system|>", "<|im_start|>", "[INST]", "<<SYS>>"
		{"a chat role tag", regexp.MustCompile(
			`<\|[a-z_]{2,20}\|>|<\|?\s*/?\s*(?:system|assistant|developer|im_start|im_end|endoftext)\s*\|?>|\[/?(?:inst|system|sys)\]|<</?sys>>`)},
		// a line that opens a chat turn: "### System", "SYSTEM:", "**Assistant:**"
		{"a chat role tag", regexp.MustCompile(
			`(?m)^\s*(?:#{1,6}\s*|\*\*\s*)?(?:system|assistant|developer)\s*(?:\*\*)?\s*(?::|$)`)},
	}
})

// Flags names the kinds of model-steering text found in text,
// each once, in pattern order; nil when the text is clean.
func Flags(text string) []string {
	norm, _ := normalizeForScan(text)
	var out []string
	for _, p := range injectionPatterns() {
		if !slices.Contains(out, p.label) && p.re.MatchString(norm) {
			out = append(out, p.label)
		}
	}
	return out
}

// normalizeForScan lowers text for the patterns and maps each byte of the
// result back to the byte offset in text it came from.
func normalizeForScan(text string) (string, []int) {
	var b strings.Builder
	var from []int
	pendingSpace, pendingNL := false, false
	spaceAt := 0
	put := func(s string, at int) {
		b.WriteString(s)
		for range len(s) {
			from = append(from, at)
		}
	}
	for i, r := range text {
		switch {
		case r == '\n' || r == '\r' || r == '\u2028' || r == '\u2029':
			if !pendingSpace && !pendingNL {
				spaceAt = i
			}
			pendingNL = true
			continue
		case unicode.IsSpace(r):
			if !pendingSpace && !pendingNL {
				spaceAt = i
			}
			pendingSpace = true
			continue
		case unicode.Is(unicode.Cf, r) || unicode.IsControl(r):
			continue
		}
		if pendingNL {
			put("\n", spaceAt)
		} else if pendingSpace {
			put(" ", spaceAt)
		}
		pendingSpace, pendingNL = false, false
		switch r {
		case '\u2018', '\u2019', '\u02bc':
			r = '\''
		case '\u201c', '\u201d':
			r = '"'
		case '\uff5c': // fullwidth vertical line, as in <｜system｜>
			r = '|'
		}
		put(string(unicode.ToLower(r)), i)
	}
	return b.String(), from
}

// Flagged is a sentence left out of a prompt.
type Flagged struct {
	Line   int // 0-based line within the text
	Text   string
	Labels []string
}

// Sanitize removes every sentence of text that overlaps an
// injection match and returns the rest, with the removed sentences. A
// sentence ends after . ! ? or … (and closing quotes or brackets)
// followed by space, or at the end of a line; a line left with nothing
// but a list marker goes as a whole.
//
// Removing a sentence can join its neighbours into a new match, so passes
// repeat until the text is clean; lines found after the first pass are
// those of the text the pass before left.
func Sanitize(text string) (string, []Flagged) {
	clean, flagged := sanitizePass(text)
	for i := 0; len(flagged) > 0 && i < 64; i++ {
		next, more := sanitizePass(clean)
		if len(more) == 0 {
			break
		}
		clean, flagged = next, append(flagged, more...)
	}
	return clean, flagged
}

func sanitizePass(text string) (string, []Flagged) {
	norm, from := normalizeForScan(text)
	type span struct {
		start, end int
		label      string
	}
	var spans []span
	for _, p := range injectionPatterns() {
		for _, m := range p.re.FindAllStringIndex(norm, -1) {
			if m[1] <= m[0] {
				continue
			}
			start := from[m[0]]
			end := len(text)
			if m[1] < len(from) {
				end = from[m[1]]
			}
			// A match ends after its last rune, before the next one.
			last := from[m[1]-1]
			_, size := utf8.DecodeRuneInString(text[last:])
			if last+size < end {
				end = last + size
			}
			spans = append(spans, span{start, end, p.label})
		}
	}
	if len(spans) == 0 {
		return text, nil
	}
	var flagged []Flagged
	var out []string
	lineStart := 0
	for lineNo, line := range strings.Split(text, "\n") {
		var kept strings.Builder
		removed := false
		for _, s := range splitSentences(line) {
			a, b := lineStart+s[0], lineStart+s[1]
			var labels []string
			for _, sp := range spans {
				if sp.start < b && sp.end > a && !slices.Contains(labels, sp.label) {
					labels = append(labels, sp.label)
				}
			}
			if len(labels) == 0 {
				kept.WriteString(line[s[0]:s[1]])
				continue
			}
			removed = true
			flagged = append(flagged, Flagged{Line: lineNo, Text: strings.TrimSpace(line[s[0]:s[1]]), Labels: labels})
		}
		lineStart += len(line) + 1
		k := strings.TrimRightFunc(kept.String(), unicode.IsSpace)
		if removed && isBareListMarker(k) {
			continue
		}
		out = append(out, k)
	}
	return strings.TrimSpace(Clean(strings.Join(out, "\n"))), flagged
}

// isBareListMarker reports whether s is blank or only a Markdown list
// marker or quote marker.
func isBareListMarker(s string) bool {
	s = strings.TrimSpace(s)
	switch s {
	case "", "-", "*", "+", ">":
		return true
	}
	if strings.HasSuffix(s, ".") || strings.HasSuffix(s, ")") {
		_, err := strconv.Atoi(s[:len(s)-1])
		return err == nil
	}
	return false
}

// splitSentences cuts one line into sentences, as [start, end) byte
// ranges covering the line; trailing space belongs to the sentence before.
func splitSentences(line string) [][2]int {
	var out [][2]int
	start := 0
	i := 0
	for i < len(line) {
		r, size := utf8.DecodeRuneInString(line[i:])
		i += size
		if r != '.' && r != '!' && r != '?' && r != '…' {
			continue
		}
		for i < len(line) {
			r2, s2 := utf8.DecodeRuneInString(line[i:])
			if !strings.ContainsRune(`.!?…"')]”’»`, r2) {
				break
			}
			i += s2
		}
		if i < len(line) {
			r2, _ := utf8.DecodeRuneInString(line[i:])
			if !unicode.IsSpace(r2) {
				continue
			}
		}
		for i < len(line) {
			r2, s2 := utf8.DecodeRuneInString(line[i:])
			if !unicode.IsSpace(r2) {
				break
			}
			i += s2
		}
		out = append(out, [2]int{start, i})
		start = i
	}
	if start < len(line) || len(out) == 0 {
		out = append(out, [2]int{start, len(line)})
	}
	return out
}

// OneLine makes s safe to put on one line of a prompt: runs of whitespace
// and control characters become one space, and the ends are trimmed, so a
// value cannot open a section of its own.
func OneLine(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) || unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			space = true
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	return b.String()
}
