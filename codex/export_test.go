package codex

import "testing"

// NewFusedChecker exposes checkEntryFused to the package's external
// tests, which can use the corpus generator (it imports codex).
func NewFusedChecker(t testing.TB) func(*Entry) {
	ix := fusedTestIndex(t)
	return func(e *Entry) { checkEntryFused(t, ix.an, e) }
}
