package codex

import (
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
)

// A book's first opening parses every codex file, and each entry keeps
// its file's text (Entry.Source): at 10,000 entries some 15 MB, with
// every name, alias and front matter value a piece of it. A
// sourceArena keeps those texts out of the heap, in a file of quire's
// cache mapped into memory, as a later start's entries already are
// (state_map_unix.go): the pages are the system's, written back to the
// cache's disk and dropped from the process when it has read them
// (release), and the collector neither scans nor counts them. Where no
// such file can be had (another system, a full disk, a file system
// that refuses to map), the texts go to the heap as before.
//
// An arena is never unmapped: the entries whose text it holds live as
// long as the store does, and every catalog shares them. Nothing is
// written to a part of it once that part has been handed out.
type sourceArena struct {
	data []byte
	// off is how much of data is handed out.
	off atomic.Int64
}

// minArenaBytes is the least a batch of files must hold for an arena:
// a small book's texts are better kept in the heap than in a file.
const minArenaBytes = 1 << 20

// keep returns b as a string: a copy in the arena while it has room,
// else in the heap. A nil arena copies into the heap.
func (a *sourceArena) keep(b []byte) string {
	if a == nil || len(b) == 0 {
		return string(b)
	}
	n := int64(len(b))
	end := a.off.Add(n)
	if end > int64(len(a.data)) {
		return string(b)
	}
	part := a.data[end-n : end : end]
	copy(part, b)
	return unsafe.String(&part[0], len(part))
}

// mappedSources are the mappings a store's entries' texts live in (its
// arenas, and the saved state a start read), to release their pages
// together.
type mappedSources struct {
	mu   sync.Mutex
	list [][]byte
}

func (m *mappedSources) add(data []byte) {
	if len(data) == 0 {
		return
	}
	m.mu.Lock()
	m.list = append(m.list, data)
	m.mu.Unlock()
}

// releaseSourcesEvery is how often the texts' pages are dropped from the
// process while a start reads them: the start reads every entry's name,
// and the search index's build every entry's text, and without it a
// book's first opening held them all (15 MB at 10,000 entries) when its
// memory was highest.
const releaseSourcesEvery = 200 * time.Millisecond

// releaseUntil drops the mappings' pages every releaseSourcesEvery until
// the search index is built (indexed closes), and once more then, or the
// store closes. The store's one index build calls it (startBuild).
func (m *mappedSources) releaseUntil(indexed, closing <-chan struct{}) {
	go func() {
		t := time.NewTicker(releaseSourcesEvery)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				m.release()
			case <-indexed:
				m.release()
				return
			case <-closing:
				return
			}
		}
	}()
}

// release drops every mapping's pages from the process (releaseMapping);
// reading an entry's text after it takes the page back from the system's
// cache.
func (m *mappedSources) release() {
	m.mu.Lock()
	list := m.list
	m.mu.Unlock()
	for _, data := range list {
		releaseMapping(data)
	}
}
