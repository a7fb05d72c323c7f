// Package disktest gives the cache-failure tests of codex, the server and
// the CLI a real small or read-only disk to fill: a tmpfs mounted on a
// temporary folder. Only Linux has one to mount; the package is empty
// elsewhere, as are the tests that use it.
package disktest
