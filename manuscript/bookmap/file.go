package bookmap

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/quire-ink/quire/codex/safefile"
)

// WriteFile writes m's page to path, creating its folder: first to a
// temporary file beside it, then renamed over it, so that a browser
// reloading the map never reads half a page.
func (m *Map) WriteFile(path string) (int, error) {
	var buf bytes.Buffer
	if err := m.Write(&buf); err != nil {
		return 0, err
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return 0, fmt.Errorf("write the book map: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".map-*.html")
	if err != nil {
		return 0, fmt.Errorf("write the book map: %w", err)
	}
	_, werr := tmp.Write(buf.Bytes())
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		_ = os.Remove(tmp.Name())
		return 0, fmt.Errorf("write the book map to %s: %w", path, err)
	}
	if err := safefile.Replace(tmp.Name(), path); err != nil {
		_ = os.Remove(tmp.Name())
		return 0, fmt.Errorf("write the book map to %s: %w", path, err)
	}
	return buf.Len(), nil
}
