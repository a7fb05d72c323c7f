package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// downloadable are the kinds of file a writer downloads from a release:
// the archives and the VS Code extensions.
var downloadable = []string{".tar.gz", ".zip", ".vsix"}

// writeChecksums writes dir/checksums.txt in sha256sum's format ("<hex>
// two spaces <name>"), sorted by name, over every downloadable file in
// dir, so `sha256sum -c checksums.txt` and quire's own installers check
// the same list.
func writeChecksums(dir string) (string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", fmt.Errorf("checksums: %w", err)
	}
	var names []string
	for _, e := range entries {
		if e.Type().IsRegular() && slices.ContainsFunc(downloadable, func(ext string) bool { return strings.HasSuffix(e.Name(), ext) }) {
			names = append(names, e.Name())
		}
	}
	if len(names) == 0 {
		return "", fmt.Errorf("checksums: no archive or .vsix in %s", dir)
	}
	slices.Sort(names)
	var b strings.Builder
	for _, name := range names {
		sum, err := sha256File(filepath.Join(dir, name))
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "%s  %s\n", sum, name)
	}
	path := filepath.Join(dir, "checksums.txt")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		return "", fmt.Errorf("checksums: %w", err)
	}
	return path, nil
}

func sha256File(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("checksum of %s: %w", filepath.Base(path), err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("checksum of %s: %w", filepath.Base(path), err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
