package server

import (
	"context"
	"encoding/json"
	"errors"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/server/textdoc"
)

func (s *Server) didOpen(ctx context.Context, p protocol.DidOpenTextDocumentParams) error {
	doc := textdoc.NewDocument(p.TextDocument.URI, p.TextDocument.Version, p.TextDocument.Text)
	s.names.Note(doc.URI)
	s.sess.open(doc)
	s.discoverBook(ctx, doc.URI)
	if s.warnOutsideBook(ctx, doc.URI, doc.Version) {
		return nil
	}
	s.queueEdit(doc)
	s.scheduleDiagnostics(doc.URI)
	return nil
}

// decodeDidChange reads didChange's params strictly (textdoc.DecodeDidChangeParams).
func decodeDidChange(params json.RawMessage) (protocol.DidChangeTextDocumentParams, error) {
	p, err := textdoc.DecodeDidChangeParams(params)
	if err != nil {
		return p, jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error())
	}
	return p, nil
}

func (s *Server) didChange(ctx context.Context, p protocol.DidChangeTextDocumentParams) error {
	uri := p.TextDocument.URI
	old, order, ok := s.sess.changing(uri)
	if !ok {
		return errors.New("didChange for a document that is not open")
	}
	// Only the text and its lines change here, in proportion to the
	// edit, in version order (textdoc.ChangeOrder); the book takes the text
	// after a pause (edit_queue.go).
	doc, err := order.Add(uri, p.TextDocument.Version, p.ContentChanges)
	if err != nil {
		// The old text stays: nothing the writer typed is half-applied.
		return err
	}
	if doc == old {
		// Waiting for the versions before it.
		return nil
	}
	s.queued.Lock()
	s.sess.update(doc)
	s.queueEdit(doc)
	s.queued.Unlock()
	s.scheduleDiagnostics(uri)
	return nil
}

func (s *Server) didClose(ctx context.Context, p protocol.DidCloseTextDocumentParams) error {
	key := textdoc.DocKey(p.TextDocument.URI)
	s.sess.close(p.TextDocument.URI)
	s.mu.Lock()
	if t, ok := s.diagTimers[key]; ok {
		t.timer.Stop()
		delete(s.diagTimers, key)
	}
	// A publication computed and waiting for the end of its debounce
	// would otherwise land after the clearing below.
	s.cancelDiagRunLocked(key)
	s.mu.Unlock()
	// A closed chapter's diagnostics are cleared; a codex file's problems
	// on disk stay listed, as for any file not open.
	s.sendDiagnostics(ctx, p.TextDocument.URI, 0, nil)
	path, ok := textdoc.URIPath(p.TextDocument.URI)
	if !ok {
		return nil
	}
	proj, rel, ok := s.projectFor(path)
	if !ok || !proj.loaded() {
		return nil
	}
	var closeErr error
	proj.closeQueued(rel, func() {
		if proj.dropCodexText(rel) && proj.namesChanged(rel) {
			s.catchUpNames(proj)
		}
		closeErr = proj.ms.CloseDocument(ctx, rel)
	})
	return closeErr
}

// overlayAllLocked hands every open document of p to its manuscript;
// the session's lock is held, so no document opens or changes meanwhile.
func (s *Server) overlayAllLocked(p *openBook) {
	codexOpen := false
	for _, d := range s.sess.docs {
		path, ok := textdoc.URIPath(d.URI)
		if !ok {
			continue
		}
		rel, ok := p.rel(path)
		if !ok || !p.holds(path) {
			continue
		}
		if err := p.ms.OpenDocument(s.ctx, rel, d.Text, d.Version); err != nil {
			s.log.Warn("document not taken into the manuscript", "path", rel, "err", err)
		}
		if isCodexText(p, rel) && p.setCodexText(rel, d.Text) {
			codexOpen = true
		}
	}
	if codexOpen {
		// Not yet ready: the manuscript is scanned with these names next.
		p.overlay.namesMu.Lock()
		p.setMatcherFor(p.catalog())
		p.overlay.namesMu.Unlock()
	}
}
