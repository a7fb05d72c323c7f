//go:build !(linux || darwin)

package codex

import "os"

// readStateFile reads the state file whole. It is not mapped here as on
// Linux and macOS (state_map_unix.go): on Windows a mapped file cannot
// be replaced, and quire replaces the state on every save.
func readStateFile(path string) (*savedState, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return decodeState(data)
}

// unmapState does nothing: the state was read, not mapped.
func unmapState(*savedState) {}
