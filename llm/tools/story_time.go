package tools

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/llm/toolloop"
	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/manuscript/continuity"
)

// maxChapterFindings bounds the continuity findings a turn's context
// names: past it the writer has a pattern to fix, and the model a list
// too long to weigh.
const maxChapterFindings = 20

// storyCache holds the story-time view of one book, built on first use:
// reading every entry's progressions and building a name matcher costs
// in proportion to the codex, so one turn builds it at most once per
// codex and manuscript it reads.
type storyCache struct {
	mu   sync.Mutex
	cat  *codex.Catalog
	snap *manuscript.Snapshot
	tl   *continuity.Timeline
}

// timeline is the book's canon over story time, for the codex and
// manuscript the tools read now; nil when either is missing.
func (src *Sources) timeline() *continuity.Timeline {
	if src == nil || src.Store == nil {
		return nil
	}
	cat, snap := src.canon().Catalog(), src.Snapshot()
	if cat == nil || snap == nil {
		return nil
	}
	build := func() *continuity.Timeline {
		if src.Timeline != nil {
			if tl := src.Timeline(cat, snap); tl != nil {
				return tl
			}
		}
		return continuity.NewTimeline(continuity.NewCanon(cat, src.Continuity), snap)
	}
	if src.story == nil {
		return build()
	}
	src.story.mu.Lock()
	defer src.story.mu.Unlock()
	if src.story.tl == nil || src.story.cat != cat || src.story.snap != snap {
		src.story.cat, src.story.snap, src.story.tl = cat, snap, build()
	}
	return src.story.tl
}

// currentChapter is the chapter the writer is in this turn: the
// document of the selection, else the active document, when it is a
// chapter of the manuscript.
func (src *Sources) currentChapter() (*manuscript.Unit, bool) {
	snap := src.Snapshot()
	if snap == nil {
		return nil, false
	}
	path := src.Place.Current
	if src.Place.Selection != nil && src.Place.Selection.Path != "" {
		path = src.Place.Selection.Path
	}
	if path == "" {
		return nil, false
	}
	u, err := snap.Document(path)
	if err != nil || u.Position == 0 {
		return nil, false
	}
	return u, true
}

// asOfChapter resolves a get_<type>_context call's asOf reference, or,
// when it is omitted, the turn's current chapter (implied true). No
// chapter at all is (nil, false, nil): the entry is answered as written.
func (src *Sources) asOfChapter(ref *string) (u *manuscript.Unit, implied bool, err error) {
	if ref == nil {
		u, ok := src.currentChapter()
		return u, ok, nil
	}
	u, err = src.chapterArg("asOf", *ref, "or leave asOf out")
	return u, false, err
}

// chapterArg resolves the chapter reference a tool's argument arg gives
// (a chapter number, title or path, as get_manuscript_context takes
// them); a reference that names no chapter of the manuscript is an
// error that names the argument. orElse ends the message of an empty
// reference ("or leave asOf out").
func (src *Sources) chapterArg(arg, ref, orElse string) (*manuscript.Unit, error) {
	r := strings.TrimSpace(ref)
	if r == "" {
		return nil, toolloop.Errorf(toolloop.CodeInvalidArguments,
			"%s is empty; give a chapter number, title or path, %s", arg, orElse)
	}
	snap := src.Snapshot()
	if snap == nil {
		return nil, toolloop.Errorf(toolloop.CodeToolFailed, "no manuscript is open for this turn, so %s cannot name a chapter", arg)
	}
	u, err := snap.Resolve(r, src.Place)
	if err != nil {
		te := manuscriptError(err)
		te.Message = arg + ": " + te.Message
		var re *manuscript.RefError
		if te.Code == toolloop.CodeToolFailed && !errors.As(err, &re) {
			te.Code = toolloop.CodeInvalidArguments
		}
		return nil, te
	}
	if u.Position == 0 {
		return nil, toolloop.Errorf(toolloop.CodeInvalidArguments,
			"%s %q is %s, which is not a chapter of the manuscript; give a chapter number, title or path", arg, r, u.Path)
	}
	return u, nil
}

// canonAsOf is what an entry looked up as of a chapter says about it.
type canonAsOf struct {
	// Chapter names the chapter: its place in reading order and title.
	Chapter string `json:"chapter"`
	Path    string `json:"path"`
	// Implied says the chapter is the writer's current one, asOf having
	// been left out.
	Implied bool `json:"implied,omitempty"`
	// Applied lists the progressions that hold there, each with the
	// chapter it starts at and what it changes.
	Applied []string `json:"applied"`
	// Notes are the lines of canon those progressions add.
	Notes []string `json:"notes,omitempty"`
	// Note says in a sentence what the entry shows.
	Note string `json:"note"`
}

// chapterName names a chapter for the model: `5 "Salt-Debt"`.
func chapterName(label string, title string) string {
	if title == "" {
		return label
	}
	return fmt.Sprintf("%s %q", label, title)
}

// applyAsOf replaces out's status, aliases, summary and fields by their
// values as of chapter u and says so in out.AsOf.
func (src *Sources) applyAsOf(out *canonLookup, u *manuscript.Unit, implied bool) {
	tl := src.timeline()
	if tl == nil {
		return
	}
	ch := tl.ChapterOf(u)
	view := &canonAsOf{Chapter: chapterName(ch.Label(), ch.Title), Path: ch.Path, Implied: implied, Applied: []string{}}
	out.AsOf = view
	e, ok := tl.Canon().Catalog().Get(out.RelativePath)
	if !ok {
		view.Note = "The entry is shown as written: quire could not place it in story time."
		return
	}
	a := tl.AsOf(e, ch)
	for _, p := range tl.Applied(e, ch) {
		var changes []string
		for _, f := range p.Changes {
			changes = append(changes, f.Key+": "+src.scrub(fmt.Sprint(fieldValue(f.Value))))
		}
		if p.Note != "" {
			changes = append(changes, "note")
		}
		if p.File != "" {
			// The book's entry keeps this progression of the series'.
			changes = append(changes, "series canon")
		}
		view.Applied = append(view.Applied, fmt.Sprintf("from chapter %s: %s", chapterName(p.From.Label(), p.From.Title), strings.Join(changes, ", ")))
	}
	for _, n := range a.Notes {
		view.Notes = append(view.Notes, src.scrub(n))
	}
	out.Status = codex.Status(a.Status)
	out.Aliases = a.Entry.Aliases
	out.Summary = src.scrub(a.Entry.Summary)
	if a.Entry.Title != "" {
		out.Title = a.Entry.Title
	}
	fields := map[string]string{}
	for _, f := range a.Entry.Custom {
		if v := fieldValue(f.Value); v != "" {
			fields[f.Key] = src.scrub(v)
		}
	}
	if len(fields) > 0 {
		out.Fields = fields
	}
	switch line := tl.AsOfLine(e, ch); {
	case line != "":
		view.Note = line + " Status, aliases, summary and fields are shown as of this chapter; the excerpt is the entry as written."
	default:
		view.Note = fmt.Sprintf("As of chapter %s: the entry has no progressions, so it reads as written.", view.Chapter)
	}
	if implied {
		view.Note += " This is the chapter the writer is in; pass asOf to see the entry as of another chapter."
	}
}

// fieldValue shows a field's value as a writer wrote it: a list as its
// items separated by commas; nested values are left out.
func fieldValue(v any) string {
	switch v := v.(type) {
	case string:
		return strings.TrimSpace(v)
	case []any:
		var items []string
		for _, it := range v {
			if s := fieldValue(it); s != "" {
				items = append(items, s)
			}
		}
		return strings.Join(items, ", ")
	case float64, bool, int:
		return fmt.Sprint(v)
	}
	return ""
}
