package snapshot

import (
	"context"
	"errors"
	"io/fs"
	"maps"
	"slices"
)

// ErrNotKept is what a Sync reader returns for a chapter that is present
// but not to be kept (one too large to keep on its own): it is neither
// recorded nor taken for deleted.
var ErrNotKept = errors.New("present, not kept")

// Sync records the chapters as they are: a new version of each whose
// text changed since its latest, and a deletion for each chapter the
// store knows that is not among chapters or whose reading says
// fs.ErrNotExist. chapters are book-relative, slash-separated paths;
// read gives one chapter's text, or ErrNotKept, or fs.ErrNotExist. Each
// chapter is read and recorded before the next is read, so a book is
// never held whole for it. Any other error from read stops Sync before
// it notes a deletion, and is returned. It returns the versions it kept;
// ctx stops it between chapters (what was kept stays kept).
func (s *Store) Sync(ctx context.Context, chapters []string, read func(path string) (string, error)) ([]*Version, error) {
	var out []*Version
	present := map[string]bool{}
	for _, path := range slices.Sorted(slices.Values(chapters)) {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		text, err := read(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case errors.Is(err, ErrNotKept):
			present[path] = true
			continue
		case err != nil:
			return out, err
		}
		present[path] = true
		v, err := s.Record(path, text, "")
		if err != nil {
			return out, err
		}
		if v != nil {
			out = append(out, v)
		}
	}
	latest, err := s.Latest()
	if err != nil {
		return out, err
	}
	for _, path := range slices.Sorted(maps.Keys(latest)) {
		if present[path] || latest[path].Deleted {
			continue
		}
		if err := ctx.Err(); err != nil {
			return out, err
		}
		v, err := s.RecordDeleted(path)
		if err != nil {
			return out, err
		}
		if v != nil {
			out = append(out, v)
		}
	}
	return out, nil
}
