package codex

import "testing"

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
