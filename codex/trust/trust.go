// Package trust records which books the writer trusts: a book's own
// settings that reach beyond it (commands to run, where to send a key)
// apply only once the writer has said so. The record lives outside every
// book, in the user's config folder, so a book cannot trust itself; each
// entry is keyed by the book's real path and a hash of exactly the
// settings that were trusted, so a changed quire.yaml is a new question.
//
// It lies below the domain packages because both ask it: opening a book
// (manuscript/book) before it reads the series folder the book names,
// and the advisor (llm/endpoint) before it sends a key or runs a server
// the book names. What a book asks beyond itself (Asks, Reach) is
// decided here once, so both weigh the same hash.
package trust

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/filelock"
	"github.com/quire-ink/quire/codex/safefile"
)

// FileName is the record's name in <user config folder>/quire.
const FileName = "trust.json"

// Record is what the writer trusted for one book.
type Record struct {
	// Hash identifies the trusted settings (see trust.Reach.Hash).
	Hash string `json:"hash"`
	// Settings are the trusted settings as the writer was shown them,
	// kept so the file can be read by a person.
	Settings []string  `json:"settings"`
	Trusted  time.Time `json:"trusted"`
}

// file is the record on disk.
type file struct {
	Version int               `json:"version"`
	Books   map[string]Record `json:"books"`
}

// Store is the trust record at one path. It holds no state of its own:
// every call reads the file, so a `quire trust` in a terminal reaches a
// running server.
type Store struct {
	path string
}

// Open returns the store kept at path (which need not exist yet).
func Open(path string) *Store { return &Store{path: path} }

// DefaultPath is <user config folder>/quire/trust.json (on Linux
// $XDG_CONFIG_HOME/quire/trust.json), beside the user's config.yaml.
func DefaultPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("find user config folder: %w", err)
	}
	return filepath.Join(dir, "quire", FileName), nil
}

// Default opens the store at DefaultPath.
func Default() (*Store, error) {
	path, err := DefaultPath()
	if err != nil {
		return nil, err
	}
	return Open(path), nil
}

// Path is where the record is kept.
func (s *Store) Path() string { return s.path }

// Key is the name a book is recorded under: its absolute path with
// symbolic links resolved, so two ways of reaching one folder are one
// book, and a link swapped to point elsewhere is another; on a file
// system that ignores case or Unicode normalization (macOS, Windows),
// folded as codex.PathKey folds it, so ~/Book and ~/book are one book.
func Key(root string) (string, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", fmt.Errorf("trust: %w", err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", fmt.Errorf("trust: %w", err)
	}
	return codex.PathKey(real), nil
}

// Lookup returns the record for the book at root, if there is one.
func (s *Store) Lookup(root string) (Record, bool, error) {
	key, err := Key(root)
	if err != nil {
		return Record{}, false, err
	}
	f, err := s.read()
	if err != nil {
		return Record{}, false, err
	}
	r, ok := f.Books[key]
	return r, ok, nil
}

// Trusts reports whether the writer trusted exactly the settings hash
// names for the book at root. A store that cannot be read trusts nothing.
func (s *Store) Trusts(root, hash string) (bool, error) {
	if s == nil {
		return false, nil
	}
	r, ok, err := s.Lookup(root)
	if err != nil {
		return false, err
	}
	return ok && r.Hash == hash, nil
}

// Grant records that the writer trusts the settings hash names for the
// book at root, replacing what was trusted for it before.
func (s *Store) Grant(root, hash string, settings []string) error {
	key, err := Key(root)
	if err != nil {
		return err
	}
	return s.update(func(f file) (file, bool) {
		f.Books[key] = Record{Hash: hash, Settings: settings, Trusted: time.Now().UTC().Truncate(time.Second)}
		return f, true
	})
}

// Revoke forgets the book at root; it reports whether there was a record.
func (s *Store) Revoke(root string) (bool, error) {
	key, err := Key(root)
	if err != nil {
		return false, err
	}
	found := false
	err = s.update(func(f file) (file, bool) {
		if _, found = f.Books[key]; found {
			delete(f.Books, key)
		}
		return f, found
	})
	return found && err == nil, err
}

// lockWait bounds how long a change waits for another quire changing
// the record at the same moment; a change takes milliseconds.
const lockWait = 10 * time.Second

// update reads the record, changes it with change and writes it back
// when change says so, all under a lock that other processes take too:
// four books trusted at the same instant from four terminals or
// editors all stay trusted, where each reading the file before any
// wrote it would keep only the last one's.
func (s *Store) update(change func(file) (file, bool)) error {
	if err := os.MkdirAll(filepath.Dir(s.path), 0o700); err != nil {
		return fmt.Errorf("trust: %w", err)
	}
	lock, err := filelock.Acquire(s.path+".lock", lockWait)
	if errors.Is(err, filelock.ErrTimeout) {
		return fmt.Errorf("another quire has been changing the trust record %s for over %s; try again once it is done", s.path, lockWait)
	}
	if err != nil {
		return fmt.Errorf("trust: %w", err)
	}
	defer lock.Close()
	f, err := s.read()
	if err != nil {
		return err
	}
	f, changed := change(f)
	if !changed {
		return nil
	}
	return s.write(f)
}

func (s *Store) read() (file, error) {
	f := file{Version: 1, Books: map[string]Record{}}
	data, err := os.ReadFile(s.path)
	if errors.Is(err, os.ErrNotExist) {
		return f, nil
	}
	if err != nil {
		return f, fmt.Errorf("read %s: %w", s.path, err)
	}
	if err := json.Unmarshal(data, &f); err != nil {
		// Never read as "trusted": the writer fixes or removes the file.
		return f, fmt.Errorf("%s is not a trust record quire can read (%v); remove it to start over", s.path, err)
	}
	if f.Books == nil {
		f.Books = map[string]Record{}
	}
	return f, nil
}

// write replaces the file in one rename, readable by its owner only:
// a reader never sees half a record.
func (s *Store) write(f file) error {
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return fmt.Errorf("trust: %w", err)
	}
	dir := filepath.Dir(s.path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("trust: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".trust-*.json")
	if err != nil {
		return fmt.Errorf("trust: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", s.path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", s.path, err)
	}
	if err := safefile.Replace(tmp.Name(), s.path); err != nil {
		return fmt.Errorf("write %s: %w", s.path, err)
	}
	return nil
}
