package server

import (
	"sync"

	"go.lsp.dev/protocol"
)

// publishOrder keeps the publications of a document's diagnostics that
// publishDiagnosticsAt computes in the order they were begun: one begun
// before another and done after it is dropped, not sent over it. Two
// computed side by side otherwise raced: the book's start published
// quire.yaml's diagnostics, computed while the book was not yet trusted,
// after the writer's trust had published them cleared, and the editor
// went on showing a warning that no longer held.
type publishOrder struct {
	mu    sync.Mutex
	begun map[protocol.DocumentURI]uint64
	sent  map[protocol.DocumentURI]uint64
}

// begin numbers a publication of uri's diagnostics about to be computed.
func (o *publishOrder) begin(uri protocol.DocumentURI) uint64 {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.begun == nil {
		o.begun, o.sent = map[protocol.DocumentURI]uint64{}, map[protocol.DocumentURI]uint64{}
	}
	o.begun[uri]++
	return o.begun[uri]
}

// send calls notify for publication n of uri unless one begun after it
// was sent already, and reports whether it did. notify runs under the
// lock, so two publications reach the editor in the order checked.
func (o *publishOrder) send(uri protocol.DocumentURI, n uint64, notify func()) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.sent[uri] > n {
		return false
	}
	o.sent[uri] = n
	notify()
	return true
}
