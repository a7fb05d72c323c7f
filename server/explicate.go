package server

import (
	"context"
	"encoding/json"
	"errors"
	"sync"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/server/wire"
)

// passageIndex is a project's manuscript paragraph index, opened on the
// first explicate (never while code actions are listed) and kept until
// the project closes.
type passageIndex struct {
	mu     sync.Mutex
	p      *manuscript.Passages
	closed bool
}

// open returns the index, opening it beside the codex index in the
// cache, or in memory when another quire process holds that folder.
func (x *passageIndex) open(ctx context.Context, proj *project, opts Options) (*manuscript.Passages, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.closed {
		return nil, errors.New("the project is closed")
	}
	if x.p != nil {
		return x.p, nil
	}
	popts := manuscript.PassageOptions{}
	// The book's cache, laid out as for the command line (manuscript/book).
	dir := proj.cache.Passages()
	var p *manuscript.Passages
	err := codex.ErrIndexLocked
	if dir != "" && !proj.inMemory.Load() {
		p, err = manuscript.OpenPassages(ctx, dir, popts)
	}
	// Another process holding the folder, or a cache that fails (full,
	// read-only, deleted), leaves this session's index in memory.
	if err != nil && ctx.Err() == nil {
		popts.InMemory = true
		p, err = manuscript.OpenPassages(ctx, "", popts)
	}
	if err != nil {
		return nil, err
	}
	x.p = p
	return p, nil
}

// toMemory replaces an index on disk whose writes failed by an empty one
// in memory, which the caller fills with a Sync.
func (x *passageIndex) toMemory(ctx context.Context, failed *manuscript.Passages) (*manuscript.Passages, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.closed {
		return nil, errors.New("the project is closed")
	}
	if x.p != failed && x.p != nil {
		return x.p, nil // another request replaced it already
	}
	_ = failed.Close()
	p, err := manuscript.OpenPassages(ctx, "", manuscript.PassageOptions{InMemory: true})
	if err != nil {
		x.p = nil
		return nil, err
	}
	x.p = p
	return p, nil
}

// close releases the index; later opens fail.
func (x *passageIndex) close() {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.closed = true
	if x.p != nil {
		_ = x.p.Close()
		x.p = nil
	}
}

// explicateResult is manuscript.Explication with places an editor can
// open: the quote's source and each passage as a location.
type explicateResult struct {
	*manuscript.Explication
	Source   *explicateSource   `json:"source,omitempty"`
	Passages []explicatePassage `json:"passages"`
}

type explicateSource struct {
	manuscript.QuoteSource
	Location *protocol.Location `json:"location,omitempty"`
}

type explicatePassage struct {
	manuscript.Passage
	Location *protocol.Location `json:"location,omitempty"`
}

// quireExplicate finds the manuscript passages that support a quoted
// sentence of the codex. The paragraph index is brought up to date with
// the manuscript (the editor's open text included) first.
func (s *Server) quireExplicate(ctx context.Context, params json.RawMessage) (any, error) {
	a, err := decode[wire.ExplicateParams](params)
	if err != nil {
		return nil, err
	}
	if a.Quote == "" {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "quote is required")
	}
	proj, err := s.projectOf(ctx, a.BookParams)
	if err != nil {
		return nil, err
	}
	idx, err := proj.passages.open(ctx, proj, s.opts)
	if err != nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InternalError, "open the passage index: "+err.Error())
	}
	snap := proj.ms.Snapshot()
	_, err = idx.Sync(ctx, snap.Units())
	if err != nil && ctx.Err() == nil && idx.Report().Dir != "" {
		s.log.Warn("manuscript index not written; keeping it in memory", "root", proj.real, "err", err)
		if idx, err = proj.passages.toMemory(ctx, idx); err == nil {
			_, err = idx.Sync(ctx, snap.Units())
		}
	}
	if err != nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InternalError, "index the manuscript: "+err.Error())
	}
	ex, err := idx.Explicate(ctx, a.Quote, manuscript.ExplicateOptions{Limit: a.Limit, Catalog: proj.store.Catalog()})
	if err != nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error())
	}
	out := explicateResult{Explication: ex, Passages: make([]explicatePassage, len(ex.Passages))}
	for i, ps := range ex.Passages {
		out.Passages[i] = explicatePassage{Passage: ps}
		if u, ok := snap.Unit(ps.Path); ok {
			out.Passages[i].Location = &protocol.Location{URI: proj.uri(ps.Path), Range: newLineIndex(u.Text).rangeOf(ps.Range.Start, ps.Range.End)}
		}
	}
	if src := ex.Source; src != nil {
		out.Source = &explicateSource{QuoteSource: *src}
		if cur, err := s.currentText(proj, src.Path); err == nil && cur.exists && src.Range.End <= len(cur.text) && src.Range.Start <= src.Range.End {
			out.Source.Location = &protocol.Location{URI: cur.uri, Range: cur.lines.rangeOf(src.Range.Start, src.Range.End)}
		}
	}
	return out, nil
}
