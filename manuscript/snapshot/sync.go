package snapshot

import (
	"context"
	"maps"
	"slices"
)

// Sync records the chapters as they are: a new version of each whose
// text changed since its latest, and a deletion for each chapter the
// store knows that is not in present. texts are by book-relative,
// slash-separated path; present are the chapters whose files exist,
// texts' and those left out of texts (nil is texts' alone). It returns
// the versions it kept; ctx stops it between chapters (what was kept
// stays kept).
func (s *Store) Sync(ctx context.Context, texts map[string]string, present map[string]bool) ([]*Version, error) {
	var out []*Version
	for _, path := range slices.Sorted(maps.Keys(texts)) {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		v, err := s.Record(path, texts[path], "")
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
		if _, ok := texts[path]; ok || present[path] || latest[path].Deleted {
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
