package codex

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// NewFusedChecker exposes checkEntryFused to the package's external
// tests, which can use the corpus generator (it imports codex).
func NewFusedChecker(t testing.TB) func(*Entry) {
	ix := fusedTestIndex(t)
	return func(e *Entry) { checkEntryFused(t, ix.an, e) }
}

// CheckFastFrontMatter exposes checkFastFrontMatter to the external
// tests: it compares both readings of src's front matter and reports
// whether the fast one took it.
func CheckFastFrontMatter(t testing.TB, src []byte) bool { return checkFastFrontMatter(t, src) }

// DecodeStateFile exposes decodeState to the external tests: it decodes
// the state file saved in the cache folder dir and reports how many
// entries it holds.
func DecodeStateFile(dir string) (func() (int, error), error) {
	data, err := os.ReadFile(filepath.Join(dir, stateFile))
	if err != nil {
		return nil, err
	}
	return func() (int, error) {
		st, err := decodeState(data)
		if err != nil {
			return 0, err
		}
		return len(st.Entries), nil
	}, nil
}

// CatalogOfStateFile exposes a warm start's catalog to the external
// tests: it decodes the state file saved in the cache folder dir and
// builds the catalog of its entries with the keys it saved.
func CatalogOfStateFile(dir string) (func() (*Catalog, error), error) {
	data, err := os.ReadFile(filepath.Join(dir, stateFile))
	if err != nil {
		return nil, err
	}
	return func() (*Catalog, error) {
		st, err := decodeState(data)
		if err != nil {
			return nil, err
		}
		if st.Catalog.keys == nil {
			return nil, errors.New("the state saved no keys quire can use")
		}
		return newCatalog(st.Entries, st.Skipped, st.Catalog), nil
	}, nil
}
