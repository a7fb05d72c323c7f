package manuscript

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/quire-ink/quire/codex"
)

// MaxParagraphBytes bounds one passage. A longer paragraph is cut at
// sentence ends, so that a search hit points at something a writer can
// read in one look rather than at a page of text.
const MaxParagraphBytes = 2000

// Paragraph is one block of prose in a unit.
type Paragraph struct {
	// Range covers the paragraph in Unit.Text, without the whitespace
	// around it.
	Range codex.Range `json:"range"`
	// Heading is the nearest heading above the paragraph, usually its
	// scene; empty before the first heading.
	Heading string `json:"heading,omitempty"`
	// Text is the prose of Range with any HTML comments left out. It is
	// prose: it never goes to logs.
	Text string `json:"-"`
}

// Paragraphs splits the body of u into its prose paragraphs, in order:
// blocks of text separated by blank lines. Front matter, headings, fenced
// code, HTML comments and scene breaks ("* * *") are not prose and never
// belong to a paragraph. Indentation does not make code here: writers who
// paste from a word processor indent every paragraph, and that is still
// their prose. Paragraphs longer than MaxParagraphBytes come back as
// several, cut at sentence ends.
func Paragraphs(u *Unit) []Paragraph {
	body := clampRangeTo(u.Body, len(u.Text))
	text := u.Text[body.Start:body.End]
	masked, comments := maskNonProse(text, body.Start, u.Headings)
	var out []Paragraph
	for _, block := range proseBlocks(masked) {
		for _, r := range splitLong(masked, block, MaxParagraphBytes) {
			prose := proseText(text, r, comments)
			if CountWords(prose) == 0 {
				continue
			}
			abs := codex.Range{Start: body.Start + r.Start, End: body.Start + r.End}
			out = append(out, Paragraph{Range: abs, Heading: headingBefore(u.Headings, abs.Start), Text: prose})
		}
	}
	return out
}

func clampRangeTo(r codex.Range, n int) codex.Range {
	r.Start = min(max(r.Start, 0), n)
	r.End = min(max(r.End, r.Start), n)
	return r
}

// maskNonProse returns text with every byte that is not prose (fenced
// code, HTML comments, heading lines) replaced by a space, line breaks
// kept, so that offsets stay those of text and what is left splits into
// paragraphs at blank lines. comments lists the HTML comments, which may
// sit inside a paragraph, in order. base is the offset of text in the
// unit, which heading ranges are given in.
func maskNonProse(text string, base int, headings []codex.Section) (string, []codex.Range) {
	buf := []byte(text)
	blank := func(from, to int) {
		from, to = toRuneStart(text, from), toRuneStart(text, to)
		for i := from; i < to; i++ {
			if buf[i] != '\n' {
				buf[i] = ' '
			}
		}
	}
	var comments []codex.Range
	// An inline comment that no "-->" closes is literal text; knowing
	// where the last closing mark is answers "is there one later" in
	// constant time, so a page of unclosed openers stays linear.
	lastClose := strings.LastIndex(text, "-->")
	var fence fenceMark
	inComment := false
	commentStart := 0
	for start := 0; start < len(text); {
		end := strings.IndexByte(text[start:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += start
		}
		line := text[start:end]
		switch {
		case fence.char != 0:
			blank(start, end)
			if fence.closedBy(line) {
				fence = fenceMark{}
			}
		case !inComment && openFence(line).char != 0:
			fence = openFence(line)
			blank(start, end)
		default:
			i := start
			for i < end {
				if !inComment {
					open := strings.Index(text[i:end], "<!--")
					if open < 0 {
						break
					}
					open += i
					atLineStart := strings.TrimLeft(text[start:open], " ") == "" && open-start <= 3
					if lastClose < open+4 && !atLineStart {
						// Never closed, so not a comment: literal text.
						break
					}
					inComment, commentStart, i = true, open, open+4
				}
				closeAt := strings.Index(text[i:end], "-->")
				if closeAt < 0 {
					// The comment runs on past this line; a block one
					// never closed runs to the end.
					i = end
					break
				}
				i += closeAt + 3
				comments = append(comments, codex.Range{Start: commentStart, End: i})
				blank(commentStart, i)
				inComment = false
			}
		}
		if end == len(text) {
			break
		}
		start = end + 1
	}
	if inComment {
		comments = append(comments, codex.Range{Start: commentStart, End: len(text)})
		blank(commentStart, len(text))
	}
	for _, h := range headings {
		r := clampRangeTo(codex.Range{Start: h.HeadingRange.Start - base, End: h.HeadingRange.End - base}, len(text))
		blank(r.Start, r.End)
	}
	return string(buf), comments
}

// runeStart moves i back to the start of the rune it falls in.
func toRuneStart(s string, i int) int {
	for i > 0 && i < len(s) && !utf8.RuneStart(s[i]) {
		i--
	}
	return i
}

// fenceMark is the opening of a fenced code block: its character and
// length. The zero value means no fence is open.
type fenceMark struct {
	char byte
	n    int
}

// openFence reads a line as the opening of a fenced code block, as
// CommonMark has it: at most three spaces, then three or more backticks
// or tildes (a backtick fence's info string holds no backtick).
func openFence(line string) fenceMark {
	i := leadingSpaces(line)
	if i > 3 || i >= len(line) || line[i] != '`' && line[i] != '~' {
		return fenceMark{}
	}
	c := line[i]
	j := i
	for j < len(line) && line[j] == c {
		j++
	}
	if j-i < 3 || c == '`' && strings.IndexByte(line[j:], '`') >= 0 {
		return fenceMark{}
	}
	return fenceMark{char: c, n: j - i}
}

// closedBy reports whether line closes the fence: the same character, at
// least as many, and nothing after them.
func (f fenceMark) closedBy(line string) bool {
	i := leadingSpaces(line)
	if i > 3 {
		return false
	}
	j := i
	for j < len(line) && line[j] == f.char {
		j++
	}
	return j-i >= f.n && strings.TrimSpace(line[j:]) == ""
}

func leadingSpaces(line string) int {
	i := 0
	for i < len(line) && line[i] == ' ' {
		i++
	}
	return i
}

// proseBlocks splits masked text at blank lines and scene breaks into
// blocks, each trimmed of surrounding whitespace.
func proseBlocks(masked string) []codex.Range {
	var blocks []codex.Range
	blockStart := -1
	lastEnd := 0
	flush := func() {
		if blockStart >= 0 {
			if r := trimRangeSpace(masked, codex.Range{Start: blockStart, End: lastEnd}); r.Len() > 0 {
				blocks = append(blocks, r)
			}
		}
		blockStart = -1
	}
	for start := 0; start <= len(masked); {
		end := strings.IndexByte(masked[start:], '\n')
		if end < 0 {
			end = len(masked)
		} else {
			end += start
		}
		line := masked[start:end]
		if strings.TrimSpace(line) == "" || isSceneBreak(line) {
			flush()
		} else {
			if blockStart < 0 {
				blockStart = start
			}
			lastEnd = end
		}
		if end == len(masked) {
			break
		}
		start = end + 1
	}
	flush()
	return blocks
}

// isSceneBreak reports a line of three or more "*", "-" or "_" marks
// (spaces between allowed): a thematic break, which writers use between
// scenes and which ends a paragraph even without a blank line.
func isSceneBreak(line string) bool {
	marks := 0
	var mark byte
	for i := 0; i < len(line); i++ {
		switch c := line[i]; c {
		case ' ', '\t', '\r':
		case '*', '-', '_':
			if mark != 0 && c != mark {
				return false
			}
			mark = c
			marks++
		default:
			return false
		}
	}
	return marks >= 3
}

// trimRangeSpace narrows r to leave out whitespace at either end.
func trimRangeSpace(s string, r codex.Range) codex.Range {
	for r.Start < r.End {
		c, size := utf8.DecodeRuneInString(s[r.Start:r.End])
		if !unicode.IsSpace(c) {
			break
		}
		r.Start += size
	}
	for r.End > r.Start {
		c, size := utf8.DecodeLastRuneInString(s[r.Start:r.End])
		if !unicode.IsSpace(c) {
			break
		}
		r.End -= size
	}
	return r
}

// splitLong cuts a block longer than limit into pieces of at most limit
// bytes: at the last sentence end that fits, else at the last space,
// else (one enormous word) at a character boundary.
func splitLong(s string, block codex.Range, limit int) []codex.Range {
	if block.Len() <= limit {
		return []codex.Range{block}
	}
	ends := sentenceEnds(s[block.Start:block.End])
	for i := range ends {
		ends[i] += block.Start
	}
	var out []codex.Range
	next := 0
	pos := block.Start
	for pos < block.End {
		pos = trimRangeSpace(s, codex.Range{Start: pos, End: block.End}).Start
		if pos >= block.End {
			break
		}
		if block.End-pos <= limit {
			out = append(out, trimRangeSpace(s, codex.Range{Start: pos, End: block.End}))
			break
		}
		last := pos + limit
		cut := -1
		for next < len(ends) && ends[next] <= last {
			if ends[next] > pos {
				cut = ends[next]
			}
			next++
		}
		if cut < 0 {
			cut = lastSpaceIn(s, pos, last)
		}
		if cut <= pos {
			cut = toRuneStart(s, last)
			if cut <= pos {
				_, size := utf8.DecodeRuneInString(s[pos:])
				cut = pos + size
			}
		}
		if r := trimRangeSpace(s, codex.Range{Start: pos, End: cut}); r.Len() > 0 {
			out = append(out, r)
		}
		pos = cut
	}
	return out
}

// lastSpaceIn finds the last ASCII whitespace in s(from, to], or -1.
func lastSpaceIn(s string, from, to int) int {
	for i := to; i > from; i-- {
		switch s[i] {
		case ' ', '\t', '\n', '\r':
			return i
		}
	}
	return -1
}

// sentenceEnds lists the offsets just past each sentence in s: after
// terminal punctuation and any closing quotes or brackets, where
// whitespace or the end of s follows. Abbreviations ("Mr.") count as
// ends too; for cutting long paragraphs that is close enough.
func sentenceEnds(s string) []int {
	var ends []int
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if !isSentenceFinal(r) {
			continue
		}
		j := i
		for j < len(s) {
			c, n := utf8.DecodeRuneInString(s[j:])
			if !isSentenceFinal(c) && !isSentenceCloser(c) {
				break
			}
			j += n
		}
		if j == len(s) {
			ends = append(ends, j)
			break
		}
		if c, _ := utf8.DecodeRuneInString(s[j:]); unicode.IsSpace(c) {
			ends = append(ends, j)
		}
		i = j
	}
	return ends
}

func isSentenceFinal(r rune) bool { return r == '.' || r == '!' || r == '?' || r == '…' }

// isSentenceCloser reports what may follow a sentence's final punctuation and
// still belong to it: closing quotes and brackets, emphasis marks.
func isSentenceCloser(r rune) bool {
	switch r {
	case '"', '\'', '”', '’', '»', ')', ']', '*', '_':
		return true
	}
	return false
}

// proseText is text[r] without the HTML comments inside it; where one is
// cut out, the whitespace around it shrinks to one space.
func proseText(text string, r codex.Range, comments []codex.Range) string {
	i := sort.Search(len(comments), func(i int) bool { return comments[i].End > r.Start })
	if i == len(comments) || comments[i].Start >= r.End {
		return text[r.Start:r.End]
	}
	var b strings.Builder
	b.Grow(r.Len())
	pos := r.Start
	for ; i < len(comments) && comments[i].Start < r.End; i++ {
		c := comments[i]
		b.WriteString(text[pos:max(pos, c.Start)])
		pos = max(pos, c.End)
		if trimmed := strings.TrimRightFunc(b.String(), unicode.IsSpace); len(trimmed) < b.Len() && pos < r.End {
			rest := text[pos:r.End]
			if t := strings.TrimLeftFunc(rest, unicode.IsSpace); len(t) < len(rest) {
				// Space on both sides: keep the one before.
				pos += len(rest) - len(t)
			}
		}
	}
	if pos < r.End {
		b.WriteString(text[pos:r.End])
	}
	return b.String()
}

// headingBefore is the text of the last heading that starts before off.
func headingBefore(headings []codex.Section, off int) string {
	i := sort.Search(len(headings), func(i int) bool { return headings[i].HeadingRange.Start > off })
	if i == 0 {
		return ""
	}
	return headings[i-1].Heading
}
