package server

import (
	"context"
	"fmt"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/server/textdoc"
	"github.com/quire-ink/quire/server/wire"
)

// quire/explicate and quire.explicate: "Where is this established?", the
// manuscript passages that support a sentence of the codex.

// quireExplicate finds the manuscript passages that support a quoted
// sentence of the codex. The paragraph index is brought up to date with
// the manuscript (the editor's open text included) first.
func (s *Server) quireExplicate(ctx context.Context, a wire.ExplicateParams) (wire.ExplicateResult, error) {
	if a.Quote == "" {
		return wire.ExplicateResult{}, jsonrpc2.NewError(jsonrpc2.InvalidParams, "quote is required")
	}
	proj, err := s.projectOf(ctx, a.BookParams)
	if err != nil {
		return wire.ExplicateResult{}, err
	}
	idx, err := proj.passages.open(ctx, proj, s.opts)
	if err != nil {
		return wire.ExplicateResult{}, jsonrpc2.NewError(jsonrpc2.InternalError, "open the passage index: "+err.Error())
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
		return wire.ExplicateResult{}, jsonrpc2.NewError(jsonrpc2.InternalError, "index the manuscript: "+err.Error())
	}
	ex, err := idx.Explicate(ctx, a.Quote, manuscript.ExplicateOptions{Limit: a.Limit, Catalog: proj.store.Catalog()})
	if err != nil {
		return wire.ExplicateResult{}, jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error())
	}
	// The answer is the explication with places an editor can open: the
	// quote's source and each passage as a location.
	out := wire.ExplicateResult{Quote: ex.Quote, Passages: make([]wire.ExplicatePassage, len(ex.Passages))}
	for i, ps := range ex.Passages {
		out.Passages[i] = wire.ExplicatePassage{Passage: wire.Passage(ps)}
		if u, ok := snap.Unit(ps.Path); ok {
			out.Passages[i].Location = &protocol.Location{URI: proj.uri(ps.Path), Range: textdoc.NewLines(u.Text).RangeOf(ps.Range.Start, ps.Range.End)}
		}
	}
	if src := ex.Source; src != nil {
		out.Source = &wire.ExplicateSource{QuoteSource: wire.QuoteSource(*src)}
		if cur, err := s.currentText(proj, src.Path); err == nil && cur.exists && src.Range.End <= len(cur.text) && src.Range.Start <= src.Range.End {
			out.Source.Location = &protocol.Location{URI: cur.uri, Range: cur.lines.RangeOf(src.Range.Start, src.Range.End)}
		}
	}
	return out, nil
}

// explicatePreview bounds the passages an explicate message quotes.
const explicatePreview = 3

// quireExplicateCommand is quire.explicate as a command: the passages
// that support the quote, as a document.
func (s *Server) quireExplicateCommand(ctx context.Context, a wire.ExplicateParams) (wire.ExplicateResult, error) {
	res, err := s.quireExplicate(ctx, a)
	if err != nil {
		return res, err
	}
	if len(res.Passages) == 0 {
		s.showMessage(ctx, protocol.MessageTypeInfo, fmt.Sprintf("No passage of the manuscript establishes %q.", foldPreview(res.Quote, 80)))
		return res, nil
	}
	var doc, msg strings.Builder
	fmt.Fprintf(&doc, "# Where is this established?\n\n")
	for _, line := range strings.Split(strings.TrimSpace(res.Quote), "\n") {
		fmt.Fprintf(&doc, "> %s\n", line)
	}
	fmt.Fprintf(&msg, "Where %q is established:", foldPreview(res.Quote, 80))
	for i, p := range res.Passages {
		place := p.Path
		if p.Location != nil {
			place = fmt.Sprintf("%s:%d", p.Path, p.Location.Range.Start.Line+1)
		}
		title := p.Title
		if title == "" {
			title = p.Path
		}
		fmt.Fprintf(&doc, "\n## %s\n\n", title)
		if p.Location != nil {
			fmt.Fprintf(&doc, "[%s](%s)\n\n", place, locationURI(*p.Location))
		} else {
			fmt.Fprintf(&doc, "%s\n\n", place)
		}
		fmt.Fprintf(&doc, "%s\n", strings.TrimSpace(p.Text))
		if i < explicatePreview {
			fmt.Fprintf(&msg, "\n\n%s: %s", place, foldPreview(p.Text, answerPreview))
		}
	}
	path, err := s.writeCacheDoc("explications", "passages", ".md", doc.String())
	if err != nil {
		s.log.Warn("explication document not written", "err", err)
		s.showMessage(ctx, protocol.MessageTypeInfo, msg.String())
		return res, nil
	}
	fmt.Fprintf(&msg, "\n\nAll passages: %s", path)
	s.showDoc(ctx, path, msg.String())
	return res, nil
}

// locationURI is a link to a location's line, in the form editors follow
// in Markdown (file:///…#L12).
func locationURI(l protocol.Location) string {
	return fmt.Sprintf("%s#L%d", l.URI, l.Range.Start.Line+1)
}
