package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/quire-ink/quire/codex"
	mbook "github.com/quire-ink/quire/manuscript/book"
)

// canonStore is the codex a query command reads: the book's, with its
// series' when quire.yaml names one the writer trusts.
type canonStore struct {
	*codex.View
	book *mbook.Book
}

// Close releases the book's index and the series'.
func (c canonStore) Close() error { return c.book.Close() }

// openStore opens the project's codex for a query command. When another
// quire process holds the index, queries still work from a temporary
// in-memory index, and stderr says so.
func (g *globalOptions) openStore(ctx context.Context) (canonStore, error) {
	b, err := g.open(ctx, mbook.Options{Parts: mbook.Codex})
	if err != nil {
		return canonStore{}, err
	}
	return canonStore{View: b.View, book: b}, nil
}

func writeJSON(w interface{ Write([]byte) (int, error) }, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// progressBar draws "Reading 120/1000 files [====   ]" on a terminal,
// at most ten times a second.
type progressBar struct {
	mu   sync.Mutex
	w    *os.File
	last time.Time
	done bool
}

func newProgressBar(w any) *progressBar {
	f, ok := w.(*os.File)
	if !ok {
		return nil
	}
	info, err := f.Stat()
	if err != nil || info.Mode()&os.ModeCharDevice == 0 {
		return nil
	}
	return &progressBar{w: f}
}

func (p *progressBar) update(done, total int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if done < total && time.Since(p.last) < 100*time.Millisecond {
		return
	}
	p.last = time.Now()
	const width = 30
	fill := width * done / max(total, 1)
	bar := make([]byte, width)
	for i := range bar {
		switch {
		case i < fill:
			bar[i] = '='
		case i == fill:
			bar[i] = '>'
		default:
			bar[i] = ' '
		}
	}
	fmt.Fprintf(p.w, "\rReading %d/%d files [%s]", done, total, bar)
	p.done = true
}

func (p *progressBar) finish() {
	if p == nil || !p.done {
		return
	}
	fmt.Fprint(p.w, "\r\033[K")
}

// problemLines renders problems as path:line:col: severity: message.
func problemLines(root string, problems []codex.Problem) []string {
	sources := map[string]string{}
	out := make([]string, 0, len(problems))
	for _, p := range problems {
		src, ok := sources[p.Path]
		if !ok {
			if data, err := os.ReadFile(inBook(root, p.Path)); err == nil && len(data) <= codex.MaxEntryBytes {
				src = string(data)
			}
			sources[p.Path] = src
		}
		line, col := codex.LineColumn(src, p.Range.Start)
		out = append(out, fmt.Sprintf("%s:%d:%d: %s: %s", codex.PrintableName(p.Path), line, col, p.Severity, oneLine(p.Message)))
	}
	return out
}

// inBook is the file of a problem's path: relative to the book, or the
// absolute path of a file of its series canon.
func inBook(root, path string) string {
	if filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(root, filepath.FromSlash(path))
}
