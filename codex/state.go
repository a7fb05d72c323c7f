package codex

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/quire-ink/quire/codex/safefile"
)

// SchemaVersion stamps the on-disk index and state. Bump it whenever the
// index mapping, the indexed document or the persisted Entry changes:
// a stamp that differs makes quire rebuild instead of misreading.
//
// 3: a lone CR ends a line; a file name with control characters is a
// problem.
// 3 also: the state says whether it vouches for the index, so one saved
// before the index was built (and the process killed) is taken without
// the index.
// 4: custom fields are written in the state's own binary form, not as
// JSON (codec_fields.go).
// 5: the sources stand apart from the fields, so that a mapped state is
// decoded without reading them (codec.go).
// 6: the catalog's keys of each entry follow the entries
// (catalog_keys_saved.go).
const SchemaVersion = 6

// Names inside a project's cache folder.
const (
	metaFile  = "meta.json"
	stateFile = "state.bin"
	indexDir  = "index.bleve"
)

// meta is the human-readable stamp of a cache folder.
type meta struct {
	Schema  int       `json:"schema"`
	Root    string    `json:"root"`
	Written time.Time `json:"written"`
}

// fileState is what quire remembers of a file between runs, to tell on
// start what changed while it was not running.
type fileState struct {
	Size    int64
	ModTime int64 // UnixNano
	Hash    [sha256.Size]byte
	// Role is how the file was read: its folder type and owner, since a
	// new index.md nearby can change it without the file changing.
	FolderType Type
	SoulOf     string
}

// savedState is the catalog as persisted: warm starts load it instead of
// parsing every file again.
type savedState struct {
	Schema  int
	Root    string
	Files   map[string]fileState
	Entries []*Entry
	Souls   []*Soul
	Skipped []Problem
	// Catalog is what the catalog made of Entries, saved beside them
	// (catalog_keys_saved.go): on writing, the keys and words the writer
	// has; on reading, those that can be used.
	Catalog savedCatalog
	// Indexed says the index on disk held exactly these entries when
	// the state was written. A state saved while the index was still
	// being built (store_build.go) is false: the next start takes the
	// catalog from it and builds the index again behind it.
	Indexed bool
	// mapped is the file's mapping the entries' texts point into, where
	// it was mapped rather than read (state_map_unix.go).
	mapped []byte
}

// CacheDirFor is where quire keeps the index of the project at root:
// the user cache folder, one subfolder per project path.
func CacheDirFor(root string) (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("find user cache folder: %w", err)
	}
	// One cache per folder, however its name was spelled (PathKey).
	sum := sha256.Sum256([]byte(PathKey(root)))
	return filepath.Join(base, "quire", hex.EncodeToString(sum[:8])), nil
}

func readMeta(dir string) (meta, error) {
	var m meta
	data, err := os.ReadFile(filepath.Join(dir, metaFile))
	if err != nil {
		return m, err
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return m, fmt.Errorf("read %s: %w", metaFile, err)
	}
	return m, nil
}

func writeMeta(dir, root string) error {
	data, err := json.MarshalIndent(meta{Schema: SchemaVersion, Root: root, Written: time.Now().UTC()}, "", "  ")
	if err != nil {
		return err
	}
	return writeFileAtomic(filepath.Join(dir, metaFile), data)
}

func readState(dir string) (*savedState, error) {
	return readStateFile(filepath.Join(dir, stateFile))
}

func writeState(dir string, st *savedState) error {
	tmp, err := os.CreateTemp(dir, stateFile+".*")
	if err != nil {
		return fmt.Errorf("save state: %w", err)
	}
	w := bufio.NewWriterSize(tmp, 256<<10)
	err = writeStateTo(w, st)
	if err == nil {
		err = w.Flush()
	}
	if err == nil {
		// On disk before the rename: after a power cut the name must
		// not point at a file whose bytes never arrived.
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = safefile.Replace(tmp.Name(), filepath.Join(dir, stateFile))
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("save state: %w", err)
	}
	return nil
}

// writeFileAtomic replaces a file so that a reader never sees half of it.
// It does not sync: it writes the stamp, on every open, and a disk flush
// there would hold up every start; a stamp a power cut tore reads as
// unreadable, which costs a rebuild and never a wrong answer.
func writeFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = safefile.Replace(tmp.Name(), path)
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
	}
	return err
}
