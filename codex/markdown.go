package codex

import (
	"bytes"
	"regexp"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// outline is what the Markdown body tells about an entry.
type outline struct {
	Sections []Section
	// FirstHeading is the text of the first level-1 heading.
	FirstHeading string
	// FirstParagraph is the plain text of the first paragraph.
	FirstParagraph string
	// Code covers code spans and blocks, where [[links]] are literal text.
	Code []Range
}

// blocks reads the structure of a whole body: headings, paragraphs, code.
// Of the inline parsers it keeps only those that decide what is code
// (code spans, and the autolinks and raw HTML that bind as tightly): the
// others, links and emphasis above all, take time quadratic in the length
// of a paragraph on hostile input, and their work is needed only for the
// few snippets read as text, which inline parses on its own. The link
// reference definition transformer is left out for the same reason (it
// is quadratic in the number of definitions in a row); a paragraph of
// definitions is skipped when choosing the first paragraph instead.
var blocks = parser.NewParser(
	parser.WithBlockParsers(parser.DefaultBlockParsers()...),
	parser.WithInlineParsers(
		util.Prioritized(parser.NewCodeSpanParser(), 100),
		util.Prioritized(parser.NewAutoLinkParser(), 400),
		util.Prioritized(parser.NewRawHTMLParser(), 500),
	),
)

// inline is the full CommonMark parser, for heading and paragraph text.
// Parsers are safe for concurrent use once built.
var inline = goldmark.New().Parser()

const (
	// maxInline bounds the text of one heading or paragraph handed to the
	// full parser; a summary keeps only the first few hundred bytes.
	maxInline = 4 << 10
	// maxNesting bounds how many blockquotes and list items one line may
	// open. Deeper nesting costs the parser time quadratic in the depth
	// and no prose needs it.
	maxNesting = 32
)

// outlineOf parses src[body] as Markdown. Every range it returns is an
// offset into src. The first paragraph's text is read only when
// firstParagraph is set: only an entry without a summary of its own
// needs it, and reading it takes the full inline parser (a quarter of a
// cold start's parsing of the codex, BenchmarkParseEntries). A body of
// plain paragraphs and headings alone is outlined without goldmark
// (plainOutline), to the same result.
func outlineOf(src []byte, body Range, firstParagraph bool) outline {
	if o, ok := plainOutline(src, body, firstParagraph); ok {
		return o
	}
	return markdownOutline(src, body, firstParagraph)
}

// markdownOutline is outlineOf by goldmark's parse of the body.
func markdownOutline(src []byte, body Range, firstParagraph bool) outline {
	part := flattenNesting(src[body.Start:body.End])
	doc := blocks.Parse(text.NewReader(part))
	b := outlineBuilder{body: body}
	var defs []byte // gathered once, when a first paragraph needs them
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Heading:
			hr, ok := headingLines(part, n)
			if !ok {
				return ast.WalkSkipChildren, nil
			}
			b.heading(n.Level, hr, inlineText(part, n, nil))
			// Walk on into the heading: a code span there hides links too.
			return ast.WalkContinue, nil
		case *ast.Paragraph:
			if firstParagraph && b.o.FirstParagraph == "" && !isLinkDefinition(part, n) {
				if defs == nil {
					defs = linkDefinitions(part)
				}
				b.o.FirstParagraph = inlineText(part, n, defs)
			}
		case *ast.FencedCodeBlock, *ast.CodeBlock, *ast.HTMLBlock:
			if r, ok := blockSpan(part, n); ok {
				b.o.Code = append(b.o.Code, Range{body.Start + r.Start, body.Start + r.End})
			}
			return ast.WalkSkipChildren, nil
		case *ast.CodeSpan:
			if r, ok := inlineSpan(n); ok {
				b.o.Code = append(b.o.Code, Range{body.Start + r.Start, body.Start + r.End})
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return b.finish()
}

// outlineBuilder gathers an outline's sections from its headings in
// order: each section runs to the next heading of its level or above.
type outlineBuilder struct {
	o    outline
	body Range
	// stack are the sections still open, by level.
	stack []openSection
}

type openSection struct {
	level int
	index int
}

// heading opens a section at the heading whose lines are hr (offsets
// into the body).
func (b *outlineBuilder) heading(level int, hr Range, heading string) {
	b.closeUntil(level, b.body.Start+hr.Start)
	b.o.Sections = append(b.o.Sections, Section{
		Heading:      heading,
		Level:        level,
		HeadingRange: Range{b.body.Start + hr.Start, b.body.Start + hr.End},
		Range:        Range{b.body.Start + hr.Start, b.body.End},
	})
	b.stack = append(b.stack, openSection{level, len(b.o.Sections) - 1})
	if level == 1 && b.o.FirstHeading == "" {
		b.o.FirstHeading = heading
	}
}

func (b *outlineBuilder) closeUntil(level, at int) {
	for len(b.stack) > 0 && b.stack[len(b.stack)-1].level >= level {
		b.o.Sections[b.stack[len(b.stack)-1].index].Range.End = at
		b.stack = b.stack[:len(b.stack)-1]
	}
}

func (b *outlineBuilder) finish() outline {
	b.closeUntil(0, b.body.End)
	return b.o
}

// headingLines finds the source lines of a heading: the "#" line, or for
// a setext heading its text and underline.
func headingLines(src []byte, h *ast.Heading) (Range, bool) {
	lines := h.Lines()
	if lines.Len() == 0 {
		// An empty "##" has no text to name a section by.
		return Range{}, false
	}
	first := lines.At(0)
	start := bytes.LastIndexByte(src[:first.Start], '\n') + 1
	last := lines.At(lines.Len() - 1)
	end, next := lineAt(src, last.Start)
	if end < last.Stop {
		end = last.Stop
	}
	if isSetext(src, start, first.Start) && next < len(src) {
		end, _ = lineAt(src, next)
	}
	return Range{start, end}, true
}

// isSetext reports whether the heading text starts without a leading "#".
func isSetext(src []byte, lineStart, textStart int) bool {
	return !bytes.Contains(src[lineStart:textStart], []byte("#"))
}

func blockSpan(src []byte, n ast.Node) (Range, bool) {
	if f, fenced := n.(*ast.FencedCodeBlock); fenced {
		return fenceSpan(src, f)
	}
	lines := n.Lines()
	if lines.Len() == 0 {
		return Range{}, false
	}
	start := bytes.LastIndexByte(src[:lines.At(0).Start], '\n') + 1
	end := lines.At(lines.Len() - 1).Stop
	// goldmark keeps an HTML block's closing line ("-->") apart from its
	// lines; it is markup as much as they are.
	if h, ok := n.(*ast.HTMLBlock); ok && h.HasClosure() {
		end = max(end, h.ClosureLine.Stop)
	}
	return Range{start, end}, true
}

// fenceSpan covers a fenced block from its opening fence to its closing
// one, so that links in the info string or on the fences stay literal.
// goldmark records only the content lines, and the line after them is a
// closing fence only when the block was closed: an unclosed block ends
// with its container, and what follows is prose again.
func fenceSpan(src []byte, f *ast.FencedCodeBlock) (Range, bool) {
	lines := f.Lines()
	var start, end int
	switch {
	case f.Info != nil:
		start = bytes.LastIndexByte(src[:f.Info.Segment.Start], '\n') + 1
		_, end = lineAt(src, f.Info.Segment.Start)
	case lines.Len() > 0:
		start = bytes.LastIndexByte(src[:lines.At(0).Start], '\n') + 1
		if start > 0 {
			start = bytes.LastIndexByte(src[:start-1], '\n') + 1
		}
		_, end = lineAt(src, start)
	default:
		// No info string and no content: nothing on the fences to hide.
		return Range{}, false
	}
	if lines.Len() > 0 {
		end = max(end, lines.At(lines.Len()-1).Stop)
	}
	if end < len(src) {
		if lineEnd, _ := lineAt(src, end); isFenceLine(src[end:lineEnd]) {
			end = lineEnd
		}
	}
	return Range{start, end}, true
}

// isFenceLine reports whether a line, after any blockquote markers and
// indentation, is a run of backticks or tildes.
func isFenceLine(line []byte) bool {
	line = bytes.TrimLeft(line, " \t>")
	return bytes.HasPrefix(line, []byte("```")) || bytes.HasPrefix(line, []byte("~~~"))
}

func inlineSpan(n ast.Node) (Range, bool) {
	start, end := -1, -1
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if t, ok := c.(*ast.Text); ok {
			if start < 0 {
				start = t.Segment.Start
			}
			end = t.Segment.Stop
		}
	}
	if start < 0 {
		return Range{}, false
	}
	// Widen over the backticks.
	return Range{start - 1, end + 1}, true
}

// inlineText is the plain text of a heading's or paragraph's inline
// content: its lines joined, parsed alone by the full parser as the text
// of a heading (so that no line of it can start a list or a quote), and
// flattened. defs are link reference definitions to resolve
// "[text][label]" links against. Text with no inline markup skips the
// parse.
func inlineText(src []byte, n ast.Node, defs []byte) string {
	segs := n.Lines()
	var short [8][]byte // most headings and paragraphs: no allocation
	lines := short[:0]
	for i := range segs.Len() {
		seg := segs.At(i)
		lines = append(lines, seg.Value(src))
	}
	return textOfLines(lines, defs)
}

// textOfLines is inlineText of the lines of a heading or paragraph.
func textOfLines(lines [][]byte, defs []byte) string {
	var b []byte
	for i := 0; i < len(lines) && len(b) < maxInline; i++ {
		line := bytes.TrimRight(lines[i], "\r\n")
		if i < len(lines)-1 {
			// A trailing backslash is a hard line break, not text.
			line = bytes.TrimSuffix(line, []byte("\\"))
		}
		if i > 0 {
			b = append(b, ' ')
		}
		b = append(b, line...)
	}
	if len(b) > maxInline {
		b = b[:maxInline]
	}
	if !bytes.ContainsAny(b, "*_[]!<`\\") {
		return collapseSpace(strings.ToValidUTF8(string(b), "\uFFFD"))
	}
	snippet := make([]byte, 0, 2+len(b)+2+len(defs))
	snippet = append(snippet, "# "...)
	for _, c := range b {
		if c == '\n' || c == '\r' {
			c = ' '
		}
		snippet = append(snippet, c)
	}
	if len(defs) > 0 && bytes.IndexByte(b, '[') >= 0 {
		snippet = append(append(snippet, "\n\n"...), defs...)
	}
	doc := inline.Parse(text.NewReader(snippet))
	if h, ok := doc.FirstChild().(*ast.Heading); ok {
		return plainText(snippet, h)
	}
	return collapseSpace(strings.ToValidUTF8(string(b), "\uFFFD"))
}

// maxLinkDefinitions bounds the definitions gathered for a summary.
const maxLinkDefinitions = 64

// linkDefinitions collects the one-line link reference definitions of a
// body, so that reference links in the first paragraph read as text.
func linkDefinitions(src []byte) []byte {
	defs := []byte{} // not nil: gathered, even if there are none
	count := 0
	for start := 0; start < len(src) && count < maxLinkDefinitions; {
		end, next := lineAt(src, start)
		if line := src[start:end]; linkDefinitionRe.Match(line) && len(line) <= maxInline {
			defs = append(append(defs, line...), '\n')
			count++
		}
		if next == start {
			break
		}
		start = next
	}
	return defs
}

// linkDefinitionRe matches the start of a link reference definition,
// "[label]: destination".
var linkDefinitionRe = regexp.MustCompile(`^ {0,3}\[[^\]]+\]:`)

// isLinkDefinition reports whether a paragraph opens with a link reference
// definition: markup, not prose to summarize.
func isLinkDefinition(src []byte, n ast.Node) bool {
	lines := n.Lines()
	if lines.Len() == 0 {
		return false
	}
	seg := lines.At(0)
	return linkDefinitionRe.Match(seg.Value(src))
}

// plainText flattens a node's inline content to text, soft line breaks
// as spaces.
func plainText(src []byte, n ast.Node) string {
	var b strings.Builder
	var walk func(ast.Node)
	walk = func(n ast.Node) {
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			switch c := c.(type) {
			case *ast.Text:
				b.Write(c.Segment.Value(src))
				if c.SoftLineBreak() || c.HardLineBreak() {
					b.WriteByte(' ')
				}
			case *ast.String:
				b.Write(c.Value)
			case *ast.RawHTML:
				// Inline HTML is markup, not text.
			default:
				walk(c)
			}
		}
	}
	walk(n)
	return collapseSpace(strings.ToValidUTF8(b.String(), "\uFFFD"))
}

func collapseSpace(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// flattenNesting returns src, or when a line opens more than maxNesting
// blockquotes and list items a copy with the markers past that depth
// turned to spaces. The copy has the same length, so offsets into it are
// offsets into src.
func flattenNesting(src []byte) []byte {
	out, copied := src, false
	for start := 0; start < len(src); {
		end := bytes.IndexByte(src[start:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += start
		}
		depth := 0
		for i := start; i < end; {
			c := src[i]
			if c == ' ' || c == '\t' {
				i++
				continue
			}
			n := containerMarker(src[i:end])
			if n == 0 {
				break
			}
			if depth++; depth > maxNesting {
				if !copied {
					out, copied = bytes.Clone(src), true
				}
				for k := i; k < i+n; k++ {
					out[k] = ' '
				}
			}
			i += n
		}
		start = end + 1
	}
	return out
}

// containerMarker is the length of a blockquote marker or list item
// marker at the start of line, or 0.
func containerMarker(line []byte) int {
	if len(line) == 0 {
		return 0
	}
	switch c := line[0]; {
	case c == '>':
		return 1
	case c == '-' || c == '+' || c == '*':
		if len(line) == 1 || line[1] == ' ' || line[1] == '\t' {
			return 1
		}
		return 0
	case '0' <= c && c <= '9':
		i := 0
		for i < len(line) && i < 9 && '0' <= line[i] && line[i] <= '9' {
			i++
		}
		if i < len(line) && (line[i] == '.' || line[i] == ')') && (i+1 == len(line) || line[i+1] == ' ' || line[i+1] == '\t') {
			return i + 1
		}
	}
	return 0
}

// FlattenNesting is src with the blockquote and list markers past the
// depth quire reads turned to spaces (same length, same offsets), for
// other readers of prose that hand it to goldmark: deeper nesting costs
// the parser time quadratic in the depth.
func FlattenNesting(src []byte) []byte { return flattenNesting(src) }
