package manuscript

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"unicode/utf8"

	"github.com/quire-ink/quire/codex"
)

// MaxSelectionBytes bounds a captured selection; the advisor reads a
// selection whole, so a larger one is refused rather than cut silently.
const MaxSelectionBytes = 1 << 20

// Selection is text the writer selected, captured for one advisor turn.
// Its text stays private: JSON and logs carry only the metadata (path,
// title, hash, word counts); the text itself is handed out only by Text,
// to the get_manuscript_context tool.
type Selection struct {
	Path  string
	Title string
	// Range is where the selection lay in the document when captured.
	Range codex.Range
	// Hash is "sha256:" and the hex digest of the text with line endings
	// normalized to \n, so the same words hash alike on every platform.
	Hash string
	// Words counts the selection; SourceWords the whole document.
	Words       int
	SourceWords int

	text string
}

// SelectionMeta is what may travel in prompts and logs about a selection.
type SelectionMeta struct {
	Path        string `json:"path"`
	Title       string `json:"title"`
	Hash        string `json:"hash"`
	Words       int    `json:"words"`
	SourceWords int    `json:"sourceWords"`
}

// Capture records the text of u in the byte range r.
func Capture(u *Unit, r codex.Range) (*Selection, error) {
	switch {
	case r.Start < 0 || r.End > len(u.Text) || r.Start > r.End:
		return nil, fmt.Errorf("capture selection in %s: range %d–%d is outside the document (%d bytes)", u.Path, r.Start, r.End, len(u.Text))
	case r.Start == r.End:
		return nil, fmt.Errorf("capture selection in %s: the selection is empty", u.Path)
	case r.Len() > MaxSelectionBytes:
		return nil, fmt.Errorf("capture selection in %s: %d bytes selected, more than the %d-byte limit", u.Path, r.Len(), MaxSelectionBytes)
	case !onRuneBoundary(u.Text, r.Start) || !onRuneBoundary(u.Text, r.End):
		return nil, fmt.Errorf("capture selection in %s: range %d–%d splits a character", u.Path, r.Start, r.End)
	}
	text := u.Text[r.Start:r.End]
	return &Selection{
		Path:        u.Path,
		Title:       u.Title,
		Range:       r,
		Hash:        codex.HashText(text),
		Words:       CountWords(text),
		SourceWords: u.Words,
		text:        text,
	}, nil
}

// The methods that keep the prose private take the selection by value, so
// that they hold for a copied Selection as well as a pointer: fmt and
// slog print an unexported field of a struct that has no such method.

// Text is the selected prose, for the tool that reads it to the model.
func (s Selection) Text() string { return s.text }

// Meta is the selection without its text.
func (s Selection) Meta() SelectionMeta {
	return SelectionMeta{Path: s.Path, Title: s.Title, Hash: s.Hash, Words: s.Words, SourceWords: s.SourceWords}
}

// MarshalJSON writes the metadata only, so a selection that ends up in a
// response or a trace never carries the prose.
func (s Selection) MarshalJSON() ([]byte, error) { return json.Marshal(s.Meta()) }

// LogValue keeps the prose out of logs the same way.
func (s Selection) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("path", s.Path),
		slog.String("hash", s.Hash),
		slog.Int("words", s.Words),
		slog.Int("sourceWords", s.SourceWords),
	)
}

// String keeps the prose out of %v formatting too.
func (s Selection) String() string {
	return fmt.Sprintf("selection of %d words in %s (%s)", s.Words, s.Path, s.Hash)
}

// GoString keeps it out of %#v, which would print every field.
func (s Selection) GoString() string { return "manuscript.Selection{" + s.String() + "}" }

func onRuneBoundary(s string, i int) bool { return i == len(s) || utf8.RuneStart(s[i]) }

// CaptureSelection records the text of the document at rel (the editor's
// text when it is open) in the byte range r.
func (s *Snapshot) CaptureSelection(rel string, r codex.Range) (*Selection, error) {
	u, err := s.Document(rel)
	if err != nil {
		return nil, err
	}
	return Capture(u, r)
}
