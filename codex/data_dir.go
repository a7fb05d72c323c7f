package codex

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

// UserDataDir is the folder for what quire keeps of the writer's that a
// cleared cache must not erase (the writing history, snapshots of the
// chapters): $XDG_DATA_HOME, else ~/.local/share, on Linux and the other
// Unix systems; ~/Library/Application Support on macOS; %LocalAppData%
// on Windows. The standard library names no such folder.
func UserDataDir() (string, error) {
	switch runtime.GOOS {
	case "windows":
		if dir := os.Getenv("LocalAppData"); dir != "" {
			return dir, nil
		}
		return "", errors.New("%LocalAppData% is not set")
	case "darwin", "ios":
		home, err := os.UserHomeDir()
		if err != nil {
			return "", err
		}
		return filepath.Join(home, "Library", "Application Support"), nil
	}
	if dir := os.Getenv("XDG_DATA_HOME"); dir != "" && filepath.IsAbs(dir) {
		return dir, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".local", "share"), nil
}

// DataDirFor is the book's folder in the user data folder: quire/books/
// and the same name as its cache folder (CacheDirFor).
func DataDirFor(root string) (string, error) {
	base, err := UserDataDir()
	if err != nil {
		return "", fmt.Errorf("find user data folder: %w", err)
	}
	sum := sha256.Sum256([]byte(PathKey(root)))
	return filepath.Join(base, "quire", "books", hex.EncodeToString(sum[:8])), nil
}
