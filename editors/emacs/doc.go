// Package emacs is quire's Emacs client, quire.el over eglot, and its
// tests in a real Emacs: the Go tests here drive Emacs in batch mode
// through what a writer does and check what the writer sees.
package emacs
