package server

import (
	"sync"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/server/textdoc"
)

// Typing sends a didChange per keystroke. Handing each version to the
// manuscript (its words counted, its mentions found again, the book's
// mention index merged) costs in proportion to the chapter: 54 ms a
// keystroke in a 1 MB chapter, half a second in 11 MB, so a writer typing
// quickly queued minutes of work. didChange now only records the editor's
// text (text_sync.go) and queues it here; the queue is applied once,
// with the latest version of each document, when the writer pauses (the
// diagnostics' debounce) or when a request needs the book as the editor
// shows it, whichever comes first.

// editQueue holds the editor's texts of a project's open documents that
// its manuscript and codex overlay have not taken yet.
type editQueue struct {
	mu sync.Mutex
	// docs are the latest texts, by project-relative path.
	docs map[string]*textdoc.Document
	// applyMu orders the applications: a request's and the debounce's
	// never hand the overlay two versions out of order, and a document
	// closed meanwhile is not reopened.
	applyMu sync.Mutex
}

// put queues doc, the text of rel, in place of any older one.
func (q *editQueue) put(rel string, doc *textdoc.Document) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.docs == nil {
		q.docs = map[string]*textdoc.Document{}
	}
	q.docs[rel] = doc
}

// take empties the queue.
func (q *editQueue) take() map[string]*textdoc.Document {
	q.mu.Lock()
	defer q.mu.Unlock()
	docs := q.docs
	q.docs = nil
	return docs
}

// queueEdit queues an open document of a loaded project for its
// manuscript; a project still loading picks it up when ready
// (overlayAllLocked).
func (s *Server) queueEdit(doc *textdoc.Document) {
	path, ok := textdoc.URIPath(doc.URI)
	if !ok {
		return
	}
	proj, rel, ok := s.projectFor(path)
	if !ok || !proj.loaded() {
		return
	}
	proj.edits.put(rel, doc)
}

// syncEdits hands the project's queued texts to its manuscript and codex
// overlay, so that what follows reads the book as the editor shows it.
// When the queue is empty it costs a lock.
func (s *Server) syncEdits(p *openBook) {
	p.edits.applyMu.Lock()
	defer p.edits.applyMu.Unlock()
	names := false
	docs := p.edits.take()
	if len(docs) > 0 {
		// The editor's unsaved text counts as the writer's day's work;
		// handed to the history beside the diagnostics, not before them.
		defer func() { go p.observeWords() }()
	}
	for rel, doc := range docs {
		// The server's context, not a request's: a text taken from the
		// queue is applied whole even when the request is cancelled.
		if err := p.ms.OpenDocument(s.ctx, rel, doc.Text, doc.Version); err != nil {
			s.log.Warn("document not taken into the manuscript", "path", rel, "err", err)
		}
		if s.opts.synced != nil {
			s.opts.synced(rel, doc.Version)
		}
		if isCodexText(p, rel) && p.setCodexText(rel, doc.Text) && p.namesChanged(rel) {
			names = true
		}
	}
	if names {
		s.catchUpNames(p)
	}
}

// closeQueued drops rel's queued text and runs closed while no queued
// text can be applied, so a document closed is not reopened by an
// application that took its text before.
func (p *openBook) closeQueued(rel string, closed func()) {
	p.edits.applyMu.Lock()
	defer p.edits.applyMu.Unlock()
	p.edits.mu.Lock()
	delete(p.edits.docs, rel)
	p.edits.mu.Unlock()
	closed()
}

// catchUpNames scans p's manuscript with its new names in the
// background, then refreshes the open documents' diagnostics. It runs
// from a notification's handler or tracked work (a request, the
// debounce), so the server is not done waiting for its work yet.
func (s *Server) catchUpNames(p *openBook) {
	s.work.Add(1)
	go func() {
		defer s.work.Done()
		p.catchUpNames()
		s.republishOpen()
		s.redrawDialogue(s.ctx)
	}()
}

// isCodexText reports whether rel's editor text may be a codex file's:
// Markdown that is not a chapter.
func isCodexText(p *openBook, rel string) bool {
	return codex.IsMarkdown(rel) && !p.ms.IsChapter(rel)
}
