package server

import (
	"log/slog"
	"reflect"
	"slices"
	"sync"
	"time"

	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/manuscript/continuity"
	"github.com/quire-ink/quire/server/textdoc"
)

// storyTime keeps a book's continuity canon and timeline between
// requests: building the canon reads every entry's progressions and
// style rules, so it is built again only when the codex, its names or
// quire.yaml's traits:/checks: change. The timeline follows each
// manuscript snapshot, but keeps its placing of the chapters while
// their order, titles and front matter stay as they were: an edit of a
// chapter's prose, most of a writer's edits, builds no new one.
type storyTime struct {
	mu    sync.Mutex
	cat   *codex.Catalog
	names *manuscript.Matcher
	opts  continuity.Options
	canon *continuity.Canon
	snap  *manuscript.Snapshot
	tl    *continuity.Timeline
	// scratch holds the buffers of the last check for the next, so that
	// checking a chapter on each edit allocates no words for its prose;
	// nil while a check has it.
	scratch *continuity.Scratch
}

// check is continuity.Check(tl, u) with the book's kept buffers; checks
// running side by side take fresh ones.
func (st *storyTime) check(tl *continuity.Timeline, u *manuscript.Unit) []continuity.Diagnostic {
	st.mu.Lock()
	s := st.scratch
	st.scratch = nil
	st.mu.Unlock()
	if s == nil {
		s = new(continuity.Scratch)
	}
	out := s.Check(tl, u)
	st.mu.Lock()
	st.scratch = s
	st.mu.Unlock()
	return out
}

// timelineFor is story time over snap with the codex as the writer sees
// it (the editor's texts of open codex files laid over the saved ones).
func (p *openBook) timelineFor(snap *manuscript.Snapshot) *continuity.Timeline {
	cat, names, opts := p.catalog(), p.matcher.Load(), p.configOf().continuity
	st := &p.story
	st.mu.Lock()
	defer st.mu.Unlock()
	st.canonFor(cat, names, opts)
	switch {
	case st.tl == nil:
		st.tl, st.snap = continuity.NewTimeline(st.canon, snap), snap
	case st.snap != snap:
		st.tl, st.snap = st.tl.For(snap), snap
	}
	return st.tl
}

// canonFor makes st's canon that of cat, names and opts, unless it is
// already, and reports whether it made it. st.mu must be held.
func (st *storyTime) canonFor(cat *codex.Catalog, names *manuscript.Matcher, opts continuity.Options) bool {
	if st.canon != nil && st.cat == cat && st.names == names && reflect.DeepEqual(st.opts, opts) {
		return false
	}
	st.canon = continuity.NewCanonWithMatcher(cat, opts, names)
	st.cat, st.names, st.opts, st.tl = cat, names, opts, nil
	return true
}

// canonEarly makes the continuity canon of the book's codex while its
// chapters are still being read (book.Options.OnCodexOpened): the first
// timelineFor, on the way to the book's first answer, then finds it
// made, as long as the codex, names and settings are still those. A
// warm start at 10,000 entries spent 5 ms making it after the chapters
// were read, with the other core idle. st.mu is taken before canonEarly
// returns and let go once the canon is made, in a goroutine of its own:
// a timelineFor that comes first waits for it rather than making it
// twice.
func (p *openBook) canonEarly(store *codex.Store, names *manuscript.Matcher, log *slog.Logger) {
	st := &p.story
	st.mu.Lock()
	go func() {
		defer st.mu.Unlock()
		start := time.Now()
		if st.canonFor(p.canonOf(store).Catalog, names, p.configOf().continuity) {
			log.Debug("continuity canon made beside the chapters", "ms", time.Since(start).Milliseconds())
		}
	}()
}

// askTimeline is timelineFor for an advisor turn's tools. The turn reads
// the saved codex (the view), the book's timeline the editor's texts laid
// over it: the same entries while no codex document is open with text
// of its own, and only then is the book's timeline the turn's; else nil,
// and the turn builds its own from what it reads.
func (p *openBook) askTimeline(_ *codex.Catalog, snap *manuscript.Snapshot) *continuity.Timeline {
	if snap == nil || p.overlayTexts() > 0 {
		return nil
	}
	return p.timelineFor(snap)
}

// chapterUnit is the chapter rel as the editor shows it: the snapshot's
// unit when it holds text, else text read as a unit of its own. ok is
// false for a document that is not a chapter.
func chapterUnit(snap *manuscript.Snapshot, rel, text string, version int32) (*manuscript.Unit, bool) {
	u, ok := snap.Unit(rel)
	if !ok {
		return nil, false
	}
	if u.Text == text {
		return u, true
	}
	fresh := manuscript.NewUnit(rel, text, version)
	fresh.Position = u.Position
	return fresh, true
}

// continuityData travels with a continuity diagnostic: the entry whose
// canon it compares against, for "Open … in the codex".
type continuityData struct {
	Entry string `json:"entry,omitempty"`
}

// chapterContinuity is what story time finds in the chapter rel with
// the editor's text: the problems of its front matter (a day that is no
// number) and of its outline (a scene note quire cannot use, a stale
// synopsis), then the continuity checks, as the domain found them.
func (p *openBook) chapterContinuity(snap *manuscript.Snapshot, rel, text string, version int32) (*continuity.Timeline, []codex.Problem, []continuity.Diagnostic, bool) {
	u, ok := chapterUnit(snap, rel, text, version)
	if !ok {
		return nil, nil, nil, false
	}
	tl := p.timelineFor(snap)
	problems := u.Meta.Problems
	if outline := u.OutlineProblems(p.configOf().outline.Rules); len(outline) > 0 {
		problems = slices.Concat(problems, outline)
	}
	return tl, problems, p.story.check(tl, u), true
}

// continuityDiagnostics are the chapter rel's story-time problems and
// continuity slips as LSP diagnostics, with the canon they contradict as
// related information.
func (p *openBook) continuityDiagnostics(snap *manuscript.Snapshot, rel, text string, version int32, lines *textdoc.Lines) []protocol.Diagnostic {
	tl, problems, diags, ok := p.chapterContinuity(snap, rel, text, version)
	if !ok {
		return nil
	}
	var out []protocol.Diagnostic
	for _, prob := range codex.CapProblems(problems) {
		out = append(out, problemDiagnostic(prob, text, lines))
	}
	texts := map[string]*textdoc.Lines{}
	for _, d := range diags {
		pd := protocol.Diagnostic{
			Range:    lines.RangeOf(clampRange(d.Range, len(text))),
			Severity: protocol.DiagnosticSeverity(d.Severity),
			Code:     d.Code,
			Source:   "quire",
			Message:  d.Message,
		}
		if d.Entry != "" {
			pd.Data = continuityData{Entry: d.Entry}
		}
		for _, r := range d.Related {
			if loc, ok := p.relatedLocation(tl, snap, texts, r); ok {
				pd.RelatedInformation = append(pd.RelatedInformation, protocol.DiagnosticRelatedInformation{Location: loc, Message: r.Message})
			}
		}
		out = append(out, pd)
	}
	return out
}

// relatedLocation places the other side of a slip, a codex entry's line
// or another chapter's day, in UTF-16; lines caches each file's index.
func (p *openBook) relatedLocation(tl *continuity.Timeline, snap *manuscript.Snapshot, lines map[string]*textdoc.Lines, r continuity.Related) (protocol.Location, bool) {
	var text string
	if r.Source != "" {
		text = r.Source // a series file no catalog of the book holds
	} else if e, ok := tl.Canon().Catalog().Get(r.Path); ok {
		text = e.Source
	} else if u, ok := snap.Unit(r.Path); ok {
		text = u.Text
	} else {
		return protocol.Location{}, false
	}
	ix, ok := lines[r.Path]
	if !ok {
		ix = textdoc.NewLines(text)
		lines[r.Path] = ix
	}
	return protocol.Location{URI: p.uri(r.Path), Range: ix.RangeOf(clampRange(r.Range, len(text)))}, true
}

// storyProblems are the problems of the codex file rel's progressions and
// style rules as written (a `from:` that names no chapter), when the
// codex holds the text the editor shows.
func (p *openBook) storyProblems(snap *manuscript.Snapshot, rel, text string) []codex.Problem {
	tl := p.timelineFor(snap)
	if e, ok := tl.Canon().Catalog().Get(rel); !ok || e.Source != text {
		return nil
	}
	var out []codex.Problem
	for _, prob := range slices.Concat(tl.Canon().Problems(), tl.Problems()) {
		if prob.Path == rel {
			out = append(out, prob)
		}
	}
	return out
}

func problemDiagnostic(p codex.Problem, text string, lines *textdoc.Lines) protocol.Diagnostic {
	return protocol.Diagnostic{
		Range:    lines.RangeOf(clampRange(p.Range, len(text))),
		Severity: protocol.DiagnosticSeverity(p.Severity),
		Code:     p.Code,
		Source:   "quire",
		Message:  p.Message,
	}
}
