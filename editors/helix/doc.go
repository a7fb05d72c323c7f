// Package helix is quire's Helix setup, languages.toml and config.toml,
// and its tests in a real Helix: the Go tests here drive Helix in tmux
// through what a writer does and check the screen the writer sees.
package helix
