package server

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/count"
	"github.com/quire-ink/quire/manuscript/snapshot"
	"github.com/quire-ink/quire/server/textdoc"
	"github.com/quire-ink/quire/server/wire"
)

// The snapshot commands (wire/snapshot.go). Listing and showing read
// the store; saving keeps the text on disk under a name; restoring
// never writes: it sends the writer's editor a workspace edit, after
// keeping the text on disk as "before restoring ID".

// snapStore is the book's snapshot store, once it has caught up with
// the disk.
func (s *Server) snapStore(ctx context.Context, a wire.BookParams) (*openBook, *snapshot.Store, error) {
	proj, err := s.projectOf(ctx, a)
	if err != nil {
		return nil, nil, err
	}
	if proj.snaps == nil {
		return nil, nil, jsonrpc2.NewError(jsonrpc2.InternalError, "quire keeps no snapshots of this book: it found no data folder to keep them in (quire doctor says more)")
	}
	st, err := proj.snaps.wait(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("the snapshot store: %w", err)
	}
	// What was saved just now is kept before the answer.
	proj.syncSnapshots(false)
	return proj, st, nil
}

// chapterOf is the book-relative path of the document at uri, when it
// is one of the book's.
func (s *Server) chapterOf(proj *openBook, uri protocol.DocumentURI) (string, bool) {
	path, ok := textdoc.URIPath(uri)
	if !ok {
		return "", false
	}
	return proj.rel(path)
}

func wireVersion(v *snapshot.Version) wire.SnapshotVersion {
	w := wire.SnapshotVersion{ID: v.ID, Time: v.Time.Format(time.RFC3339), Chapter: v.Path, Name: v.Name, Deleted: v.Deleted,
		Words: v.Words, Added: v.Added, Removed: v.Removed, Damaged: v.Damaged}
	parts := []string{v.Time.Local().Format("Mon 2 Jan 15:04")}
	if v.Name != "" {
		parts = append(parts, v.Name)
	}
	switch {
	case v.Deleted:
		parts = append(parts, "the file was deleted")
	case v.Damaged:
		parts = append(parts, "damaged")
	default:
		parts = append(parts, fmt.Sprintf("+%s −%s", count.Number(v.Added), count.Of(v.Removed, "word")))
	}
	w.Label = strings.Join(parts, " · ")
	return w
}

// quireSnapshotSave runs quire.snapshotSave.
func (s *Server) quireSnapshotSave(ctx context.Context, a wire.SnapshotSaveParams) (wire.SnapshotSaveResult, error) {
	proj, st, err := s.snapStore(ctx, a.BookParams)
	if err != nil {
		return wire.SnapshotSaveResult{}, err
	}
	name := strings.Join(strings.Fields(a.Name), " ")
	if name == "" {
		name = "saved " + time.Now().Format("Mon 2 Jan 15:04")
	}
	if len(name) > 200 {
		return wire.SnapshotSaveResult{}, jsonrpc2.NewError(jsonrpc2.InvalidParams, "a snapshot's name is at most 200 characters")
	}
	var paths []string
	if a.Book {
		for _, u := range proj.ms.Snapshot().Units() {
			paths = append(paths, u.Path)
		}
	} else {
		rel, ok := s.chapterOf(proj, a.URI)
		if _, isUnit := proj.ms.Snapshot().Unit(rel); !ok || !isUnit {
			return wire.SnapshotSaveResult{}, jsonrpc2.NewError(jsonrpc2.InvalidParams, "snapshot a chapter from its document, or the whole book")
		}
		paths = []string{rel}
	}
	out := wire.SnapshotSaveResult{Versions: []wire.SnapshotVersion{}}
	for _, rel := range paths {
		// The text on disk: an unsaved change is the editor's until
		// saved, and is kept when it is.
		data, err := os.ReadFile(filepath.Join(proj.real, filepath.FromSlash(rel)))
		if err != nil {
			continue
		}
		v, err := st.Record(rel, string(data), name)
		if err != nil {
			return out, jsonrpc2.NewError(jsonrpc2.InternalError, err.Error())
		}
		out.Versions = append(out.Versions, wireVersion(v))
	}
	what := count.Of(len(out.Versions), "chapter")
	if len(paths) == 1 && len(out.Versions) == 1 {
		what = paths[0]
	}
	out.Message = fmt.Sprintf("quire kept %s as it is saved now, as the snapshot %q.", what, name)
	s.showMessage(ctx, protocol.MessageTypeInfo, out.Message)
	return out, nil
}

// quireSnapshotList runs quire.snapshotList.
func (s *Server) quireSnapshotList(ctx context.Context, a wire.SnapshotListParams) (wire.SnapshotListResult, error) {
	proj, st, err := s.snapStore(ctx, a.BookParams)
	if err != nil {
		return wire.SnapshotListResult{}, err
	}
	out := wire.SnapshotListResult{Versions: []wire.SnapshotVersion{}, Deleted: []wire.SnapshotVersion{}}
	rel := a.Chapter
	if rel == "" && a.URI != "" {
		rel, _ = s.chapterOf(proj, a.URI)
	}
	if rel != "" {
		if _, isUnit := proj.ms.Snapshot().Unit(rel); !isUnit {
			latest, _ := st.Latest()
			if latest[rel] == nil {
				rel = ""
			}
		}
	}
	out.Chapter = rel
	vs, err := st.Versions(rel)
	if err != nil {
		return out, jsonrpc2.NewError(jsonrpc2.InternalError, err.Error())
	}
	for i := len(vs) - 1; i >= 0; i-- {
		out.Versions = append(out.Versions, wireVersion(vs[i]))
	}
	if a.Show && rel != "" {
		path, err := s.writeCacheDoc("snapshots", strings.TrimSuffix(filepath.Base(rel), filepath.Ext(rel)), ".md", snapshotsDoc(st, rel, vs))
		if err != nil {
			return out, jsonrpc2.NewError(jsonrpc2.InternalError, err.Error())
		}
		s.showDoc(ctx, path, fmt.Sprintf("%s has %s; the list is in %s.", rel, count.Of(len(vs), "snapshot"), path))
	}
	latest, err := st.Latest()
	if err != nil {
		return out, jsonrpc2.NewError(jsonrpc2.InternalError, err.Error())
	}
	for _, v := range latest {
		if v.Deleted {
			if before, err := st.Before(v); err == nil && before != nil {
				out.Deleted = append(out.Deleted, wireVersion(before))
			}
		}
	}
	return out, nil
}

// quireSnapshotText runs quire.snapshotText.
func (s *Server) quireSnapshotText(ctx context.Context, a wire.SnapshotTextParams) (wire.SnapshotTextResult, error) {
	_, st, err := s.snapStore(ctx, a.BookParams)
	if err != nil {
		return wire.SnapshotTextResult{}, err
	}
	v, err := st.Find(a.ID)
	if err != nil {
		return wire.SnapshotTextResult{}, jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error())
	}
	text, err := st.Text(v)
	if err != nil {
		return wire.SnapshotTextResult{}, jsonrpc2.NewError(jsonrpc2.InternalError, err.Error())
	}
	return wire.SnapshotTextResult{Version: wireVersion(v), Text: text}, nil
}

// quireSnapshotRestore runs quire.snapshotRestore: the version's text
// (or, with a position, the paragraphs that differ there) as a
// workspace edit of the chapter, a new file when it was deleted.
func (s *Server) quireSnapshotRestore(ctx context.Context, a wire.SnapshotRestoreParams) (wire.SnapshotRestoreResult, error) {
	proj, st, err := s.snapStore(ctx, a.BookParams)
	if err != nil {
		return wire.SnapshotRestoreResult{}, err
	}
	v, err := st.Find(a.ID)
	if err != nil {
		return wire.SnapshotRestoreResult{}, jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error())
	}
	if v.Deleted {
		return wire.SnapshotRestoreResult{}, jsonrpc2.NewError(jsonrpc2.InvalidParams,
			fmt.Sprintf("snapshot %s only notes that %s was deleted; restore the one before it", v.ID, v.Path))
	}
	if !filepath.IsLocal(filepath.FromSlash(v.Path)) {
		return wire.SnapshotRestoreResult{}, jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("the snapshot's chapter %q is not inside the book", codex.Echo(v.Path)))
	}
	text, err := st.Text(v)
	if err != nil {
		return wire.SnapshotRestoreResult{}, jsonrpc2.NewError(jsonrpc2.InternalError, err.Error())
	}
	cur, err := s.currentText(proj, v.Path)
	if err != nil {
		return wire.SnapshotRestoreResult{}, jsonrpc2.NewError(jsonrpc2.InternalError, err.Error())
	}
	// The text on disk now is kept first, so the restore can be undone
	// from the snapshots too.
	if data, err := os.ReadFile(filepath.Join(proj.real, filepath.FromSlash(v.Path))); err == nil {
		if _, err := st.Record(v.Path, string(data), "before restoring "+v.ID); err != nil {
			return wire.SnapshotRestoreResult{}, jsonrpc2.NewError(jsonrpc2.InternalError, "nothing was restored: the text there now could not be kept first: "+err.Error())
		}
	}
	when := v.Time.Local().Format("Mon 2 Jan 15:04")
	var edit workspaceEdit
	what := v.Path
	switch {
	case !cur.exists:
		edit = s.newFileEdit(cur.uri, text)
	case a.Position != nil:
		if rel, _ := s.chapterOf(proj, a.URI); rel != v.Path {
			return wire.SnapshotRestoreResult{}, jsonrpc2.NewError(jsonrpc2.InvalidParams, "restore a paragraph from its own chapter's document")
		}
		off, err := cur.lines.Offset(*a.Position)
		if err != nil {
			return wire.SnapshotRestoreResult{}, jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error())
		}
		h, ok := snapshot.HunkAt(snapshot.Hunks(cur.text, text), off)
		if !ok {
			return wire.SnapshotRestoreResult{Message: fmt.Sprintf("%s is the same as its snapshot of %s: nothing to restore.", v.Path, when)}, nil
		}
		edit = workspaceEdit{DocumentChanges: []any{textDocumentEdit{TextDocument: versionedDocument{URI: cur.uri, Version: cur.version},
			Edits: []annotatedTextEdit{{Range: cur.lines.RangeOf(h.Start, h.End), NewText: h.Old}}}}}
		what = "a paragraph of " + v.Path
	default:
		edit = workspaceEdit{DocumentChanges: []any{textDocumentEdit{TextDocument: versionedDocument{URI: cur.uri, Version: cur.version},
			Edits: []annotatedTextEdit{{Range: cur.lines.RangeOf(0, len(cur.text)), NewText: text}}}}}
	}
	res, err := s.applyEdit(ctx, "Restore "+what+" as of "+when, edit)
	if err != nil {
		return wire.SnapshotRestoreResult{}, err
	}
	out := wire.SnapshotRestoreResult{Applied: res.Applied}
	if res.Applied {
		out.Message = fmt.Sprintf("Restored %s as of %s (snapshot %s); save to keep it. The text it replaced is the snapshot \"before restoring %s\".", what, when, v.ID, v.ID)
	} else {
		out.Message = fmt.Sprintf("The editor did not restore %s: %s", what, cmpOr(res.FailureReason, "it declined the edit"))
	}
	s.showMessage(ctx, protocol.MessageTypeInfo, out.Message)
	return out, nil
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
