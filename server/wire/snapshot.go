package wire

import "go.lsp.dev/protocol"

// The snapshot commands: every version of a chapter, kept outside the
// book (manuscript/snapshot), listed, shown, saved under a name and
// restored as a workspace edit the writer reviews.
const (
	CommandSnapshotSave    = "quire.snapshotSave"
	CommandSnapshotList    = "quire.snapshotList"
	CommandSnapshotText    = "quire.snapshotText"
	CommandSnapshotRestore = "quire.snapshotRestore"
)

// SnapshotVersion is one kept version of a chapter.
type SnapshotVersion struct {
	// ID names it: eight hex digits.
	ID string `json:"id"`
	// Time is when it was kept, RFC 3339.
	Time string `json:"time"`
	// Chapter is its path in the book.
	Chapter string `json:"chapter"`
	Name    string `json:"name,omitempty" ts:",optional"`
	// Deleted says the chapter's file was gone then.
	Deleted bool `json:"deleted,omitempty" ts:",optional"`
	Words   int  `json:"words"`
	Added   int  `json:"added"`
	Removed int  `json:"removed"`
	// Damaged says the store lost part of it: it cannot be shown.
	Damaged bool `json:"damaged,omitempty" ts:",optional"`
	// Label says it in a line: "Sun 29 Nov 10:05 · before the big
	// rewrite · +12 −6 words".
	Label string `json:"label"`
}

// SnapshotSaveParams are quire.snapshotSave's: keep the chapter at uri
// (or the whole book, with Book) under Name.
type SnapshotSaveParams struct {
	BookParams
	Name string `json:"name,omitempty" ts:",optional"`
	Book bool   `json:"book,omitempty" ts:",optional"`
}

// SnapshotSaveResult lists the versions kept.
type SnapshotSaveResult struct {
	Versions []SnapshotVersion `json:"versions"`
	Message  string            `json:"message"`
}

// SnapshotListParams are quire.snapshotList's: the versions of the
// chapter at uri, newest first; of every chapter when uri is the book's
// folder or not a chapter.
type SnapshotListParams struct {
	BookParams
	// Chapter names a chapter by its path in the book instead of uri
	// (a deleted chapter has no document).
	Chapter string `json:"chapter,omitempty" ts:",optional"`
	// Show also opens the list as a document (window/showDocument, else
	// a message), for editors that show a command's result nowhere.
	Show bool `json:"show,omitempty" ts:",optional"`
}

// SnapshotListResult is the list, and the chapters whose files are gone.
type SnapshotListResult struct {
	Chapter  string            `json:"chapter,omitempty" ts:",optional"`
	Versions []SnapshotVersion `json:"versions"`
	// Deleted are the last versions of chapters whose file is gone.
	Deleted []SnapshotVersion `json:"deleted"`
}

// SnapshotTextParams are quire.snapshotText's: a version's text.
type SnapshotTextParams struct {
	BookParams
	ID string `json:"id"`
}

// SnapshotTextResult is a version's text, for a read-only document.
type SnapshotTextResult struct {
	Version SnapshotVersion `json:"version"`
	Text    string          `json:"text"`
}

// SnapshotRestoreParams are quire.snapshotRestore's: put a version's
// text back, as a workspace edit the writer reviews. With Position (in
// the chapter's document at uri), only the paragraphs that differ there.
type SnapshotRestoreParams struct {
	BookParams
	ID       string             `json:"id"`
	Position *protocol.Position `json:"position,omitempty" ts:",optional"`
}

// SnapshotRestoreResult says whether the editor applied the edit.
type SnapshotRestoreResult struct {
	Applied bool   `json:"applied"`
	Message string `json:"message"`
}
