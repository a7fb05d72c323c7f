package server

import (
	"path/filepath"
	"slices"
	"sync"

	"github.com/quire-ink/quire/server/textdoc"
	"go.lsp.dev/protocol"
)

// session is the workspace the editor has open, after gopls's session:
// the folders it named, the books found in and below them, the documents
// open with the order of their changes, and the selection captured for
// the next advisor turn. It has a lock of its own, apart from the
// server's (the connection's lifecycle, its requests in flight, the
// client's capabilities, the diagnostics' timers), so reading what is
// open never waits on the transport. A request takes from it what it
// needs (a document, the books) and works on that: documents are
// immutable, and a book guards its own state.
type session struct {
	mu sync.Mutex
	// roots are the workspace folders of initialize; loading says the
	// books in them are being opened (initialized came).
	roots   []string
	loading bool
	// projects are the books open, in the order they were found.
	projects []*openBook
	// noBookTold says the writer was told a folder is in no book.
	noBookTold bool
	// docs and orders are keyed by textdoc.DocKey: one document whatever the
	// spelling of its URI. orders put each open document's changes in
	// version order.
	docs   map[protocol.DocumentURI]*textdoc.Document
	orders map[protocol.DocumentURI]*textdoc.ChangeOrder
	// selection is the last selection captured for an advisor turn.
	selection *capturedSelection
}

func newSession() *session {
	return &session{docs: map[protocol.DocumentURI]*textdoc.Document{}, orders: map[protocol.DocumentURI]*textdoc.ChangeOrder{}}
}

// setRoots records the workspace folders initialize named.
func (ws *session) setRoots(roots []string) {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	ws.roots = roots
}

// startLoading returns the folders to open books in, once: a client that
// says initialized twice gets its books once.
func (ws *session) startLoading() []string {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if ws.loading {
		return nil
	}
	ws.loading = true
	return ws.roots
}

// books are the books open now.
func (ws *session) books() []*openBook {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	return slices.Clone(ws.projects)
}

// firstBook is the first book found, nil when none is open.
func (ws *session) firstBook() *openBook {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if len(ws.projects) == 0 {
		return nil
	}
	return ws.projects[0]
}

// addBook adds p unless a book at the same place is open; it reports
// whether p was added.
func (ws *session) addBook(p *openBook) bool {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	for _, q := range ws.projects {
		if q.real == p.real {
			return false
		}
	}
	ws.projects = append(ws.projects, p)
	return true
}

// firstNoBook reports whether this is the first time the session found
// a folder in no book, and remembers that it was told.
func (ws *session) firstNoBook() bool {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	told := ws.noBookTold
	ws.noBookTold = true
	return !told
}

// captured is the selection last captured for an advisor turn.
func (ws *session) captured() *capturedSelection {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	return ws.selection
}

// capture keeps c as the selection of the next advisor turn.
func (ws *session) capture(c *capturedSelection) {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	ws.selection = c
}

// doc is the open document uri names.
func (ws *session) doc(uri protocol.DocumentURI) (*textdoc.Document, bool) {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	d, ok := ws.docs[textdoc.DocKey(uri)]
	return d, ok
}

// docAt is the open document of the file at full, however its URI is
// spelled; nil when it is not open.
func (ws *session) docAt(full string) *textdoc.Document {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if d, ok := ws.docs[textdoc.DocKey(textdoc.PathURI(full))]; ok {
		return d
	}
	for uri, d := range ws.docs {
		if p, ok := textdoc.URIPath(uri); ok && filepath.Clean(p) == filepath.Clean(full) {
			return d
		}
	}
	return nil
}

// openURIs are the URIs of the documents open.
func (ws *session) openURIs() []protocol.DocumentURI {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	uris := make([]protocol.DocumentURI, 0, len(ws.docs))
	for _, d := range ws.docs {
		uris = append(uris, d.URI)
	}
	return uris
}

// open records doc, just opened, with a fresh order for its changes.
func (ws *session) open(doc *textdoc.Document) {
	key := textdoc.DocKey(doc.URI)
	ws.mu.Lock()
	defer ws.mu.Unlock()
	ws.docs[key] = doc
	ws.orders[key] = textdoc.NewChangeOrder(doc)
}

// changing is the open document uri names and the order its changes
// take; ok is false when it is not open.
func (ws *session) changing(uri protocol.DocumentURI) (*textdoc.Document, *textdoc.ChangeOrder, bool) {
	key := textdoc.DocKey(uri)
	ws.mu.Lock()
	defer ws.mu.Unlock()
	d, ok := ws.docs[key]
	return d, ws.orders[key], ok
}

// update records doc as the open document's text now.
func (ws *session) update(doc *textdoc.Document) {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	ws.docs[textdoc.DocKey(doc.URI)] = doc
}

// close forgets the document uri names.
func (ws *session) close(uri protocol.DocumentURI) {
	key := textdoc.DocKey(uri)
	ws.mu.Lock()
	defer ws.mu.Unlock()
	delete(ws.docs, key)
	delete(ws.orders, key)
}
