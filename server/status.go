package server

import (
	"context"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/quire-ink/quire/codex/count"
	"github.com/quire-ink/quire/llm/endpoint"
	"github.com/quire-ink/quire/server/wire"
)

// The books' state, for a plugin's status bar: quire/status answers with
// every book, and the server sends quire/status with one book each time
// its state or counts change. quire/reindex reads a book again.
//
// Book states, in the order a book goes through them.
const (
	stateLoading  = "loading"
	stateIndexing = "indexing"
	stateReady    = "ready"
	stateError    = "error"
)

func (p *openBook) status() wire.BookStatus {
	st := wire.BookStatus{Root: p.real, State: stateLoading}
	select {
	case <-p.ready:
	default:
		return st
	}
	if p.err != nil {
		st.State, st.Message = stateError, p.err.Error()
		return st
	}
	// The book's own problems (its series' are shown on the series'
	// files), but every entry it reads: a book of a series reads
	// thousands it does not hold itself.
	st.Entries, st.Problems = p.catalog().Len(), len(p.store.Catalog().Problems())
	st.Chapters = len(p.ms.Snapshot().Units())
	problems := "no problems"
	if st.Problems > 0 {
		problems = count.Of(st.Problems, "problem")
	}
	st.Counts = count.Of(st.Entries, "codex entry") + ", " + count.Of(st.Chapters, "chapter") + ", " + problems
	if series := p.seriesStore(); series != nil {
		st.Series = series.Root()
	}
	st.Provider = providerLine(p.configOf().provider)
	st.State = stateIndexing
	select {
	case <-p.indexed:
		st.State = stateReady
	default:
	}
	// Short, for a status bar: the showMessage said the rest.
	switch {
	case p.store.Fallback() != "":
		st.Message = "index kept in memory: its cache could not be written"
	case p.locked:
		st.Message = "index kept in memory: another quire process holds its cache"
	}
	return st
}

// publishStatus tells the client where a book stands, when that changed
// since it was last told.
func (s *Server) publishStatus(ctx context.Context, p *openBook) {
	// Held while sending, so that two callers cannot send their states
	// out of order.
	p.statusMu.Lock()
	defer p.statusMu.Unlock()
	st := p.status()
	if p.lastStatus != nil && *p.lastStatus == st {
		return
	}
	p.lastStatus = &st
	if err := s.conn.Notify(ctx, wire.MethodStatus, st); err != nil {
		s.log.Debug("status not sent", "err", err)
	}
}

func (s *Server) quireStatus(context.Context) (wire.StatusResult, error) {
	projects := s.sess.books()
	out := wire.StatusResult{Books: []wire.BookStatus{}}
	for _, p := range projects {
		out.Books = append(out.Books, p.status())
	}
	return out, nil
}

// quireReindex reads the whole book again, every codex file and chapter,
// whatever the index believes it knows, and rewrites the index.
func (s *Server) quireReindex(ctx context.Context, a wire.BookParams) (wire.ReindexResult, error) {
	proj, err := s.projectOf(ctx, a)
	if err != nil {
		return wire.ReindexResult{}, err
	}
	if err := proj.waitIndexed(ctx); err != nil {
		return wire.ReindexResult{}, err
	}
	start := time.Now()
	ch, _, err := proj.store.Rebuild(ctx)
	if err != nil {
		return wire.ReindexResult{}, jsonrpc2.NewError(jsonrpc2.InternalError, "reindex: "+err.Error())
	}
	proj.follow(ctx, ch, s.log)
	s.publishCodexProblems(ctx, proj)
	s.republishOpen()
	s.publishStatus(ctx, proj)
	return wire.ReindexResult{BookStatus: proj.status(), MS: time.Since(start).Milliseconds()}, nil
}

// providerLine is BookStatus.Provider: what the settings name, never a
// key (a key is never in these settings, only the variable naming one).
func providerLine(ps endpoint.ProviderSettings) string {
	switch {
	case ps.Model != "" && ps.BaseURL != "":
		return ps.Model + " at " + ps.BaseURL
	case ps.Model != "":
		return ps.Model
	default:
		return ps.BaseURL
	}
}
