package server

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/manuscript/snapshot"
	"github.com/quire-ink/quire/server/wire"
)

// Code actions of the snapshots, for every editor (Helix and eglot reach
// them only this way). At the chapter's title: keep the chapter or the
// book, show the chapter's snapshots, restore the chapter as its latest
// other version had it. Anywhere in the chapter: restore the paragraphs
// at the cursor as each of the last few versions had them, when they
// differ there.

const (
	snapshotChapterTitle = "quire: Snapshot this chapter"
	snapshotBookTitle    = "quire: Snapshot the book"
	snapshotShowTitle    = "quire: Show this chapter's snapshots"
	// restoreParagraphVersions is how many recent versions offer their
	// paragraph at the cursor.
	restoreParagraphVersions = 3
	// maxDeletedOffered bounds the deleted chapters offered at a title.
	maxDeletedOffered = 5
)

func (s *Server) snapshotActions(ctx context.Context, p protocol.CodeActionParams, proj *openBook, rel string) []codeAction {
	if proj.snaps == nil {
		return nil
	}
	// Offered once the store has opened; a cursor move never waits.
	st := proj.snaps.storeNow()
	if st == nil {
		return nil
	}
	t, ok, err := s.resolveTarget(ctx, protocol.TextDocumentPositionParams{TextDocument: p.TextDocument, Position: p.Range.Start})
	if err != nil || !ok || t.proj != proj || t.series != nil {
		return nil
	}
	uri := p.TextDocument.URI
	command := func(title, name string, arg any) codeAction {
		return codeAction{Title: title, Command: &actionCommand{Title: title, Command: name, Arguments: []any{arg}}}
	}
	var out []codeAction
	vs, err := st.Versions(rel)
	if err != nil {
		return nil
	}
	// The versions, newest first, whose text differs from the editor's
	// (the latest is usually the text saved, the same).
	var others []*snapshot.Version
	seen := map[string]bool{}
	for i := len(vs) - 1; i >= 0 && len(others) < restoreParagraphVersions; i-- {
		v := vs[i]
		if v.Deleted || v.Damaged {
			continue
		}
		text, err := st.Text(v)
		if err != nil || text == t.text || seen[text] {
			continue
		}
		seen[text] = true
		if atTitle(t.text, t.offset) && len(others) == 0 {
			title := "quire: Restore this chapter as of " + wireVersion(v).Label
			out = append(out, command(title, wire.CommandSnapshotRestore, wire.SnapshotRestoreParams{BookParams: wire.BookParams{URI: uri}, ID: v.ID}))
		}
		others = append(others, v)
		if h, ok := snapshot.HunkAt(snapshot.Hunks(t.text, text), t.offset); ok && touchesParagraph(t.text, h, t.offset) {
			title := "quire: Restore the paragraph here as of " + wireVersion(v).Label
			pos := p.Range.Start
			out = append(out, command(title, wire.CommandSnapshotRestore, wire.SnapshotRestoreParams{BookParams: wire.BookParams{URI: uri}, ID: v.ID, Position: &pos}))
		}
	}
	if atTitle(t.text, t.offset) {
		// A chapter whose file was deleted has no document to ask in:
		// it is offered at every chapter's title.
		latest, _ := st.Latest()
		var gone []*snapshot.Version
		for _, v := range latest {
			if v.Deleted {
				if before, err := st.Before(v); err == nil && before != nil && !before.Damaged {
					gone = append(gone, before)
				}
			}
		}
		slices.SortFunc(gone, func(a, b *snapshot.Version) int { return strings.Compare(a.Path, b.Path) })
		for _, v := range gone[:min(len(gone), maxDeletedOffered)] {
			title := fmt.Sprintf("quire: Restore the deleted chapter %s (as of %s)", v.Path, wireVersion(v).Label)
			out = append(out, command(title, wire.CommandSnapshotRestore, wire.SnapshotRestoreParams{BookParams: wire.BookParams{URI: uri}, ID: v.ID}))
		}
		out = append(out,
			command(snapshotChapterTitle, wire.CommandSnapshotSave, wire.SnapshotSaveParams{BookParams: wire.BookParams{URI: uri}}),
			command(snapshotBookTitle, wire.CommandSnapshotSave, wire.SnapshotSaveParams{BookParams: wire.BookParams{URI: uri}, Book: true}),
			command(snapshotShowTitle, wire.CommandSnapshotList, wire.SnapshotListParams{BookParams: wire.BookParams{URI: uri}, Show: true}))
	}
	return out
}

// touchesParagraph is whether hunk h lies in, or at an edge of, the
// paragraph of text at off: a restore offered there is about what the
// writer is looking at.
func touchesParagraph(text string, h snapshot.Hunk, off int) bool {
	start := strings.LastIndex(text[:off], "\n\n")
	if start < 0 {
		start = 0
	}
	end := strings.Index(text[off:], "\n\n")
	if end < 0 {
		end = len(text)
	} else {
		end += off + 2
	}
	return h.Start <= end && h.End >= start
}

// snapshotsDoc is a chapter's snapshots as a document to read: each
// version, newest first, with what changed since the one before, word
// by word, and how to restore it.
func snapshotsDoc(st *snapshot.Store, rel string, vs []*snapshot.Version) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Snapshots of %s\n\nNewest first. To restore one, use the code action \"quire: Restore …\" in the chapter, or run `quire snapshot restore ID`.\n", rel)
	for i := len(vs) - 1; i >= 0 && i >= len(vs)-50; i-- {
		v := vs[i]
		fmt.Fprintf(&b, "\n## %s · %s\n\n", v.ID, wireVersion(v).Label)
		if v.Deleted || v.Damaged || i == 0 {
			continue
		}
		prev := vs[i-1]
		if prev.Deleted || prev.Damaged {
			continue
		}
		old, err1 := st.Text(prev)
		now, err2 := st.Text(v)
		if err1 != nil || err2 != nil {
			continue
		}
		for _, op := range snapshot.WordDiff(old, now) {
			switch op.Kind {
			case "-":
				fmt.Fprintf(&b, "~~%s~~", strings.TrimSpace(op.Text))
			case "+":
				fmt.Fprintf(&b, "**%s**", strings.TrimSpace(op.Text))
			}
			if op.Kind != "=" {
				b.WriteString(" ")
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}
