package snapshot

import (
	"maps"
	"slices"
)

// Sync records the chapters as they are: a new version of each whose
// text changed since its latest, and a deletion for each chapter the
// store knows that texts no longer holds. texts are by book-relative,
// slash-separated path. It returns the versions it kept.
func (s *Store) Sync(texts map[string]string) ([]*Version, error) {
	var out []*Version
	for _, path := range slices.Sorted(maps.Keys(texts)) {
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
		if _, ok := texts[path]; ok || latest[path].Deleted {
			continue
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
