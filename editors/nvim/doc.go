// Package nvim is quire's Neovim plugin (lua/, plugin/, lsp/, doc/) and
// its tests in a real Neovim: the Go tests here drive headless Neovim
// through what a writer does and check what the writer sees.
package nvim
