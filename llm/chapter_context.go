package llm

import (
	"fmt"
	"strings"

	"github.com/quire-ink/quire/llm/untrusted"
	"github.com/quire-ink/quire/manuscript/continuity"
)

// ChapterContext is the chapter the writer is in, as a turn's context
// message names it: its place in the book and in story time, and, for a
// persona that checks continuity, what quire's own checks found in it.
type ChapterContext struct {
	Position  int
	Chapters  int
	Title     string
	Path      string
	POV       string
	Location  string
	Day       int
	HasDay    bool
	Flashback bool
	// Checked says the continuity checks ran on the chapter for this
	// turn; Findings are what they found, at most maxChapterFindings,
	// and Omitted how many more there were.
	Checked  bool
	Findings []ChapterFinding
	Omitted  int
}

// ChapterFinding is one continuity diagnostic of the chapter, for the
// model: where, which check, how serious, and what it says.
type ChapterFinding struct {
	Line     int
	Code     string
	Severity string
	Message  string
	// Canon is where the other side lies: a codex file and line, or the
	// chapter it is out of order with.
	Canon string
}

// chapterContext describes the writer's current chapter; with checks,
// it runs quire's continuity checks on it (continuity.Check against the
// canon as of the chapter). nil when the writer is in no chapter.
func (b *Book) chapterContext(checks bool) *ChapterContext {
	u, ok := b.currentChapter()
	if !ok {
		return nil
	}
	out := &ChapterContext{Position: u.Position, Title: u.Title, Path: u.Path,
		POV: u.Meta.POV, Location: u.Meta.Location, Day: u.Meta.Day, HasDay: u.Meta.HasDay, Flashback: u.Meta.Flashback}
	if snap := b.snapshot(); snap != nil {
		out.Chapters = len(snap.Units())
	}
	if !checks {
		return out
	}
	tl := b.timeline()
	if tl == nil {
		return out
	}
	out.Checked = true
	for _, d := range continuity.Check(tl, u) {
		if len(out.Findings) == maxChapterFindings {
			out.Omitted++
			continue
		}
		line := 1
		if d.Range.Start >= 0 && d.Range.Start <= len(u.Text) {
			line += strings.Count(u.Text[:d.Range.Start], "\n")
		}
		f := ChapterFinding{Line: line, Code: d.Code, Severity: d.Severity.String(), Message: b.scrub(d.Message)}
		if len(d.Related) > 0 {
			f.Canon = fmt.Sprintf("%s line %d", b.scrub(d.Related[0].Path), d.Related[0].Line)
		}
		out.Findings = append(out.Findings, f)
	}
	return out
}

// writeChapterContext adds the chapter's lines to a context message:
// where the writer is in the book and in story time; that canon lookups
// answer as of it (when the model has them); and the continuity
// findings, which the model is to confirm and extend rather than repeat.
func writeChapterContext(b *strings.Builder, ch *ChapterContext, canCanon bool) {
	if ch == nil {
		return
	}
	b.WriteString("\nThe writer is in this chapter:\n\n")
	place := fmt.Sprintf("- Chapter: %d", ch.Position)
	if ch.Chapters > 0 {
		place += fmt.Sprintf(" of %d in reading order", ch.Chapters)
	}
	if t := untrusted.OneLine(ch.Title); t != "" {
		place += fmt.Sprintf(", %q", t)
	}
	b.WriteString(place + "\n")
	if v := untrusted.OneLine(ch.POV); v != "" {
		fmt.Fprintf(b, "- Point of view: %s\n", v)
	}
	switch {
	case ch.HasDay && ch.Flashback:
		fmt.Fprintf(b, "- Story day: %d (a flashback)\n", ch.Day)
	case ch.HasDay:
		fmt.Fprintf(b, "- Story day: %d\n", ch.Day)
	case ch.Flashback:
		b.WriteString("- A flashback: earlier in story time than its place in the book\n")
	}
	if v := untrusted.OneLine(ch.Location); v != "" {
		fmt.Fprintf(b, "- Location: %s\n", v)
	}
	if canCanon {
		b.WriteString("\nCanon changes as the story goes on: the get_*_context tools answer as of this chapter " +
			"unless you pass asOf with another chapter.\n")
	}
	if !ch.Checked {
		return
	}
	if len(ch.Findings) == 0 {
		b.WriteString("\nquire's own continuity checks (deterministic, no model: trait contradictions, the dead speaking or acting, " +
			"days out of order, a pov or location the codex does not know, style rules) found nothing in this chapter. " +
			"Look for what such checks cannot see.\n")
		return
	}
	n := len(ch.Findings) + ch.Omitted
	noun := "problems"
	if n == 1 {
		noun = "problem"
	}
	fmt.Fprintf(b, "\nquire's own continuity checks (deterministic, no model) found %d %s in this chapter:\n\n", n, noun)
	for _, f := range ch.Findings {
		fmt.Fprintf(b, "- line %d, %s (%s): %s", f.Line, untrusted.OneLine(f.Code), untrusted.OneLine(f.Severity), untrusted.OneLine(f.Message))
		if c := untrusted.OneLine(f.Canon); c != "" {
			fmt.Fprintf(b, " [see %s]", c)
		}
		b.WriteString("\n")
	}
	if ch.Omitted > 0 {
		fmt.Fprintf(b, "- and %d more not listed\n", ch.Omitted)
	}
	b.WriteString("\nConfirm each finding against the chapter and the codex (a finding can be wrong, or the codex stale), " +
		"say which side you think is right, and extend them with what these checks cannot see; do not just repeat them.\n")
}
