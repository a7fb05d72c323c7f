package manuscript

import "sync"

// Document is the editor's text of an open file.
type Document struct {
	Text    string
	Version int32
}

// Overlay holds the text of documents open in the editor, by
// project-relative path. While a document is open its text replaces the
// file on disk for every read; closing it falls back to disk. It is safe
// for concurrent use.
type Overlay struct {
	mu   sync.RWMutex
	docs map[string]Document
}

// NewOverlay returns an empty overlay.
func NewOverlay() *Overlay { return &Overlay{docs: map[string]Document{}} }

// Set records the editor's text of the document at rel. An update older
// than the version already held is ignored, so a late edit never
// replaces a newer one; it reports whether the text was taken.
func (o *Overlay) Set(rel string, text string, version int32) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if cur, ok := o.docs[rel]; ok && version != 0 && cur.Version > version {
		return false
	}
	o.docs[rel] = Document{Text: text, Version: version}
	return true
}

// Close forgets the document at rel; reads go to disk again.
func (o *Overlay) Close(rel string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	delete(o.docs, rel)
}

// Get returns the open document at rel.
func (o *Overlay) Get(rel string) (Document, bool) {
	o.mu.RLock()
	defer o.mu.RUnlock()
	d, ok := o.docs[rel]
	return d, ok
}

// Paths lists the open documents.
func (o *Overlay) Paths() []string {
	o.mu.RLock()
	defer o.mu.RUnlock()
	out := make([]string, 0, len(o.docs))
	for p := range o.docs {
		out = append(out, p)
	}
	return out
}
