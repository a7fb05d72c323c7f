package codex

import (
	"fmt"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/quire-ink/quire/codex/settings"
)

// SeriesOf is the `series:` of a book's quire.yaml: the folder, as the
// writer wrote it, of the canon the book shares with the other books of
// its series; "" when the book names none. Only the book's own file
// names a series: a series in the writer's config.yaml would join every
// book to it, so it is a problem there.
func SeriesOf(l *settings.Loaded) (string, error) {
	if l == nil {
		return "", nil
	}
	if n := l.User.Value("series"); n != nil && l.User.Err == nil {
		return "", l.User.At(n, "series belongs in a book's quire.yaml, not in your own settings; move it there")
	}
	if l.Book.Err != nil {
		return "", nil // the file's own problem is reported by its reader
	}
	return SeriesFromNode(l.Book.Value("series"))
}

// SeriesFromNode reads the value of `series:`: one folder path.
func SeriesFromNode(n *yaml.Node) (string, error) {
	if n == nil || n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" {
		return "", nil
	}
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!str" || strings.TrimSpace(n.Value) == "" {
		return "", settings.At(n, "series must be the path of the series folder, relative to the book or absolute (series: ../the-tideward-cycle)")
	}
	if strings.ContainsRune(n.Value, 0) {
		return "", settings.At(n, "series must be the path of a folder")
	}
	return strings.TrimSpace(n.Value), nil
}

// SeriesRoot is the series folder that path (relative to the book or
// absolute) names for the book at bookRoot (its real path): absolute,
// symbolic links resolved, as the codex store of the series is opened
// and every confinement rule of a codex applies to it. It refuses a
// folder that is the book, lies inside it or holds it (`series: ..`):
// those would read the book twice, or every folder beside it.
func SeriesRoot(bookRoot, path string) (string, error) {
	p := filepath.FromSlash(path)
	if !filepath.IsAbs(p) {
		p = filepath.Join(bookRoot, p)
	}
	real, err := ProjectRoot(p)
	if err != nil {
		return "", fmt.Errorf("the series folder %s cannot be opened: %w", path, err)
	}
	switch {
	case real == bookRoot:
		return "", fmt.Errorf("the series folder %s is the book's own folder; name the folder of the series canon", path)
	case within(bookRoot, real):
		return "", fmt.Errorf("the series folder %s (%s) is inside the book; its entries are the book's already. Move it beside the book", path, real)
	case within(real, bookRoot):
		return "", fmt.Errorf("the series folder %s (%s) holds the book itself; name the folder of the series canon, beside the book", path, real)
	}
	return real, nil
}
