package server

import (
	"context"
	"fmt"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex/count"
	"github.com/quire-ink/quire/manuscript/bookmap"
	"github.com/quire-ink/quire/server/wire"
)

// quire.bookMap: the book at a glance (manuscript/bookmap), written to
// the book's cache folder and opened in the browser.

// quireBookMap writes the map of the book and, unless quiet, opens it:
// in the browser through window/showDocument {external: true} when the
// client can, else a message tells the writer where it is.
func (s *Server) quireBookMap(ctx context.Context, a wire.BookMapParams) (wire.BookMapResult, error) {
	proj, err := s.projectOf(ctx, a.BookParams)
	if err != nil {
		return wire.BookMapResult{}, err
	}
	// Every chapter's mentions: the map counts them all.
	if err := proj.waitIndexed(ctx); err != nil {
		return wire.BookMapResult{}, err
	}
	path := proj.cache.Map()
	if path == "" {
		return wire.BookMapResult{}, jsonrpc2.NewError(jsonrpc2.InternalError, "quire has no cache folder to write the book map to")
	}
	snap := proj.ms.Snapshot()
	cfg := proj.configOf()
	m := bookmap.Build(proj.catalog(), snap, bookmap.Options{
		Root: proj.real, Title: cfg.settings.Title, EditorURI: a.EditorURI,
		Timeline: proj.timelineFor(snap),
		Progress: new(proj.summary()),
		Dialogue: cfg.dialogue,
		Outline:  cfg.outline,
	})
	n, err := m.WriteFile(path)
	if err != nil {
		return wire.BookMapResult{}, err
	}
	res := wire.BookMapResult{Path: path, URI: s.names.URI(path), Bytes: n, Chapters: len(m.Chapters), Entries: len(m.Entries),
		Counts: count.Of(len(m.Chapters), "chapter") + ", " + count.Of(len(m.Entries), "codex entry") + " mentioned"}
	if a.Table {
		res.Table = mentionTable(m)
	}
	if a.Quiet {
		return res, nil
	}
	if s.showDocumentSupported() && s.showExternal(ctx, res.URI) {
		res.Shown = true
		return res, nil
	}
	s.showMessage(ctx, protocol.MessageTypeInfo, fmt.Sprintf("The book map (%s) is in %s: open it in your browser.", res.Counts, path))
	return res, nil
}

// mentionTable is the heatmap's rows as data.
func mentionTable(m *bookmap.Map) *wire.MentionTable {
	t := &wire.MentionTable{Chapters: []string{}, Titles: []string{}, Rows: []wire.MentionsRow{}, Mentioned: len(m.Entries)}
	for _, ch := range m.Chapters {
		t.Chapters = append(t.Chapters, ch.Label())
		t.Titles = append(t.Titles, ch.Title)
	}
	for _, e := range m.Rows() {
		t.Rows = append(t.Rows, wire.MentionsRow{Name: e.Name, Type: e.Type, Total: e.Total, Counts: m.Counts(e)})
	}
	return t
}

// bookMapTitle is the code action that runs quire.bookMap.
const bookMapTitle = "Open the book map"

// bookMapAction offers the map from any document of a book.
func bookMapAction(uri protocol.DocumentURI) codeAction {
	return codeAction{Title: bookMapTitle, Command: &actionCommand{Title: bookMapTitle, Command: wire.CommandBookMap,
		Arguments: []any{wire.BookMapParams{BookParams: wire.BookParams{URI: uri}}}}}
}

// atTitle says whether off lies on a heading line or in the front matter
// of text: where the writer looks at the book as a whole (a chapter's
// title, its pov and day) the map is offered, and prose keeps its list
// of actions short.
func atTitle(text string, off int) bool {
	off = max(0, min(off, len(text)))
	lineStart := strings.LastIndexByte(text[:off], '\n') + 1
	if strings.HasPrefix(strings.TrimLeft(text[lineStart:], " "), "#") {
		return true
	}
	if !strings.HasPrefix(text, "---") {
		return false
	}
	// The front matter runs from the opening fence to the next line
	// that is a fence.
	rest := text[min(len(text), strings.IndexByte(text+"\n", '\n')+1):]
	end := 0
	for end < len(rest) {
		nl := strings.IndexByte(rest[end:], '\n')
		line := rest[end:]
		if nl >= 0 {
			line = rest[end : end+nl]
		}
		if l := strings.TrimSpace(line); l == "---" || l == "..." {
			return off <= len(text)-len(rest)+end+len(line)
		}
		if nl < 0 {
			break
		}
		end += nl + 1
	}
	return false
}
