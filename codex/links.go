package codex

import (
	"bytes"
	"cmp"
	"slices"
	"strings"
	"unicode"
)

// maxLinkLen bounds a [[link]]; longer bracket runs are prose, not links.
const maxLinkLen = 200

// scanLinks finds [[Target]], [[Target|label]] and [[Target#Section]]
// links in src[body], skipping those inside code. A link never spans a
// line break.
func scanLinks(src []byte, body Range, code []Range) []Link {
	var links []Link
	// Links are found in order, so the code ranges are walked once
	// beside them: a chapter of many links and code spans stays linear.
	if !slices.IsSortedFunc(code, func(a, b Range) int { return cmp.Compare(a.Start, b.Start) }) {
		code = slices.SortedFunc(slices.Values(code), func(a, b Range) int { return cmp.Compare(a.Start, b.Start) })
	}
	ci := 0
	part := src[body.Start:body.End]
	for i := 0; i < len(part); {
		j := bytes.Index(part[i:], []byte("[["))
		if j < 0 {
			break
		}
		open := i + j
		// "[[[x]]]" links x: step to the last of a run of brackets.
		for open+2 < len(part) && part[open+2] == '[' {
			open++
		}
		if open > 0 && part[open-1] == '\\' {
			i = open + 2
			continue
		}
		rest := part[open+2:]
		if len(rest) > maxLinkLen {
			rest = rest[:maxLinkLen]
		}
		k := bytes.Index(rest, []byte("]]"))
		if k < 0 || bytes.ContainsAny(rest[:k], "\n[]") {
			i = open + 2
			continue
		}
		inner := rest[:k]
		start := body.Start + open
		end := start + 2 + k + 2
		i = open + 2 + k + 2
		for ci < len(code) && code[ci].End <= start {
			ci++
		}
		if inCode(code[ci:], start) {
			continue
		}
		target, label := inner, []byte(nil)
		if p := bytes.IndexByte(inner, '|'); p >= 0 {
			target, label = inner[:p], inner[p+1:]
		}
		// Trim both ends by the same rule, so that TargetRange covers
		// exactly the text of Target even when it is padded with a
		// no-break space.
		lead := len(target) - len(bytes.TrimLeftFunc(target, unicode.IsSpace))
		trimmed := bytes.TrimRightFunc(target[lead:], unicode.IsSpace)
		if len(trimmed) == 0 {
			continue
		}
		tStart := start + 2 + lead
		links = append(links, Link{
			Target:      strings.ToValidUTF8(string(trimmed), "\uFFFD"),
			Label:       strings.ToValidUTF8(strings.TrimSpace(string(label)), "\uFFFD"),
			Range:       Range{start, end},
			TargetRange: Range{tStart, tStart + len(trimmed)},
		})
	}
	return links
}

// inCode reports whether off lies in a code range, given those that
// end after it, in order of their start: the first that starts after
// off and those after it do not hold it.
func inCode(code []Range, off int) bool {
	for _, r := range code {
		if r.Start > off {
			return false
		}
		if r.Contains(off) {
			return true
		}
	}
	return false
}

// LinkName is the entry name a link target refers to: "Ilse Dorn#Soul"
// refers to Ilse Dorn.
func (l Link) LinkName() string {
	name, _, _ := strings.Cut(l.Target, "#")
	return strings.TrimSpace(name)
}

// LinkSection is the section a link target points into, if any.
func (l Link) LinkSection() string {
	_, section, _ := strings.Cut(l.Target, "#")
	return strings.TrimSpace(section)
}

// LinksInBody finds the links of a Markdown file's body (a chapter's:
// its text after any front matter), leaving out those inside the code
// ranges given. Ranges are byte offsets into text.
func LinksInBody(text string, body Range, code []Range) []Link {
	if body.Start < 0 || body.End > len(text) || body.Start > body.End || !strings.Contains(text[body.Start:body.End], "[[") {
		return nil
	}
	return scanLinks([]byte(text), body, code)
}

// LinksIn finds the links of a piece of Markdown that is not a file of
// its own (an excerpt shown in a hover, a progression's note) by the
// grammar entries are read with: escaped brackets, code spans and the
// length bound hold there too. Ranges are byte offsets into text.
func LinksIn(text string) []Link {
	if !strings.Contains(text, "[[") {
		return nil
	}
	src := []byte(text)
	body := Range{0, len(src)}
	return scanLinks(src, body, outlineOf(src, body, false).Code)
}
