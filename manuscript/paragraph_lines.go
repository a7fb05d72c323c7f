package manuscript

import (
	"strings"

	"github.com/quire-ink/quire/codex"
)

// Markdown ends a paragraph at a blank line; lines with none between
// them are one paragraph. A chapter pasted from a word processor, or
// written with one Enter at the end of each paragraph, sets each
// paragraph on a line of its own instead: the writer sees paragraphs,
// and the build would run them together. Hard-wrapped prose (lines
// broken at 72 to 80 characters inside a paragraph) runs its lines on
// too, but its lines are short.

// longLine is the length from which a line is no line of hard-wrapped
// prose but a paragraph set on one line.
const longLine = 120

// LinePerParagraph says the chapter's body sets each paragraph on a
// line of its own with no blank line between: at least two lines of it
// longer than 120 bytes run straight on into another line of text.
// Linear in the body.
func LinePerParagraph(text string, body codex.Range) bool {
	n := 0
	prevLong := false
	for ls := body.Start; ls < body.End; {
		le := lineEnd(text, ls, body.End)
		line := text[ls:le]
		has := strings.TrimSpace(line) != ""
		if has && prevLong && !strings.HasPrefix(strings.TrimLeft(line, " "), "#") {
			if n++; n == 2 {
				return true
			}
		}
		prevLong = has && le-ls > longLine
		ls = le + 1
	}
	return false
}

// RunOnBreaks are the line breaks of body (their offsets) between two
// lines of prose, each a paragraph a writer set on a line of its own:
// where a blank line would make Markdown read two paragraphs. Lines of
// code (code, sorted), of an HTML comment, headings, scene breaks, list
// items, block quotes, tables and HTML keep their breaks.
func RunOnBreaks(text string, body codex.Range, code []codex.Range) []int {
	comments := HTMLComments(text, body)
	var out []int
	prevProse := false
	ci, mi := 0, 0
	for ls := body.Start; ls < body.End; {
		le := lineEnd(text, ls, body.End)
		for ci < len(code) && code[ci].End <= ls {
			ci++
		}
		for mi < len(comments) && comments[mi].End <= ls {
			mi++
		}
		hidden := ci < len(code) && code[ci].Start < le || mi < len(comments) && comments[mi].Start < le
		prose := !hidden && proseLine(text[ls:le])
		if prose && prevProse {
			out = append(out, ls-1)
		}
		prevProse = prose
		ls = le + 1
	}
	return out
}

// lineEnd is the end of the line starting at ls, before its newline.
func lineEnd(text string, ls, end int) int {
	if i := strings.IndexByte(text[ls:end], '\n'); i >= 0 {
		return ls + i
	}
	return end
}

// proseLine says a line is prose: it has text, and is no heading, scene
// break, list item, block quote, table row or HTML.
func proseLine(line string) bool {
	t := strings.TrimRight(strings.TrimLeft(line, " \t"), " \t\r")
	if t == "" || isSceneBreak(t) {
		return false
	}
	switch t[0] {
	case '#', '>', '|', '<':
		return false
	case '-', '*', '+':
		return len(t) < 2 || (t[1] != ' ' && t[1] != '\t')
	}
	// "1. " and "1) " open an ordered list.
	i := 0
	for i < len(t) && i < 9 && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	return !(i > 0 && i+1 < len(t) && (t[i] == '.' || t[i] == ')') && t[i+1] == ' ')
}

// HTMLComments finds each <!-- … --> in body; an unclosed one hides
// nothing (Markdown shows it as text).
func HTMLComments(text string, body codex.Range) []codex.Range {
	var out []codex.Range
	for i := body.Start; i+4 <= body.End; {
		j := strings.Index(text[i:body.End], "<!--")
		if j < 0 {
			break
		}
		j += i
		k := strings.Index(text[j+4:body.End], "-->")
		if k < 0 {
			break
		}
		k += j + 4
		out = append(out, codex.Range{Start: j, End: k + 3})
		i = k + 3
	}
	return out
}
