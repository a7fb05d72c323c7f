package tools

import (
	"fmt"
	"strings"

	"github.com/quire-ink/quire/manuscript/continuity"
)

// ChapterContext is the chapter the writer is in, as a turn's context
// message names it: its place in the book and in story time, and, for a
// persona that checks continuity, what quire's own checks found in it.
type ChapterContext struct {
	Position int
	// Label is the chapter's number as quire shows it and as
	// get_manuscript_context finds it again.
	Label     string
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
func (src *Sources) Chapter(checks bool) *ChapterContext {
	u, ok := src.currentChapter()
	if !ok {
		return nil
	}
	out := &ChapterContext{Position: u.Position, Label: u.Label(), Title: u.Title, Path: u.Path,
		POV: u.Meta.POV, Location: u.Meta.Location, Day: u.Meta.Day, HasDay: u.Meta.HasDay, Flashback: u.Meta.Flashback}
	if snap := src.Snapshot(); snap != nil {
		out.Chapters = len(snap.Units())
	}
	if !checks {
		return out
	}
	tl := src.timeline()
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
		f := ChapterFinding{Line: line, Code: d.Code, Severity: d.Severity.String(), Message: src.scrub(d.Message)}
		if len(d.Related) > 0 {
			f.Canon = fmt.Sprintf("%s line %d", src.scrub(d.Related[0].Path), d.Related[0].Line)
		}
		out.Findings = append(out.Findings, f)
	}
	return out
}
