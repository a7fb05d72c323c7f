package server

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/manuscript/continuity"
)

// Bounds of a hover card.
const (
	hoverExcerptBytes = 600
	hoverChapters     = 8
)

func (s *Server) hover(ctx context.Context, p protocol.HoverParams) (*protocol.Hover, error) {
	t, ok, err := s.resolveTarget(ctx, p.TextDocumentPositionParams)
	if err != nil || !ok {
		return nil, err
	}
	e, r, ok := t.canonAt()
	if !ok {
		return nil, nil
	}
	rng := t.lines.rangeOf(r.Start, r.End)
	card := hoverCard(t, e)
	// In a chapter the card shows the entry as of that chapter (its
	// progressions so far); in a codex file, the book's or its series',
	// the entry as written.
	if u, ok := chapterUnit(t.snap, t.rel, t.text, 0); ok && t.series == nil {
		card = asOfCard(t, t.proj.timelineFor(t.snap), e, u)
	}
	return &protocol.Hover{
		Contents: protocol.MarkupContent{Kind: protocol.Markdown, Value: card},
		Range:    &rng,
	}, nil
}

// hoverCard renders an entry as the writer sees it on hover: what it is,
// what the codex says, where the book mentions it, and where it lives.
func hoverCard(t *target, e *codex.Entry) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** · %s", markdownEscape(e.Name), e.Type)
	if e.Status == codex.StatusTentative {
		b.WriteString(" · tentative")
	}
	b.WriteString("\n\n")
	if len(e.Aliases) > 0 {
		aliases := make([]string, len(e.Aliases))
		for i, a := range e.Aliases {
			aliases[i] = markdownEscape(a)
		}
		fmt.Fprintf(&b, "*Also:* %s\n\n", strings.Join(aliases, ", "))
	}
	if e.Summary != "" {
		fmt.Fprintf(&b, "%s\n\n", renderLinks(t, e.Summary))
	}
	src := t.proj.canon().Source(e)
	body := e.BodyText()
	if src != nil && src.Of("body") == codex.OriginSeries {
		body = src.Series.BodyText()
	}
	if excerpt := codex.LeadExcerpt(withoutTitle(body), hoverExcerptBytes); excerpt != "" && (e.Summary == "" || !strings.Contains(excerpt, e.Summary)) {
		fmt.Fprintf(&b, "%s\n\n", quoteBlock(renderExcerpt(t, excerpt)))
	}
	if !t.indexed() {
		b.WriteString("*Counting the chapters that mention it…*\n\n")
	} else if line := appearanceLine(t.snap.Mentions().Appearances(e.ID)); line != "" {
		fmt.Fprintf(&b, "%s\n\n", line)
	}
	if src != nil {
		fmt.Fprintf(&b, "%s\n\n", seriesLine(src, t.proj.names))
	}
	label := e.ID
	if src != nil && src.Book == nil {
		label = src.Path
	}
	fmt.Fprintf(&b, "[%s](%s)", markdownEscape(label), t.proj.names.uri(t.proj.entryFile(e)))
	return b.String()
}

// seriesLine says where an entry of a book in a series comes from: the
// series canon, or this book's entry over it, naming what the series
// still fills in, with a link to the series file.
func seriesLine(src *codex.SeriesSource, names *uriNames) string {
	link := fmt.Sprintf("[%s](%s)", markdownEscape(filepath.Base(src.Root)+"/"+src.Path), names.uri(src.File()))
	if src.Book == nil {
		return "*Series canon:* " + link
	}
	line := "*This book's entry over the series canon* " + link
	if fields := src.SeriesFields(); len(fields) > 0 {
		line += "; from the series: " + markdownEscape(strings.Join(fields, ", "))
	}
	return line
}

// appearanceLine lists the chapters that mention an entry, in reading
// order, with counts.
func appearanceLine(apps []manuscript.Appearance) string {
	if len(apps) == 0 {
		return "*Not mentioned in the manuscript yet.*"
	}
	parts := make([]string, 0, min(len(apps), hoverChapters))
	for i, a := range apps {
		if i == hoverChapters {
			break
		}
		label := markdownEscape(a.Title)
		if a.Number > 0 {
			label = fmt.Sprintf("%d. %s", a.Number, label)
		}
		parts = append(parts, fmt.Sprintf("%s (%d)", label, a.Count))
	}
	line := "*Appears in:* " + strings.Join(parts, ", ")
	if more := len(apps) - hoverChapters; more > 0 {
		line += fmt.Sprintf(" and %d more", more)
	}
	return line
}

// withoutTitle drops a leading "# Title" line: the card names the entry
// already, and a title inside it is as large as the editor's headings.
func withoutTitle(body string) string {
	body = strings.TrimLeft(body, " \t\r\n")
	if strings.HasPrefix(body, "# ") {
		_, rest, _ := strings.Cut(body, "\n")
		return rest
	}
	return body
}

// renderExcerpt makes an entry's Markdown fit a hover card: headings
// become bold lines, not headings as large as the editor's own, and
// [[links]] become readable links.
func renderExcerpt(t *target, text string) string {
	// The links first, over the whole excerpt, so that a code block or
	// span keeps the brackets inside it literal.
	lines := strings.Split(renderLinks(t, text), "\n")
	for i, l := range lines {
		if h := strings.TrimLeft(l, "#"); len(h) < len(l) && len(l)-len(h) <= 6 && (h == "" || h[0] == ' ' || h[0] == '\t') {
			if h = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(h), "#")); h != "" {
				lines[i] = "**" + h + "**"
			}
		}
	}
	return strings.Join(lines, "\n")
}

// renderLinks writes each link of text (codex.LinksIn: [[Target]],
// [[Target|label]], [[Target#Section]]) as the text the writer would
// read: a Markdown link to the entry's file when the target exists, the
// plain text when it does not. A link cut off by the excerpt is not a
// link, and is left alone.
func renderLinks(t *target, text string) string {
	links := codex.LinksIn(text)
	if len(links) == 0 {
		return text
	}
	var b strings.Builder
	prev := 0
	for _, l := range links {
		b.WriteString(text[prev:l.Range.Start])
		prev = l.Range.End
		name, section := l.LinkName(), l.LinkSection()
		label := l.Label
		if label == "" {
			label = name
			if section != "" {
				label += " › " + section
			}
		}
		if e, ok := t.cat.Resolve(name); ok {
			// The entry's file: the series' for series canon, whose
			// ID is its absolute path.
			fmt.Fprintf(&b, "[%s](%s)", markdownEscape(label), t.proj.names.uri(t.proj.entryFile(e)))
		} else {
			b.WriteString(markdownEscape(label))
		}
	}
	b.WriteString(text[prev:])
	return b.String()
}

func quoteBlock(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for i, l := range lines {
		lines[i] = "> " + l
	}
	return strings.Join(lines, "\n")
}

// markdownEscape keeps names with Markdown characters literal.
func markdownEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("\\`*_{}[]<>()#+!|", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// asOfCard is the hover card of e as of the chapter u: the fields its
// progressions replace so far, a line saying which apply, the status and
// the notes they add.
func asOfCard(t *target, tl *continuity.Timeline, e *codex.Entry, u *manuscript.Unit) string {
	ch := tl.ChapterOf(u)
	a := tl.AsOf(e, ch)
	card := hoverCard(t, a.Entry)
	line := tl.AsOfLine(e, ch)
	if line == "" {
		return card
	}
	var b strings.Builder
	fmt.Fprintf(&b, "*%s*\n\n", markdownEscape(line))
	if a.Dead() {
		fmt.Fprintf(&b, "*Status:* %s\n\n", markdownEscape(a.Status))
	}
	// The fields the progressions so far replace, at their values now.
	var shown []string
	for _, p := range a.Applied {
		for _, f := range p.Changes {
			if v := a.Field(f.Key); v != "" && !slices.Contains(shown, f.Key) {
				shown = append(shown, f.Key)
				fmt.Fprintf(&b, "*%s:* %s\n\n", markdownEscape(f.Key), markdownEscape(v))
			}
		}
	}
	for _, n := range a.Notes {
		fmt.Fprintf(&b, "- %s\n", renderLinks(t, n))
	}
	if len(a.Notes) > 0 {
		b.WriteString("\n")
	}
	head, rest, _ := strings.Cut(card, "\n\n")
	return head + "\n\n" + b.String() + rest
}
