package settings

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"go.yaml.in/yaml/v3"
)

// Sources are where settings come from: the book's folder, holding
// quire.yaml at its root, and the writer's own config.yaml.
type Sources struct {
	Book fs.FS
	// User returns the text of the writer's config.yaml and its path;
	// nil text when there is none. nil reads none.
	User func() ([]byte, string, error)
}

// Disk are the sources of the book at root on this machine.
func Disk(root string) Sources {
	return Sources{Book: os.DirFS(root), User: ReadUserConfig}
}

// Loaded are a book's settings files, each read and parsed once.
type Loaded struct {
	// Book is the book's quire.yaml (an empty File when there is none).
	Book *File
	// User is the writer's config.yaml, which lies under the book's (an
	// empty File when there is none or it could not be read).
	User *File
	// UserErr says why the writer's config.yaml could not be read; the
	// language server goes on without it, the command line stops.
	UserErr error
}

// Load reads the book's quire.yaml and the writer's config.yaml once
// each. Only a book file that exists and cannot be read is an error;
// what is wrong inside a file is its File.Err, for its owner to report.
func Load(src Sources) (*Loaded, error) {
	book, err := ReadBook(src.Book)
	if err != nil {
		return nil, err
	}
	l := &Loaded{Book: book, User: &File{}}
	if src.User != nil {
		data, path, err := src.User()
		l.User.Name = path
		switch {
		case err != nil:
			l.UserErr = err
		case data != nil:
			l.User = Parse(path, data)
		}
	}
	return l, nil
}

// ReadBook reads and parses the quire.yaml at the root of book. It is
// the one place quire reads that file: everything else is handed the
// File or one of its sections. No file is an empty File.
func ReadBook(book fs.FS) (*File, error) {
	data, err := fs.ReadFile(book, Name)
	if errors.Is(err, fs.ErrNotExist) {
		return &File{Name: Name}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", Name, err)
	}
	return Parse(Name, data), nil
}

// Layer is the value of the top-level key as it applies: the book's when
// the book sets it, else the user's. Sections whose parts layer one by one
// (the provider, personas, MCP servers) are layered by their owners from
// both files.
func (l *Loaded) Layer(key string) *yaml.Node {
	_, n := l.LayerOf(key)
	return n
}

// LayerOf is Layer with the file the value comes from, so that a problem
// of the value names that file (File.At): the book's quire.yaml or the
// writer's config.yaml. The file is nil when neither sets the key.
func (l *Loaded) LayerOf(key string) (*File, *yaml.Node) {
	if n := l.Book.Value(key); n != nil && !isNull(n) {
		return l.Book, n
	}
	if l.User.Err != nil {
		return nil, nil
	}
	if n := l.User.Value(key); n != nil {
		return l.User, n
	}
	return nil, nil
}

// isNull says n sets nothing: `key:` alone, or an empty list.
func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" || n.Kind == yaml.SequenceNode && len(n.Content) == 0
}

// UserConfigPath is the writer's own settings file, which lies under
// every book's quire.yaml: <user config folder>/quire/config.yaml
// (on Linux $XDG_CONFIG_HOME/quire/config.yaml).
func UserConfigPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("find user config folder: %w", err)
	}
	return filepath.Join(dir, "quire", "config.yaml"), nil
}

// ReadUserConfig returns the text of the user's config.yaml and its path;
// no file is no text and no error.
func ReadUserConfig() ([]byte, string, error) {
	path, err := UserConfigPath()
	if err != nil {
		return nil, "", err
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, path, nil
	}
	if err != nil {
		return nil, path, fmt.Errorf("read %s: %w", path, err)
	}
	return data, path, nil
}
