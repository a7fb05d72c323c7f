package keys

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

// DefaultFile is where `quire key set --file` keeps keys when no
// keychain answers: keys.json in quire's folder of the user config
// folder, beside the record of trusted books, never in a book.
func DefaultFile() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("the user config folder, where quire would keep the key file, is unknown: %w", err)
	}
	return filepath.Join(dir, "quire", "keys.json"), nil
}

// keyFile is the key file's content: keys by normalized base URL.
type keyFile struct {
	Keys map[string]string `json:"keys"`
}

// readFile reads the key file at path; none is an empty one. A file
// others can read is refused, so that a key leaked by a copy or a chmod
// is noticed, not used.
func readFile(path string) (keyFile, error) {
	kf := keyFile{Keys: map[string]string{}}
	info, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return kf, nil
	} else if err != nil {
		return kf, fmt.Errorf("the key file %s: %w", path, err)
	}
	// Windows has no such mode bits; its file sits in the user's own
	// profile folder.
	if runtime.GOOS != "windows" && info.Mode().Perm()&0o077 != 0 {
		return kf, fmt.Errorf("the key file %s can be read by others (mode %v), so quire does not use it: run chmod 600 %s, and replace the keys in it if others could read them", path, info.Mode().Perm(), path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return kf, fmt.Errorf("the key file %s: %w", path, err)
	}
	if err := json.Unmarshal(data, &kf); err != nil {
		return kf, fmt.Errorf("the key file %s cannot be read (%v): remove it and store the keys again with quire key set --file", path, err)
	}
	if kf.Keys == nil {
		kf.Keys = map[string]string{}
	}
	return kf, nil
}

// writeFile replaces the key file at path with kf, readable only by the
// writer, through a temporary file so that a crash leaves the old one.
func writeFile(path string, kf keyFile) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("the key file's folder: %w", err)
	}
	data, err := json.MarshalIndent(kf, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".keys-*.json")
	if err != nil {
		return fmt.Errorf("the key file: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil && runtime.GOOS != "windows" {
		tmp.Close()
		return fmt.Errorf("the key file: %w", err)
	}
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("the key file: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("the key file: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("the key file: %w", err)
	}
	return nil
}
