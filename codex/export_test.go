package codex

import (
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
