package manuscript

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	bolterrors "go.etcd.io/bbolt/errors"

	"github.com/quire-ink/quire/codex"
)

// passageSchema stamps the passage index. Bump it whenever Paragraphs
// splits differently, the mapping or the indexed document changes, or
// document IDs are spelled differently: a stamp that differs makes the
// index rebuild instead of pointing hits at the wrong paragraphs.
const passageSchema = 1

// Names inside the folder the caller gives OpenPassages.
const (
	passageLockFile = "lock"
	passageIndexDir = "passages.bleve"
)

// What the index remembers beside its documents lives in bleve's
// internal key-value store, so that it changes in the same atomic batch
// as the documents it describes: a crash between two batches leaves an
// index and a record that still agree.
const (
	keySchema     = "quire/schema"
	keyUnits      = "quire/units"
	keyUnitPrefix = "quire/unit/"
)

// unitState is what the index holds of one unit: which text it was
// split from and how many paragraphs that made. A warm start compares
// the hash with the unit's text and re-indexes only on a difference.
type unitState struct {
	Hash       string `json:"h"`
	Paragraphs int    `json:"n"`
}

// unitHash identifies what a unit's paragraphs are split from: its text
// and the body and heading ranges its outline found there. A change in
// how Markdown is outlined then re-indexes the unit instead of leaving
// hits pointing at paragraphs numbered differently. 64 bits of SHA-256
// are plenty to tell two versions of one chapter apart.
func unitHash(u *Unit) string {
	h := sha256.New()
	h.Write([]byte(u.Text))
	var buf []byte
	buf = binary.AppendUvarint(buf, uint64(u.Body.Start))
	buf = binary.AppendUvarint(buf, uint64(u.Body.End))
	for _, s := range u.Headings {
		buf = binary.AppendUvarint(buf, uint64(s.HeadingRange.Start))
		buf = binary.AppendUvarint(buf, uint64(s.HeadingRange.End))
	}
	h.Write(buf)
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// docID names the i-th paragraph of a unit's text with the given hash.
// The hash inside the ID lets a query tell a hit on the text it knows
// from a hit on an older version still being replaced; the path comes
// last because it may hold any character.
func docID(path, hash string, i int) string {
	return hash + ":" + strconv.Itoa(i) + ":" + path
}

func parseDocID(id string) (path, hash string, i int, ok bool) {
	hash, rest, ok := strings.Cut(id, ":")
	if !ok {
		return "", "", 0, false
	}
	n, path, ok := strings.Cut(rest, ":")
	if !ok {
		return "", "", 0, false
	}
	i, err := strconv.Atoi(n)
	if err != nil || i < 0 {
		return "", "", 0, false
	}
	return path, hash, i, true
}

func unitKey(path string) []byte { return []byte(keyUnitPrefix + path) }

func encodeUnitState(st unitState) ([]byte, error) {
	data, err := json.Marshal(st)
	if err != nil {
		return nil, fmt.Errorf("encode unit record: %w", err)
	}
	return data, nil
}

func encodeManifest(paths []string) ([]byte, error) {
	data, err := json.Marshal(paths)
	if err != nil {
		return nil, fmt.Errorf("encode unit list: %w", err)
	}
	return data, nil
}

// loadUnitStates reads what the index holds of every unit it lists.
// A listed unit with no record was being added or removed when a sync
// stopped; it is simply not there.
func loadUnitStates(idx bleve.Index) (map[string]unitState, []string, error) {
	data, err := idx.GetInternal([]byte(keyUnits))
	if err != nil {
		return nil, nil, fmt.Errorf("read unit list: %w", err)
	}
	var paths []string
	if len(data) > 0 {
		if err := json.Unmarshal(data, &paths); err != nil {
			return nil, nil, fmt.Errorf("read unit list: %w", err)
		}
	}
	states := make(map[string]unitState, len(paths))
	for _, p := range paths {
		raw, err := idx.GetInternal(unitKey(p))
		if err != nil {
			return nil, nil, fmt.Errorf("read unit %s: %w", p, err)
		}
		if len(raw) == 0 {
			continue
		}
		var st unitState
		if err := json.Unmarshal(raw, &st); err != nil {
			return nil, nil, fmt.Errorf("read unit %s: %w", p, err)
		}
		states[p] = st
	}
	return states, paths, nil
}

// openedIndex is a passage index ready for use and what opening it found.
type openedIndex struct {
	idx      bleve.Index
	states   map[string]unitState
	manifest []string
	rebuilt  bool
	reason   string
}

// openPassageIndex opens the index in dir, or builds it afresh when it is
// missing, unreadable or stamped with another schema. The caller holds
// the folder's lock, so nothing else is writing there.
func openPassageIndex(dir string, boltTimeout time.Duration) (*openedIndex, error) {
	path := filepath.Join(dir, passageIndexDir)
	reason := "missing"
	if _, err := os.Stat(path); err == nil {
		o, why, err := openExisting(path, boltTimeout)
		if err != nil {
			return nil, err
		}
		if o != nil {
			return o, nil
		}
		reason = why
		if err := os.RemoveAll(path); err != nil {
			return nil, fmt.Errorf("remove stale passage index %s: %w", path, err)
		}
	}
	idx, err := createPassageIndex(path, boltTimeout)
	if err != nil {
		return nil, err
	}
	return &openedIndex{idx: idx, states: map[string]unitState{}, rebuilt: true, reason: reason}, nil
}

// openExisting opens an index on disk. It returns nil and the reason when
// the index has to be rebuilt, and an error only when it cannot be
// opened at all (another process holds it).
func openExisting(path string, boltTimeout time.Duration) (o *openedIndex, reason string, err error) {
	// bbolt and zap map index files into memory; a truncated file then
	// faults instead of failing. Turn that into a reason to rebuild
	// rather than the end of the process.
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	var idx bleve.Index
	defer func() {
		if r := recover(); r != nil {
			if idx != nil {
				_ = idx.Close()
			}
			o, reason, err = nil, fmt.Sprintf("damaged files: %v", r), nil
		}
	}()
	idx, err = bleve.OpenUsing(path, passageConfig(boltTimeout))
	if err != nil {
		if locked := passageLockedOr(fmt.Errorf("open passage index %s: %w", path, err)); errors.Is(locked, codex.ErrIndexLocked) {
			return nil, "", locked
		}
		return nil, "corrupt: " + err.Error(), nil
	}
	stamp, err := idx.GetInternal([]byte(keySchema))
	if err != nil || string(stamp) != strconv.Itoa(passageSchema) {
		_ = idx.Close()
		return nil, fmt.Sprintf("schema %q, want %d", stamp, passageSchema), nil
	}
	states, manifest, err := loadUnitStates(idx)
	if err != nil {
		_ = idx.Close()
		return nil, "corrupt: " + err.Error(), nil
	}
	return &openedIndex{idx: idx, states: states, manifest: manifest}, "", nil
}

func createPassageIndex(path string, boltTimeout time.Duration) (bleve.Index, error) {
	m, err := passageMapping()
	if err != nil {
		return nil, err
	}
	idx, err := bleve.NewUsing(path, m, scorch.Name, scorch.Name, passageConfig(boltTimeout))
	if err != nil {
		return nil, passageLockedOr(fmt.Errorf("create passage index %s: %w", path, err))
	}
	if err := idx.SetInternal([]byte(keySchema), []byte(strconv.Itoa(passageSchema))); err != nil {
		_ = idx.Close()
		return nil, fmt.Errorf("stamp passage index %s: %w", path, err)
	}
	return idx, nil
}

// newMemoryPassageIndex builds an index that lives only in memory.
func newMemoryPassageIndex() (bleve.Index, error) {
	m, err := passageMapping()
	if err != nil {
		return nil, err
	}
	idx, err := bleve.NewUsing("", m, scorch.Name, scorch.Name, nil)
	if err != nil {
		return nil, fmt.Errorf("create in-memory passage index: %w", err)
	}
	return idx, nil
}

// passageLockedOr reports a bolt lock timeout as codex.ErrIndexLocked. bleve
// formats bbolt's error with %v, so errors.Is cannot find it and the
// message is matched as well.
func passageLockedOr(err error) error {
	if errors.Is(err, bolterrors.ErrTimeout) || strings.Contains(err.Error(), bolterrors.ErrTimeout.Error()) {
		return fmt.Errorf("%w (%v)", codex.ErrIndexLocked, err)
	}
	return err
}
