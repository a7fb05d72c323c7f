package export

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
)

// blocks reads a chapter's structure. Of the inline parsers it keeps the
// code span alone: emphasis and links take time quadratic in a
// paragraph's length on hostile input, so each paragraph's inlines are
// read apart, in bounded pieces (readInline).
var blocks = parser.NewParser(
	parser.WithBlockParsers(parser.DefaultBlockParsers()...),
	parser.WithInlineParsers(util.Prioritized(parser.NewCodeSpanParser(), 100)),
)

// inlines is CommonMark with smart punctuation, writing the characters
// themselves (not HTML entities); << and >> stay as typed. -- and ---
// stay hyphens here, in nodes of their own, for the build's dash
// convention to make dashes of (resolveDashes).
var inlines = goldmark.New(goldmark.WithExtensions(extension.NewTypographer(
	extension.WithTypographicSubstitutions(map[extension.TypographicPunctuation][]byte{
		extension.LeftSingleQuote:  []byte("‘"),
		extension.RightSingleQuote: []byte("’"),
		extension.LeftDoubleQuote:  []byte("“"),
		extension.RightDoubleQuote: []byte("”"),
		extension.EnDash:           []byte("--"),
		extension.EmDash:           []byte("---"),
		extension.Ellipsis:         []byte("…"),
		extension.Apostrophe:       []byte("’"),
		extension.LeftAngleQuote:   nil,
		extension.RightAngleQuote:  nil,
	}),
))).Parser()

// maxInline bounds the text one inline parse reads; a longer paragraph
// is read in pieces split at a space, so the whole stays linear.
const maxInline = 4 << 10

// ReadOptions say how the text is read.
type ReadOptions struct {
	// Dashes is the convention -- and --- follow; empty is DashesEm.
	Dashes Dashes
}

// Read makes the units, in the order given, into a Book. Each unit is a
// chapter; ctx is checked between chapters.
func Read(ctx context.Context, units []*manuscript.Unit, o ReadOptions) (*Book, error) {
	b := &Book{Chapters: make([]Chapter, 0, len(units))}
	for _, u := range units {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("read %s: %w", u.Path, err)
		}
		ch := ReadChapter(u, o)
		b.Words += ch.Words
		b.Chapters = append(b.Chapters, ch)
	}
	return b, nil
}

// ReadChapter reads one unit: its title by the manuscript's rule, its
// body without front matter, HTML comments or link brackets.
func ReadChapter(u *manuscript.Unit, o ReadOptions) Chapter {
	if o.Dashes == "" {
		o.Dashes = DashesEm
	}
	ch := Chapter{Title: titleDashes(u.Title, o.Dashes), Path: u.Path}
	r := reader{dashes: o.Dashes}
	src := codex.FlattenNesting([]byte(Prose(u.BodyText())))
	doc := blocks.Parse(text.NewReader(src))
	r.src = src
	r.blocks(doc, 0, 0)
	ch.Blocks = r.out
	// A scene break that closes the chapter separates nothing.
	for len(ch.Blocks) > 0 && ch.Blocks[len(ch.Blocks)-1].Kind == SceneBreak {
		ch.Blocks = ch.Blocks[:len(ch.Blocks)-1]
	}
	for _, b := range ch.Blocks {
		ch.Words += manuscript.CountWords(b.Text())
	}
	return ch
}

// Prose is a chapter body as a reader reads it, still Markdown: HTML
// comments (the writer's notes) left out, and each [[Name|label]] made
// its label, or its name.
func Prose(body string) string {
	// Control characters go first: no format holds them (printable), and
	// dropped later they could join "<!-" and "-" into a comment opener
	// the writer never wrote as one.
	body = withoutComments(strings.Map(withoutControl, body))
	links := codex.LinksIn(body)
	if len(links) == 0 {
		return body
	}
	var sb strings.Builder
	sb.Grow(len(body))
	at := 0
	for _, l := range links {
		if l.Range.Start < at || l.Range.End > len(body) {
			continue
		}
		sb.WriteString(body[at:l.Range.Start])
		if l.Label != "" {
			sb.WriteString(l.Label)
		} else {
			sb.WriteString(l.Target)
		}
		at = l.Range.End
	}
	sb.WriteString(body[at:])
	return sb.String()
}

// withoutComments drops every <!-- … --> of s; a comment left open runs
// to the end, as it does in CommonMark.
func withoutComments(s string) string {
	i := strings.Index(s, "<!--")
	if i < 0 {
		return s
	}
	var sb strings.Builder
	sb.Grow(len(s))
	for i >= 0 {
		sb.WriteString(s[:i])
		end := strings.Index(s[i+4:], "-->")
		if end < 0 {
			return sb.String()
		}
		s = s[i+4+end+3:]
		i = strings.Index(s, "<!--")
	}
	sb.WriteString(s)
	return sb.String()
}

// reader gathers a chapter's blocks.
type reader struct {
	src    []byte
	dashes Dashes
	out    []Block
	// seen is set once any block was met, the title heading included.
	seen bool
	// marker is the pending marker of a list item's first paragraph.
	marker string
}

// blocks reads the children of n, inside quote block quotes and depth
// lists.
func (r *reader) blocks(n ast.Node, quote, depth int) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		first := !r.seen
		r.seen = true
		switch c := c.(type) {
		case *ast.Heading:
			// The chapter's own level-1 heading is its title, drawn
			// apart; every other heading starts a scene.
			if !(first && c.Level == 1) {
				r.sceneBreak()
			}
		case *ast.ThematicBreak:
			r.sceneBreak()
		case *ast.Paragraph, *ast.TextBlock:
			r.paragraph(r.lines(c, true), quote, depth)
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			r.literal(r.lines(c, false), quote, depth)
		case *ast.Blockquote:
			r.blocks(c, quote+1, depth)
		case *ast.List:
			n := c.Start
			for item := c.FirstChild(); item != nil; item = item.NextSibling() {
				r.marker = "•"
				if c.IsOrdered() {
					r.marker = strconv.Itoa(n) + "."
					n++
				}
				r.blocks(item, quote, depth+1)
				r.marker = ""
			}
		case *ast.HTMLBlock:
			// Raw HTML is markup, not prose.
		default:
			r.blocks(c, quote, depth)
		}
	}
}

// sceneBreak adds a break, never two in a row nor one before any prose.
func (r *reader) sceneBreak() {
	if len(r.out) == 0 || r.out[len(r.out)-1].Kind == SceneBreak {
		return
	}
	r.out = append(r.out, Block{Kind: SceneBreak})
}

// lines is the text of a block's lines; a paragraph's lines lose their
// indentation, which Markdown does not show.
func (r *reader) lines(n ast.Node, trim bool) []byte {
	var buf bytes.Buffer
	segs := n.Lines()
	for i := range segs.Len() {
		seg := segs.At(i)
		line := seg.Value(r.src)
		if trim {
			line = bytes.TrimLeft(line, " \t")
		}
		buf.Write(line)
	}
	return buf.Bytes()
}

// paragraph adds the block of the Markdown text md.
func (r *reader) paragraph(md []byte, quote, depth int) {
	var runs []Run
	for len(md) > 0 {
		piece := md
		if len(piece) > maxInline {
			cut := bytes.LastIndexAny(piece[:maxInline], " \n")
			if cut <= 0 {
				cut = maxInline
			}
			piece = md[:cut+1]
		}
		runs = readInline(runs, piece)
		md = md[len(piece):]
	}
	resolveDashes(runs, r.dashes)
	r.add(tidy(runs), quote, depth)
}

// add adds a block of runs at its place: in quote block quotes, depth
// lists.
func (r *reader) add(runs []Run, quote, depth int) {
	if len(runs) == 0 {
		return
	}
	b := Block{Kind: Paragraph, Runs: runs}
	switch {
	case depth > 0:
		b.Kind, b.Depth, b.Marker = Item, depth, r.marker
		r.marker = ""
	case quote > 0:
		b.Kind, b.Depth = Quote, quote
	}
	if b.Kind == Paragraph && (len(r.out) == 0 || r.out[len(r.out)-1].Kind == SceneBreak) {
		b.First = true
	}
	r.out = append(r.out, b)
}

// literal adds a code block: its text as written, line by line.
func (r *reader) literal(text []byte, quote, depth int) {
	lines := strings.Split(strings.TrimRight(string(text), "\n"), "\n")
	runs := make([]Run, 0, len(lines))
	for _, line := range lines {
		runs = append(runs, Run{Text: line, Break: true})
	}
	r.add(tidy(runs), quote, depth)
}

// readInline appends the runs of the Markdown text md.
func readInline(runs []Run, md []byte) []Run {
	doc := inlines.Parse(text.NewReader(md))
	var emph, strong int
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		add := func(s string) {
			if s != "" {
				runs = append(runs, Run{Text: s, Emph: emph > 0, Strong: strong > 0})
			}
		}
		switch n := n.(type) {
		case *ast.Emphasis:
			d := 1
			if !entering {
				d = -1
			}
			if n.Level >= 2 {
				strong += d
			} else {
				emph += d
			}
		case *ast.Text:
			if !entering {
				break
			}
			add(string(unescape(n.Segment.Value(md))))
			switch {
			case n.HardLineBreak():
				runs = append(runs, Run{Break: true})
			case n.SoftLineBreak():
				add(" ")
			}
		case *ast.String:
			if entering {
				if v := string(n.Value); n.IsCode() && (v == "--" || v == "---") {
					// The typographer's -- or ---, for the convention.
					runs = append(runs, Run{Text: v, Emph: emph > 0, Strong: strong > 0, dash: int8(len(v))})
				} else if n.IsCode() {
					add(string(n.Value))
				} else {
					add(string(unescape(n.Value)))
				}
			}
		case *ast.CodeSpan:
			if entering {
				var sb strings.Builder
				for c := n.FirstChild(); c != nil; c = c.NextSibling() {
					if t, ok := c.(*ast.Text); ok {
						sb.Write(t.Segment.Value(md))
					}
				}
				add(sb.String())
			}
			return ast.WalkSkipChildren, nil
		case *ast.AutoLink:
			if entering {
				add(string(n.Label(md)))
			}
			return ast.WalkSkipChildren, nil
		case *ast.RawHTML, *ast.Image, *ast.HTMLBlock:
			return ast.WalkSkipChildren, nil
		case *ast.Paragraph, *ast.Heading, *ast.TextBlock:
			// A piece of a long paragraph may read as several blocks.
			if !entering && n.NextSibling() != nil {
				add(" ")
			}
		}
		return ast.WalkContinue, nil
	})
	return runs
}

// unescape resolves backslash escapes and character references, as
// goldmark's HTML writer does when it writes text.
func unescape(b []byte) []byte {
	if bytes.IndexByte(b, '\\') < 0 && bytes.IndexByte(b, '&') < 0 {
		return b
	}
	return util.ResolveEntityNames(util.ResolveNumericReferences(util.UnescapePunctuations(b)))
}

// tidy joins neighbouring runs of one style, drops the spaces at a
// paragraph's ends and folds line ends and runs of spaces into one
// space. Text is gathered in a builder: goldmark splits text at every
// markup character, and joining strings one by one would be quadratic.
func tidy(runs []Run) []Run {
	var out []Run
	var sb strings.Builder
	var cur Run
	open := false
	flush := func() {
		if open {
			cur.Text = sb.String()
			out = append(out, cur)
			sb.Reset()
			open = false
		}
	}
	space := false // the text so far ends in a space
	for _, r := range runs {
		if !open || cur.Emph != r.Emph || cur.Strong != r.Strong {
			flush()
			cur, open = Run{Emph: r.Emph, Strong: r.Strong}, true
		}
		for _, c := range r.Text {
			if c = printable(c); c < 0 {
				continue
			}
			if c == ' ' {
				if space {
					continue
				}
				space = true
			} else {
				space = false
			}
			sb.WriteRune(c)
		}
		if r.Break {
			cur.Break = true
			flush()
			space = false
		}
	}
	flush()
	for len(out) > 0 {
		first := &out[0]
		first.Text = strings.TrimLeft(first.Text, " ")
		if first.Text != "" || first.Break {
			break
		}
		out = out[1:]
	}
	for len(out) > 0 {
		last := &out[len(out)-1]
		last.Break = false
		last.Text = strings.TrimRight(last.Text, " ")
		if last.Text != "" {
			break
		}
		out = out[:len(out)-1]
	}
	return out
}

// printable folds line ends and tabs into spaces and drops the other
// control characters, which no file format quire writes may hold.
func printable(r rune) rune {
	if r == '\n' || r == '\t' || r == '\r' {
		return ' '
	}
	return withoutControl(r)
}

// withoutControl drops the control characters but line ends and tabs,
// which Markdown reads.
func withoutControl(r rune) rune {
	if r < 0x20 && r != '\n' && r != '\t' && r != '\r' || r == 0x7f || r == 0xfffe || r == 0xffff {
		return -1
	}
	return r
}
