package codex

import (
	"bytes"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
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

// markdown is shared by every parse; goldmark parsers are safe for
// concurrent use once built.
var markdown = goldmark.New()

// outlineOf parses src[body] as Markdown. Every range it returns is an
// offset into src.
func outlineOf(src []byte, body Range) outline {
	var o outline
	part := src[body.Start:body.End]
	doc := markdown.Parser().Parse(text.NewReader(part))
	type open struct {
		level int
		index int
	}
	var stack []open
	closeUntil := func(level, at int) {
		for len(stack) > 0 && stack[len(stack)-1].level >= level {
			o.Sections[stack[len(stack)-1].index].Range.End = at
			stack = stack[:len(stack)-1]
		}
	}
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
			heading := plainText(part, n)
			closeUntil(n.Level, body.Start+hr.Start)
			o.Sections = append(o.Sections, Section{
				Heading:      heading,
				Level:        n.Level,
				HeadingRange: Range{body.Start + hr.Start, body.Start + hr.End},
				Range:        Range{body.Start + hr.Start, body.End},
			})
			stack = append(stack, open{n.Level, len(o.Sections) - 1})
			if n.Level == 1 && o.FirstHeading == "" {
				o.FirstHeading = heading
			}
			return ast.WalkSkipChildren, nil
		case *ast.Paragraph:
			if o.FirstParagraph == "" {
				o.FirstParagraph = plainText(part, n)
			}
		case *ast.FencedCodeBlock, *ast.CodeBlock, *ast.HTMLBlock:
			if r, ok := blockSpan(part, n); ok {
				o.Code = append(o.Code, Range{body.Start + r.Start, body.Start + r.End})
			}
			return ast.WalkSkipChildren, nil
		case *ast.CodeSpan:
			if r, ok := inlineSpan(n); ok {
				o.Code = append(o.Code, Range{body.Start + r.Start, body.Start + r.End})
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	closeUntil(0, body.End)
	return o
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
	lines := n.Lines()
	if lines.Len() == 0 {
		return Range{}, false
	}
	start := bytes.LastIndexByte(src[:lines.At(0).Start], '\n') + 1
	end := lines.At(lines.Len() - 1).Stop
	if _, fenced := n.(*ast.FencedCodeBlock); fenced {
		// Widen over the fence lines, so that links on them are literal too.
		if start > 0 {
			start = bytes.LastIndexByte(src[:start-1], '\n') + 1
		}
		if end < len(src) {
			if _, next := lineAt(src, end); next < len(src) {
				end, _ = lineAt(src, next)
			}
		}
	}
	return Range{start, end}, true
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
