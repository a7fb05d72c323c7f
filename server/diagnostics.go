package server

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/count"
	"github.com/quire-ink/quire/codex/settings"
	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/server/textdoc"
)

// diagnosticDelay lets a burst of keystrokes settle before a document's
// diagnostics are published again: an editor that repainted its
// squiggles on every pause of a tenth of a second would flicker.
const diagnosticDelay = 150 * time.Millisecond

// diagnosticPrepare is the quiet after which they are computed: a
// writer who stops typing sees the diagnostics diagnosticDelay after the
// last keystroke, not that plus the work (a 5,000-word chapter at
// 10,000 entries takes 5–10 ms, and one edit in twenty several times
// that on a virtual machine waking from idle; docs/performance.md). A
// keystroke in the last 50 ms drops what was computed, as one before
// it always did.
const diagnosticPrepare = 100 * time.Millisecond

// Diagnostic codes quire adds to the codex's problem codes.
const codeUntrackedName = "untracked-name"

// untrackedData travels with an untracked-name diagnostic, so the code
// action knows the name without reading the message.
type untrackedData struct {
	Name string `json:"name"`
	// Aliases and Exclude are the suggestion's other forms and the other
	// names it keeps apart: the entry the fix creates lists them.
	Aliases []string `json:"aliases,omitempty"`
	Exclude []string `json:"exclude,omitempty"`
}

// diagRun is a publication of one document's diagnostics under way.
type diagRun struct{ cancel context.CancelFunc }

// diagTimer is a document's publication to come: its computation
// starts when timer fires, and it is sent at due.
type diagTimer struct {
	timer *time.Timer
	due   time.Time
}

// scheduleDiagnostics publishes uri's diagnostics after the delay,
// restarting the wait on every call, and cancels a publication under way
// for an older version: its work is superseded. They are computed after
// diagnosticPrepare and held until the delay has passed.
func (s *Server) scheduleDiagnostics(uri protocol.DocumentURI) {
	key := textdoc.DocKey(uri)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cancelDiagRunLocked(key)
	// Due from the last change, however late the timer wakes.
	due := time.Now().Add(diagnosticDelay)
	if t, ok := s.diagTimers[key]; ok {
		t.due = due
		t.timer.Reset(diagnosticPrepare)
		return
	}
	s.startDiagTimerLocked(key, uri, diagnosticPrepare, due)
}

// canonDelay gathers the changes of one moment to the canon (a sync
// tool writing several files, the check behind a warm start) into one
// publication of the open documents' diagnostics. It is no keystroke's
// debounce: nothing is typed, and the writer waits for nothing.
const canonDelay = 20 * time.Millisecond

// scheduleCanonDiagnostics publishes uri's diagnostics again because
// the book changed around it, canonDelay from now; where a keystroke's
// publication is pending it is left to come when the typing settles,
// reading the book as it is then.
func (s *Server) scheduleCanonDiagnostics(uri protocol.DocumentURI) {
	key := textdoc.DocKey(uri)
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.diagTimers[key]; ok {
		return
	}
	s.cancelDiagRunLocked(key)
	s.startDiagTimerLocked(key, uri, canonDelay, time.Now().Add(canonDelay))
}

// startDiagTimerLocked starts uri's publication: computed after
// prepare, sent at due. s.mu is held.
func (s *Server) startDiagTimerLocked(key, uri protocol.DocumentURI, prepare time.Duration, due time.Time) {
	dt := &diagTimer{due: due}
	s.diagTimers[key] = dt
	dt.timer = time.AfterFunc(prepare, func() {
		// Tracked like a request, so Serve waits for it; none starts
		// once Serve has stopped handling messages.
		s.hmu.Lock()
		if s.stopped {
			s.hmu.Unlock()
			return
		}
		s.work.Add(1)
		s.hmu.Unlock()
		defer s.work.Done()
		ctx, cancel := context.WithCancel(s.ctx)
		defer cancel()
		run := &diagRun{cancel: cancel}
		s.mu.Lock()
		due := dt.due
		if s.diagTimers[key] == dt {
			delete(s.diagTimers, key)
		}
		s.diagRuns[key] = run
		s.mu.Unlock()
		defer func() {
			s.mu.Lock()
			// Only its own: a newer run may have taken the place.
			if s.diagRuns[key] == run {
				delete(s.diagRuns, key)
			}
			s.mu.Unlock()
		}()
		if ctx.Err() != nil {
			return
		}
		s.protect("diagnostics", func() { s.publishDiagnosticsAt(ctx, uri, due) })
	})
}

// cancelDiagRunLocked cancels the publication under way for the
// document key, computing or waiting for its debounce's end. s.mu is
// held.
func (s *Server) cancelDiagRunLocked(key protocol.DocumentURI) {
	if run, ok := s.diagRuns[key]; ok {
		run.cancel()
		delete(s.diagRuns, key)
	}
}

// publishDiagnostics computes and sends the diagnostics of one document.
func (s *Server) publishDiagnostics(ctx context.Context, uri protocol.DocumentURI) {
	s.publishDiagnosticsAt(ctx, uri, time.Time{})
}

// publishDiagnosticsAt computes the diagnostics of one document and
// sends them at due, unless ctx ends first (a newer change cancels it).
func (s *Server) publishDiagnosticsAt(ctx context.Context, uri protocol.DocumentURI, due time.Time) {
	start := time.Now()
	n := s.published.begin(uri)
	diags, version, ok := s.diagnosticsFor(ctx, uri)
	if !ok || ctx.Err() != nil {
		return
	}
	// Encoded while waiting too: hundreds of diagnostics take a
	// millisecond or two.
	params, err := json.Marshal(publication(uri, version, diags))
	if err != nil {
		s.log.Debug("diagnostics not encoded", "err", err)
		return
	}
	if s.opts.diagnosed != nil && !due.IsZero() {
		s.opts.diagnosed(time.Since(start))
	}
	if wait := time.Until(due); wait > 0 {
		t := time.NewTimer(wait)
		defer t.Stop()
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
	// Cancelled while it waited, or as it woke (a change, the document
	// closed): a newer publication, or the clearing, stands.
	if ctx.Err() != nil {
		return
	}
	if !s.published.send(uri, n, func() { s.notifyDiagnostics(ctx, json.RawMessage(params)) }) {
		s.log.Debug("diagnostics not sent: newer ones were", "uri", uri)
	}
}

func (s *Server) sendDiagnostics(ctx context.Context, uri protocol.DocumentURI, version int32, diags []protocol.Diagnostic) {
	s.notifyDiagnostics(ctx, publication(uri, version, diags))
}

// publication is the publishDiagnostics notification of one version
// of a document.
func publication(uri protocol.DocumentURI, version int32, diags []protocol.Diagnostic) protocol.PublishDiagnosticsParams {
	if diags == nil {
		diags = []protocol.Diagnostic{}
	}
	return protocol.PublishDiagnosticsParams{URI: uri, Version: uint32(max(version, 0)), Diagnostics: diags}
}

func (s *Server) notifyDiagnostics(ctx context.Context, params any) {
	if err := s.conn.Notify(ctx, protocol.MethodTextDocumentPublishDiagnostics, params); err != nil {
		s.log.Debug("diagnostics not sent", "err", err)
	}
}

// diagnosticsFor is what quire has to say about a document: problems of
// a codex file, untracked names in a chapter.
func (s *Server) diagnosticsFor(ctx context.Context, uri protocol.DocumentURI) ([]protocol.Diagnostic, int32, bool) {
	path, ok := textdoc.URIPath(uri)
	if !ok {
		return nil, 0, false
	}
	proj, rel, ok := s.projectFor(path)
	if !ok {
		// A file of a series folder an open book reads.
		return s.seriesDiagnostics(ctx, uri, path)
	}
	if !proj.loaded() {
		return nil, 0, false
	}
	// The editor's text and the book's must be of one version: a codex
	// file's problems come from the catalog with its text laid over. The
	// text is read first, queued already (s.queued), then the queue is
	// applied: the book holds that version or a newer one, and a newer
	// one drops this publication below. Read the other way round, a
	// change that came in between was read against the book without it:
	// a codex file's duplicate-alias warning went missing for a version
	// (CI, under Wine).
	s.queued.Lock()
	doc, open := s.openText(uri)
	s.queued.Unlock()
	s.syncEdits(proj)
	if rel == configFile {
		if open {
			return append(configDiagnostics(doc.Text), proj.trustDiagnostics(doc.Text)...), doc.Version, true
		}
		f, err := settings.ReadBook(proj.sources().Book)
		if err != nil || f.Text == nil {
			// Gone: nothing to say about it any more.
			return nil, 0, ctx.Err() == nil
		}
		return append(configDiagnostics(string(f.Text)), proj.trustDiagnostics(string(f.Text))...), 0, ctx.Err() == nil
	}
	if isActionFile(rel) {
		if open {
			return actionFileDiagnostics(rel, doc.Text), doc.Version, true
		}
		data, err := os.ReadFile(filepath.Join(proj.real, filepath.FromSlash(rel)))
		if err != nil {
			return nil, 0, ctx.Err() == nil
		}
		return actionFileDiagnostics(rel, string(data)), 0, ctx.Err() == nil
	}
	base, cat := proj.store.Catalog(), proj.catalog()
	snap := proj.ms.Snapshot()
	var text string
	var version int32
	var lines *textdoc.Lines
	if open {
		text, version, lines = doc.Text, doc.Version, doc.Lines
	} else if u, err := snap.Document(rel); err == nil {
		text, lines = u.Text, textdoc.NewLines(u.Text)
	} else if i := slices.IndexFunc(snap.Unreadable(), func(p codex.Problem) bool { return p.Path == rel }); i >= 0 {
		// A chapter quire found and could not read: why, at its start.
		return []protocol.Diagnostic{problemDiagnostic(snap.Unreadable()[i], "", textdoc.NewLines(""))}, 0, true
	} else {
		return nil, 0, false
	}
	var diags []protocol.Diagnostic
	// Capped again: the problems read from the editor's text add broken
	// links and locked-field changes to those of the entry.
	// Progressions and style rules as written are the codex file's
	// problems too (continuity.go).
	problems := codexProblems(base, cat, rel, text)
	if _, isEntry := cat.Get(rel); isEntry {
		problems = append(slices.Clone(problems), proj.storyProblems(snap, rel, text)...)
	}
	// A chapter's [[links]] are held to the codex as an entry's are, and
	// get the same fixes (create_entry.go).
	if u, isChapter := chapterUnit(snap, rel, text, version); isChapter {
		problems = append(slices.Clone(problems), cat.LinkProblems(rel, codex.LinksInBody(u.Text, u.Body, u.Code))...)
	}
	for _, p := range codex.CapProblems(problems) {
		diags = append(diags, problemDiagnostic(p, text, lines))
	}
	// Untracked names need the whole book scanned with the current names;
	// until then (the first moments after opening) there are none to give.
	if _, isChapter := snap.Unit(rel); isChapter && snap.Mentions().Matcher() == proj.matcher.Load() {
		diags = append(diags, untrackedDiagnostics(snap, rel, lines)...)
	}
	// Continuity: the chapter's story time against the canon as of it.
	diags = append(diags, proj.continuityDiagnostics(snap, rel, text, version, lines)...)
	if open {
		// Changed meanwhile: the book may hold the newer text, and the
		// newer version's own publication follows its debounce.
		if now, still := s.openText(uri); !still || now != doc {
			return nil, 0, false
		}
	}
	return diags, version, ctx.Err() == nil
}

// codexProblems are the problems of the codex file rel with the text the
// editor shows. cat is the codex with the editor's texts (catalog), so
// its problems are those of this text, among them the names and aliases
// another entry claims too; base is the saved codex, against which a
// change to a locked field shows. A text that does not read as an entry
// yet gets what reading it finds (front matter, links).
func codexProblems(base, cat *codex.Catalog, rel, text string) []codex.Problem {
	e, isEntry := cat.Get(rel)
	if !isEntry || e.Source == text {
		problems := cat.ProblemsIn(rel)
		if saved, ok := base.Get(rel); ok && isEntry && saved.Source != text {
			problems = append(slices.Clone(problems), lockedChanges(saved, e, text)...)
		}
		return problems
	}
	parsed, problems := codex.Parse(rel, []byte(text), e.Type)
	if parsed == nil {
		return problems
	}
	problems = append(problems, lockedChanges(e, parsed, text)...)
	return append(problems, cat.LinkProblems(rel, parsed.Links)...)
}

// untrackedDiagnostics marks the first use in the book of each name that
// looks like an entity and has no entry, when that first use is in rel.
func untrackedDiagnostics(snap *manuscript.Snapshot, rel string, lines *textdoc.Lines) []protocol.Diagnostic {
	var out []protocol.Diagnostic
	for _, u := range snap.Mentions().Untracked(manuscript.UntrackedMinCount) {
		if u.First.Path != rel {
			continue
		}
		out = append(out, protocol.Diagnostic{
			Range:    lines.RangeOf(u.First.Range.Start, u.First.Range.End),
			Severity: protocol.DiagnosticSeverityInformation,
			Code:     codeUntrackedName,
			Source:   "quire",
			Message:  untrackedMessage(u),
			Data:     untrackedData{Name: u.Name, Aliases: u.Aliases, Exclude: u.Exclude},
		})
	}
	return out
}

// untrackedMessage says how often an untracked name is used, counting
// the other forms it is written in, as the entry the fix creates would
// find it.
func untrackedMessage(u manuscript.Untracked) string {
	also := ""
	if len(u.Aliases) > 0 {
		quoted := make([]string, len(u.Aliases))
		for i, a := range u.Aliases {
			quoted[i] = strconv.Quote(a)
		}
		also = " (also written " + strings.Join(quoted, ", ") + ")"
	}
	return fmt.Sprintf("%q%s is used %s in %s and has no codex entry", u.Name, also, count.Of(u.Count, "time"), count.Of(u.Units, "chapter"))
}

// publishCodexProblems sends the diagnostics of codex files on disk that
// are not open, and clears those whose problems are gone. A file whose
// problems are the same as when last sent is not sent again: a saved
// series file changes one file's problems, and each book of the series
// used to send every file with problems again (problems_sent.go).
func (s *Server) publishCodexProblems(ctx context.Context, p *openBook) {
	// A problem of the series canon has the series file's absolute path:
	// published on that file, the union of what every open book of the
	// series finds there (seriesDiagnostics).
	now := p.problemsByFile()
	readers := s.seriesReadersKey()
	p.codexMu.Lock()
	previous, previousReaders := p.published, p.publishedReaders
	p.published, p.publishedReaders = now, readers
	p.codexMu.Unlock()
	for rel, sent := range now {
		// Which books find a series file's problem is in its message:
		// when the books change, every file is sent again.
		if old, ok := previous[rel]; ok && readers == previousReaders && old.same(sent) {
			continue
		}
		s.publishDiagnostics(ctx, p.uri(rel))
	}
	if readers != previousReaders {
		s.republishOtherReaders(ctx, p, readers)
	}
	for rel := range previous {
		if _, ok := now[rel]; ok || path.Ext(rel) == "" {
			continue
		}
		uri := p.uri(rel)
		if filepath.IsAbs(rel) {
			// Another open book of the series may still find problems
			// there; when no book reads that series any more, none.
			if diags, version, ok := s.seriesDiagnostics(ctx, uri, rel); ok {
				s.sendDiagnostics(ctx, uri, version, diags)
				continue
			}
		}
		if _, open := s.openText(uri); !open {
			s.sendDiagnostics(ctx, uri, 0, nil)
		}
	}
}

// republishOpen schedules fresh diagnostics for every open document,
// after a change to the book around them (scheduleCanonDiagnostics).
func (s *Server) republishOpen() {
	for _, u := range s.sess.openURIs() {
		s.scheduleCanonDiagnostics(u)
	}
}

func clampRange(r codex.Range, n int) (int, int) {
	start := min(max(r.Start, 0), n)
	return start, min(max(r.End, start), n)
}
