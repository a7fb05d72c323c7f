package server

import (
	"context"
	"slices"
	"strings"

	"github.com/quire-ink/quire/codex"
)

// sentProblems is what the diagnostics of a codex file not open were
// made of when last sent: its problems in the book's canon (the
// catalog's and the story's) and the text they are placed in. The same
// again gives the same diagnostics, so the file need not be sent again.
type sentProblems struct {
	problems []codex.Problem
	// text is the entry's text; a file that is no entry (its front
	// matter broken) is read from disk when published, so it is always
	// sent again (fresh).
	text  string
	fresh bool
}

// same reports whether o would publish what s did.
func (s sentProblems) same(o sentProblems) bool {
	// Equal texts of one entry share their bytes, so this compare is
	// cheap for the files that did not change.
	return !s.fresh && !o.fresh && s.text == o.text && slices.Equal(s.problems, o.problems)
}

// problemsByFile are the codex files (of the book, and of its series
// at their absolute paths) that have problems in the book's canon now,
// with what their diagnostics are made of.
func (p *openBook) problemsByFile() map[string]sentProblems {
	cat := p.catalog()
	out := map[string]sentProblems{}
	add := func(prob codex.Problem) {
		sent, ok := out[prob.Path]
		if !ok {
			sent.fresh = true
			if e, isEntry := cat.Get(prob.Path); isEntry {
				sent.text, sent.fresh = e.Source, false
			}
		}
		sent.problems = append(sent.problems, prob)
		out[prob.Path] = sent
	}
	for _, prob := range cat.Problems() {
		add(prob)
	}
	snap := p.ms.Snapshot()
	tl := p.timelineFor(snap)
	for _, prob := range slices.Concat(tl.Canon().Problems(), tl.Problems()) {
		add(prob)
	}
	// Chapters found but not read have no text: their problem is all
	// there is to say of them.
	for _, prob := range snap.Unreadable() {
		add(prob)
	}
	return out
}

// seriesReadersKey names the open books that read a series, and the
// series: a series file's problem says which of them find it.
func (s *Server) seriesReadersKey() string {
	var b strings.Builder
	for _, p := range s.loadedProjects() {
		if st := p.seriesStore(); st != nil {
			b.WriteString(p.real + "\x00" + bookName(p) + "\x00" + st.Root() + "\x00")
		}
	}
	return b.String()
}

// republishOtherReaders sends again the codex problems of the open books
// other than p that last sent theirs under another set of readers of a
// series than readers: a problem of a series file says which books find
// it, and a book that started or stopped reading the series (p) does not
// send the files whose problems only the others find (an entry p
// overrides). Each book sends at most once per change of the set: the
// book sent again finds its readers current.
func (s *Server) republishOtherReaders(ctx context.Context, p *openBook, readers string) {
	for _, q := range s.loadedProjects() {
		if q == p {
			continue
		}
		q.codexMu.Lock()
		stale := q.published != nil && q.publishedReaders != readers
		q.codexMu.Unlock()
		if stale {
			s.publishCodexProblems(ctx, q)
		}
	}
}
