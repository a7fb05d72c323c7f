// Package card renders a codex entry as the hover card a writer reads:
// what the entry is, what the codex says of it, where the book mentions
// it, where it comes from in a series, and, in a chapter, what holds of
// it as of that chapter. It writes Markdown only; where the card's links
// point is the caller's (the server writes URIs as its client does).
package card

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/manuscript/continuity"
)

// Bounds of a card.
const (
	// ExcerptBytes bound the lead excerpt of an entry's body.
	ExcerptBytes = 600
	// Chapters is how many chapters the "Appears in" line names.
	Chapters = 8
)

// Canon is what a card reads of the book it is drawn in: its entries, their
// series sources and mentions, and where links point.
type Canon struct {
	// Catalog resolves the names of [[links]].
	Catalog *codex.Catalog
	// Source says where a merged entry comes from in a series (nil for
	// an entry of a book in no series).
	Source func(e *codex.Entry) *codex.SeriesSource
	// Mentions are the manuscript's mentions; nil while they are still
	// being counted, which the card says.
	Mentions *manuscript.MentionIndex
	// EntryLink is the link target of an entry's file, and FileLink of
	// any file (a series entry's).
	EntryLink func(e *codex.Entry) string
	FileLink  func(path string) string
}

// Render is the card of e as written: the book's entry, or the series'.
func Render(b Canon, e *codex.Entry) string {
	var w strings.Builder
	fmt.Fprintf(&w, "**%s** · %s", Escape(e.Name), e.Type)
	if e.Status == codex.StatusTentative {
		w.WriteString(" · tentative")
	}
	w.WriteString("\n\n")
	if len(e.Aliases) > 0 {
		aliases := make([]string, len(e.Aliases))
		for i, a := range e.Aliases {
			aliases[i] = Escape(a)
		}
		fmt.Fprintf(&w, "*Also:* %s\n\n", strings.Join(aliases, ", "))
	}
	if e.Summary != "" {
		fmt.Fprintf(&w, "%s\n\n", b.links(e.Summary))
	}
	var src *codex.SeriesSource
	if b.Source != nil {
		src = b.Source(e)
	}
	body := e.BodyText()
	if src != nil && src.Of("body") == codex.OriginSeries {
		body = src.Series.BodyText()
	}
	if excerpt := codex.LeadExcerpt(withoutTitle(body), ExcerptBytes); excerpt != "" && (e.Summary == "" || !strings.Contains(excerpt, e.Summary) && !codex.SummaryOpens(e.Summary, excerpt)) {
		fmt.Fprintf(&w, "%s\n\n", quoteBlock(b.excerpt(excerpt)))
	}
	if b.Mentions == nil {
		w.WriteString("*Counting the chapters that mention it…*\n\n")
	} else if line := appearanceLine(b.Mentions.Appearances(e.ID)); line != "" {
		fmt.Fprintf(&w, "%s\n\n", line)
	}
	if src != nil {
		fmt.Fprintf(&w, "%s\n\n", b.seriesLine(src))
	}
	label := e.ID
	if src != nil && src.Book == nil {
		label = src.Path
	}
	fmt.Fprintf(&w, "[%s](%s)", Escape(label), b.EntryLink(e))
	return w.String()
}

// RenderAsOf is the card of e as of the scene of chapter u that holds
// the byte offset off (as of the chapter, where no scene note gives its
// own story time): the fields its progressions replace so far, a line
// saying which apply, the status and the notes they add, over the card
// of the entry as of then.
func RenderAsOf(b Canon, tl *continuity.Timeline, e *codex.Entry, u *manuscript.Unit, off int) string {
	ch := tl.SceneOf(u, off)
	a := tl.AsOf(e, ch)
	card := Render(b, a.Entry)
	line := tl.AsOfLine(e, ch)
	if line == "" {
		return card
	}
	var w strings.Builder
	fmt.Fprintf(&w, "*%s*\n\n", Escape(line))
	if a.Dead() {
		fmt.Fprintf(&w, "*Status:* %s\n\n", Escape(a.Status))
	}
	// The fields the progressions so far replace, at their values now.
	var shown []string
	for _, p := range a.Applied {
		for _, f := range p.Changes {
			if v := a.Field(f.Key); v != "" && !slices.Contains(shown, f.Key) {
				shown = append(shown, f.Key)
				fmt.Fprintf(&w, "*%s:* %s\n\n", Escape(f.Key), Escape(v))
			}
		}
	}
	for _, n := range a.Notes {
		fmt.Fprintf(&w, "- %s\n", b.links(n))
	}
	if len(a.Notes) > 0 {
		w.WriteString("\n")
	}
	head, rest, _ := strings.Cut(card, "\n\n")
	return head + "\n\n" + w.String() + rest
}

// seriesLine says where an entry of a book in a series comes from: the
// series canon, or this book's entry over it, naming what the series
// still fills in, with a link to the series file.
func (b Canon) seriesLine(src *codex.SeriesSource) string {
	link := fmt.Sprintf("[%s](%s)", Escape(filepath.Base(src.Root)+"/"+src.Path), b.FileLink(src.File()))
	if src.Book == nil {
		return "*Series canon:* " + link
	}
	line := "*This book's entry over the series canon* " + link
	if fields := src.SeriesFields(); len(fields) > 0 {
		line += "; from the series: " + Escape(strings.Join(fields, ", "))
	}
	return line
}

// appearanceLine lists the chapters that mention an entry, in reading
// order, with counts.
func appearanceLine(apps []manuscript.Appearance) string {
	if len(apps) == 0 {
		return "*Not mentioned in the manuscript yet.*"
	}
	parts := make([]string, 0, min(len(apps), Chapters))
	for i, a := range apps {
		if i == Chapters {
			break
		}
		label := Escape(a.Title)
		if a.Number > 0 {
			label = fmt.Sprintf("%d. %s", a.Number, label)
		}
		parts = append(parts, fmt.Sprintf("%s (%d)", label, a.Count))
	}
	line := "*Appears in:* " + strings.Join(parts, ", ")
	if more := len(apps) - Chapters; more > 0 {
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

// excerpt makes an entry's Markdown fit a card: headings become bold
// lines, not headings as large as the editor's own, and [[links]] become
// readable links.
func (b Canon) excerpt(text string) string {
	// The links first, over the whole excerpt, so that a code block or
	// span keeps the brackets inside it literal.
	lines := strings.Split(b.links(text), "\n")
	for i, l := range lines {
		if h := strings.TrimLeft(l, "#"); len(h) < len(l) && len(l)-len(h) <= 6 && (h == "" || h[0] == ' ' || h[0] == '\t') {
			if h = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(h), "#")); h != "" {
				lines[i] = "**" + h + "**"
			}
		}
	}
	return strings.Join(lines, "\n")
}

// links writes each link of text (codex.LinksIn: [[Target]],
// [[Target|label]], [[Target#Section]]) as the text the writer would
// read: a Markdown link to the entry's file when the target exists, the
// plain text when it does not. A link cut off by the excerpt is not a
// link, and is left alone.
func (b Canon) links(text string) string {
	links := codex.LinksIn(text)
	if len(links) == 0 {
		return text
	}
	var w strings.Builder
	prev := 0
	for _, l := range links {
		w.WriteString(text[prev:l.Range.Start])
		prev = l.Range.End
		name, section := l.LinkName(), l.LinkSection()
		label := l.Label
		if label == "" {
			label = name
			if section != "" {
				label += " › " + section
			}
		}
		if e, ok := b.Catalog.Resolve(name); ok {
			fmt.Fprintf(&w, "[%s](%s)", Escape(label), b.EntryLink(e))
		} else {
			w.WriteString(Escape(label))
		}
	}
	w.WriteString(text[prev:])
	return w.String()
}

func quoteBlock(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for i, l := range lines {
		lines[i] = "> " + l
	}
	return strings.Join(lines, "\n")
}

// Escape keeps names with Markdown characters literal.
func Escape(s string) string {
	var w strings.Builder
	for _, r := range s {
		if strings.ContainsRune("\\`*_{}[]<>()#+!|", r) {
			w.WriteByte('\\')
		}
		w.WriteRune(r)
	}
	return w.String()
}

// Ambiguity is the line a card of a shared name opens with: the other
// entries the words in the text may name, linked, so the writer knows the
// card shows one of several.
func Ambiguity(b Canon, words string, others []*codex.Entry) string {
	if len(others) == 0 {
		return ""
	}
	links := make([]string, len(others))
	for i, o := range others {
		links[i] = fmt.Sprintf("[%s](%s)", Escape(o.Name), b.EntryLink(o))
	}
	return fmt.Sprintf("*Ambiguous:* “%s” may also be %s.", Escape(words), joinOr(links))
}

// joinOr joins items as a sentence lists choices: "a", "a or b",
// "a, b or c".
func joinOr(items []string) string {
	if len(items) == 1 {
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}

// Uncertain is the line a card opens with where the words in the text
// may name someone else (manuscript.Mention.Uncertain): the card is the
// entry they would name, and nothing counts them for it.
func Uncertain(words string, e *codex.Entry) string {
	return fmt.Sprintf("*Uncertain:* “%s” here may not be %s: it stands by a name the codex does not know, or names a family, a place or a firm. It is not counted as a mention.", Escape(words), Escape(e.Name))
}
