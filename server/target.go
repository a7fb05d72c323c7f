package server

import (
	"context"
	"slices"
	"sort"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/server/textdoc"
)

// target is what a positional request is about: a document of a loaded
// project, its text (the editor's when open) and the byte offset asked.
type target struct {
	proj   *openBook
	rel    string
	text   string
	lines  *textdoc.Lines
	offset int
	snap   *manuscript.Snapshot
	cat    *codex.Catalog
	// series is set for a file of the series folder of proj
	// (series_target.go): rel is then the file's real path.
	series *seriesFile
}

// resolveTarget finds the document and project of a request. ok is false,
// with no error, when there is nothing quire can say: a non-file URI, a
// file outside every project and every open book's series folder, a
// project that failed to load. A file of a series folder is answered
// by the canon of the first open book that reads it (seriesBookFor).
func (s *Server) resolveTarget(ctx context.Context, pos protocol.TextDocumentPositionParams) (*target, bool, error) {
	s.names.Note(pos.TextDocument.URI)
	path, ok := textdoc.URIPath(pos.TextDocument.URI)
	if !ok {
		return nil, false, nil
	}
	var series *seriesFile
	proj, rel, ok := s.projectFor(path)
	if !ok {
		if proj, series, ok = s.seriesBookFor(path); !ok {
			return nil, false, nil
		}
		rel = series.path
	}
	if err := s.ready(ctx, proj); err != nil {
		if ctx.Err() != nil {
			return nil, false, ctx.Err()
		}
		return nil, false, nil
	}
	t := &target{proj: proj, rel: rel, snap: proj.ms.Snapshot(), cat: proj.catalog(), series: series}
	if doc, ok := s.openText(pos.TextDocument.URI); ok {
		t.text, t.lines = doc.Text, doc.Lines
	} else if series != nil {
		text, err := series.savedText()
		if err != nil {
			return nil, false, nil
		}
		t.text, t.lines = text, textdoc.NewLines(text)
	} else {
		u, err := t.snap.Document(rel)
		if err != nil {
			return nil, false, nil
		}
		t.text, t.lines = u.Text, textdoc.NewLines(u.Text)
	}
	off, err := t.lines.Offset(pos.Position)
	if err != nil {
		return nil, false, jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error())
	}
	t.offset = off
	return t, true, nil
}

// entryAt finds the codex entry named at the target's offset: a [[link]]
// in a codex file, or a mention of a name or alias in any document. r is
// the range of the name in the text.
func (t *target) entryAt() (e *codex.Entry, r codex.Range, ok bool) {
	if e, r, ok := t.linkAt(); ok {
		return e, r, true
	}
	m, ok := t.mentionAt()
	if !ok {
		return nil, codex.Range{}, false
	}
	e, ok = t.cat.Get(m.Entry)
	return e, m.Range, ok
}

// canonAt is entryAt for hover and go to definition, which also read a
// chapter's front matter: the name of a `pov:` or `location:` there is
// the entry's too.
func (t *target) canonAt() (e *codex.Entry, r codex.Range, ok bool) {
	if e, r, ok := t.frontMatterAt(); ok {
		return e, r, true
	}
	return t.entryAt()
}

// frontMatterAt resolves the `pov:` or `location:` value under the
// offset in a chapter's front matter, as the unknown-reference check
// reads it: a name or alias, a progression's included. Where a name
// fits several entries, the one of the key's type (a character for pov,
// a location for location) is taken.
func (t *target) frontMatterAt() (*codex.Entry, codex.Range, bool) {
	if t.series != nil {
		// A series file is never a chapter.
		return nil, codex.Range{}, false
	}
	// Only an offset before the front matter's closing fence can be on
	// a pov or location: a hover in the prose reads no front matter.
	if !strings.HasPrefix(strings.TrimPrefix(t.text, "\uFEFF"), "---") {
		return nil, codex.Range{}, false
	}
	if end := strings.Index(t.text[min(3, len(t.text)):], "\n---"); end < 0 || t.offset > end+3 {
		return nil, codex.Range{}, false
	}
	u, ok := chapterUnit(t.snap, t.rel, t.text, 0)
	if !ok {
		return nil, codex.Range{}, false
	}
	for _, f := range []struct {
		name string
		r    codex.Range
		typ  codex.Type
	}{
		{u.Meta.POV, u.Meta.POVRange, codex.TypeCharacter},
		{u.Meta.Location, u.Meta.LocationRange, codex.TypeLocation},
	} {
		if f.name == "" || !f.r.Contains(t.offset) {
			continue
		}
		named := t.proj.timelineFor(t.snap).Canon().Named(f.name)
		if len(named) == 0 {
			return nil, codex.Range{}, false
		}
		e := named[0]
		if i := slices.IndexFunc(named, func(e *codex.Entry) bool { return e.Type == f.typ }); i >= 0 {
			e = named[i]
		}
		return e, f.r, true
	}
	return nil, codex.Range{}, false
}

// linkAt resolves a [[link]] under the offset in a codex entry's text,
// the book's or its series'.
func (t *target) linkAt() (*codex.Entry, codex.Range, bool) {
	typ, ok := t.entryType()
	if !ok {
		return nil, codex.Range{}, false
	}
	// The entry's type, which its folder may give: without it an entry
	// whose front matter says no type: would read as prose.
	parsed, _ := codex.Parse(t.rel, []byte(t.text), typ)
	if parsed == nil {
		return nil, codex.Range{}, false
	}
	for _, l := range parsed.Links {
		if l.Range.Contains(t.offset) {
			if e, ok := t.cat.Resolve(l.LinkName()); ok {
				return e, l.Range, true
			}
		}
	}
	return nil, codex.Range{}, false
}

// entryType is the type of the codex entry the target's file is: of
// the book, or of the series, overridden by the book or not. ok is false
// for a file that is no entry.
func (t *target) entryType() (codex.Type, bool) {
	if t.series != nil {
		return t.series.entryType()
	}
	e, ok := t.cat.Get(t.rel)
	if !ok {
		return "", false
	}
	return e.Type, true
}

// mentionAt finds the mention under the offset: from the manuscript's
// index when it holds this very text, else by scanning the text.
func (t *target) mentionAt() (manuscript.Mention, bool) {
	ix := t.snap.Mentions()
	if u, ok := t.snap.Unit(t.rel); ok && u.Text == t.text && t.indexed() {
		return ix.MentionAt(t.rel, t.offset)
	}
	mentions := t.proj.scanText(t.text)
	i := sort.Search(len(mentions), func(i int) bool { return mentions[i].Range.End > t.offset })
	if i < len(mentions) && mentions[i].Range.Start <= t.offset {
		return mentions[i], true
	}
	return manuscript.Mention{}, false
}

// indexed reports whether the snapshot's mentions were found with the
// project's current names; until then features scan what they need.
func (t *target) indexed() bool {
	return t.snap.Mentions().Matcher() == t.proj.matcher.Load()
}

// waitIndexed waits until the whole manuscript has been scanned with the
// project's names, and moves the target to that snapshot: references and
// rename need every mention.
func (t *target) waitIndexed(ctx context.Context) error {
	if err := t.proj.waitIndexed(ctx); err != nil {
		return err
	}
	t.snap = t.proj.ms.Snapshot()
	return nil
}

// textScan is the last scan of a text the mention index did not answer
// for (scanText).
type textScan struct {
	matcher  *manuscript.Matcher
	text     string
	mentions []manuscript.Mention
}

// scanText finds the mentions in text with the book's current names,
// keeping the last scan: until the mention index has the chapters, each
// hover scanned the whole chapter it was in, twice (the name, then its
// namesakes), and an editor that hovers again and again while the start
// runs took CPU from that start. The scan is kept only for the same
// names and the same text, so it is the one a new scan would give; the
// mentions are shared and must not be changed.
func (p *openBook) scanText(text string) []manuscript.Mention {
	m := p.matcher.Load()
	if last := p.lastScan.Load(); last != nil && last.matcher == m && last.text == text {
		return last.mentions
	}
	mentions := m.Scan(text)
	p.lastScan.Store(&textScan{matcher: m, text: text, mentions: mentions})
	return mentions
}
