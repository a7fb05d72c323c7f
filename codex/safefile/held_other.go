//go:build !windows

package safefile

// heldOpen is false: elsewhere a rename replaces a file whoever holds it
// open.
func heldOpen(error) bool { return false }
