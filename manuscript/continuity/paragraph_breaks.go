package continuity

import (
	"fmt"
	"strings"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/count"
	"github.com/quire-ink/quire/manuscript"
)

// paragraphBreaks warns of a chapter that sets its paragraphs a line
// each with no blank line between (manuscript.LinePerParagraph): the
// writer sees paragraphs, Markdown reads one, and the build runs them
// together into a wall of text. One warning a chapter, at the first
// line that runs on, with the fix that puts a blank line at every such
// break (manuscript.RunOnBreaks): the writer reviews it as any edit.
func (c *checker) paragraphBreaks() {
	text, body := c.u.Text, c.body
	if !manuscript.LinePerParagraph(text, body) {
		return
	}
	breaks := manuscript.RunOnBreaks(text, body, c.u.Code)
	if len(breaks) == 0 {
		return
	}
	first, last := breaks[0], breaks[len(breaks)-1]
	lineStart := strings.LastIndexByte(text[:first], '\n') + 1
	var fixed strings.Builder
	fixed.Grow(last + 1 - first + len(breaks))
	at := first
	for _, b := range breaks {
		// The blank line ends as the file's lines do ("\r\n" from Windows).
		fixed.WriteString(text[at : b+1])
		if b > 0 && text[b-1] == '\r' {
			fixed.WriteString("\r\n")
		} else {
			fixed.WriteString("\n")
		}
		at = b + 1
	}
	c.add(Diagnostic{Code: CodeParagraphBreaks, Range: codex.Range{Start: lineStart, End: first},
		Message: fmt.Sprintf("This chapter sets its paragraphs one to a line with no blank line between them (%s). Markdown reads lines without a blank line between them as one paragraph, so the manuscript you build runs them together. Put a blank line between paragraphs.",
			count.Of(len(breaks), "place")),
		Fix: &Fix{Title: "Put a blank line between this chapter's paragraphs", Range: codex.Range{Start: first, End: last + 1}, NewText: fixed.String()}})
}
