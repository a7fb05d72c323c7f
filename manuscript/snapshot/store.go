package snapshot

import (
	"bytes"
	"compress/flate"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/quire-ink/quire/codex/filelock"
	"github.com/quire-ink/quire/manuscript"
)

// FileName is the store's file in a book's snapshot folder.
const FileName = "store.log"

// checkpointEvery is how many versions of a chapter may be written as
// changes before one is written whole.
const checkpointEvery = 32

// DefaultLockTimeout is how long a store waits for another quire
// process to finish its write.
const DefaultLockTimeout = 5 * time.Second

// Options make a Store.
type Options struct {
	// Now is the clock; nil is time.Now.
	Now func() time.Time
	// LockTimeout bounds the wait for another process's write; zero is
	// DefaultLockTimeout.
	LockTimeout time.Duration
}

// Version is one version of a chapter.
type Version struct {
	// ID names the version for as long as it is kept: eight hex digits.
	ID   string    `json:"id"`
	Time time.Time `json:"time"`
	// Path is the chapter, relative to the book, slash-separated.
	Path string `json:"chapter"`
	// Name is the writer's name for it; empty for an automatic one.
	Name string `json:"name,omitempty"`
	// Deleted says the chapter's file was gone at Time.
	Deleted bool `json:"deleted,omitempty"`
	Words   int  `json:"words"`
	// Added and Removed are the words changed since the version before.
	Added   int `json:"added"`
	Removed int `json:"removed"`
	// Damaged says the store lost part of this version (a damaged
	// record): it is listed, and cannot be shown or restored.
	Damaged bool `json:"damaged,omitempty"`

	seq    uint64
	pieces []uint64
}

// Store is a book's snapshots. It is safe for concurrent use, and two
// processes may share one.
type Store struct {
	dir  string
	opts Options

	mu sync.Mutex
	// state is what was read of the file, up to size.
	st *state
	// repairs say what opening or catching up repaired, for the writer.
	repairs []string
	// codec is the store's compressor, used under mu.
	codec codec
	// appendFile appends and syncs (appendSynced); tests fail it part
	// way, as a full disk does.
	appendFile func(path string, data []byte) error
}

// state is what the store's file holds, as read.
type state struct {
	info      fs.FileInfo
	size      int64
	pieces    map[uint64]pieceLoc
	byHash    map[[32]byte]uint64
	versions  []*Version
	bySeq     map[uint64]*Version
	latest    map[string]*Version
	sinceFull map[string]int
	nextPiece uint64
	nextSeq   uint64
	damaged   int
	// format is the format record's version; 0 before it is read.
	format int
}

type pieceLoc struct {
	off  int64
	n    int
	hash [32]byte
}

func newState() *state {
	return &state{pieces: map[uint64]pieceLoc{}, byHash: map[[32]byte]uint64{}, bySeq: map[uint64]*Version{},
		latest: map[string]*Version{}, sinceFull: map[string]int{}, nextPiece: 1, nextSeq: 1}
}

// Open opens the store in dir (made when missing), reading what it
// holds and repairing a write that was cut off.
func Open(dir string, opts Options) (*Store, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("the snapshot folder %s: %w", dir, err)
	}
	s := &Store{dir: dir, opts: opts}
	err := s.locked(func() error { return nil })
	if err != nil {
		return nil, err
	}
	return s, nil
}

// Repairs says what the store found damaged and repaired or skipped,
// in a writer's words; each is said once.
func (s *Store) Repairs() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.repairs
	s.repairs = nil
	return out
}

func (s *Store) file() string { return filepath.Join(s.dir, FileName) }

// Dir is the store's folder.
func (s *Store) Dir() string { return s.dir }

func (s *Store) now() time.Time {
	if s.opts.Now != nil {
		return s.opts.Now()
	}
	return time.Now()
}

// locked runs f holding the store's lock, shared with other processes,
// once the state has caught up with the file.
func (s *Store) locked(f func() error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	timeout := s.opts.LockTimeout
	if timeout <= 0 {
		timeout = DefaultLockTimeout
	}
	l, err := filelock.Acquire(filepath.Join(s.dir, "lock"), timeout)
	if err != nil {
		return fmt.Errorf("the snapshot store is busy: %w", err)
	}
	defer l.Close()
	if err := s.catchUp(); err != nil {
		return err
	}
	if s.st.format > formatVersion {
		return fmt.Errorf("the snapshot store in %s was written by a newer quire (format %d; this quire reads format %d): update quire to use it; nothing in it was changed", s.dir, s.st.format, formatVersion)
	}
	return f()
}

// catchUp reads what other processes appended since the state was read,
// or the whole file when it was replaced (another process pruned it).
func (s *Store) catchUp() error {
	info, err := os.Stat(s.file())
	if errors.Is(err, fs.ErrNotExist) {
		s.st = newState()
		return nil
	}
	if err != nil {
		return fmt.Errorf("the snapshot store: %w", err)
	}
	if s.st != nil && s.st.info != nil && os.SameFile(s.st.info, info) && info.Size() == s.st.size {
		return nil
	}
	from := int64(0)
	if s.st == nil || s.st.info == nil || !os.SameFile(s.st.info, info) || info.Size() < s.st.size {
		s.st = newState()
	} else {
		from = s.st.size
	}
	f, err := os.Open(s.file())
	if err != nil {
		return fmt.Errorf("the snapshot store: %w", err)
	}
	data, err := io.ReadAll(io.NewSectionReader(f, from, info.Size()-from))
	// Closed at once: a cut-off tail is truncated below, which Windows
	// refuses on a file held open.
	f.Close()
	if err != nil {
		return fmt.Errorf("the snapshot store: %w", err)
	}
	sc := scan(data)
	for _, r := range sc.records {
		s.st.apply(from+r.off, r.payload)
	}
	s.st.info = info
	s.st.size = from + sc.good
	if sc.damaged > 0 {
		s.st.damaged += sc.damaged
		s.repairs = append(s.repairs, fmt.Sprintf("the snapshot store had %d damaged record(s), skipped: the versions they held are lost, every other one is intact", sc.damaged))
	}
	if sc.tail > 0 {
		// A write cut off (a crash, a full disk): the other process
		// holding the lock would not be writing now, so the tail is
		// no write in progress.
		if err := os.Truncate(s.file(), s.st.size); err != nil {
			return fmt.Errorf("the snapshot store ends in a write that was cut off, and it could not be removed: %w", err)
		}
		if info, err := os.Stat(s.file()); err == nil {
			s.st.info = info
		}
		s.repairs = append(s.repairs, fmt.Sprintf("the snapshot store's last write was cut off (%d bytes, by a crash or a full disk) and was removed; every earlier snapshot is intact", sc.tail))
	}
	return nil
}

// apply takes one record into the state; one that does not read is
// counted as damaged.
func (st *state) apply(off int64, p []byte) {
	switch {
	case len(p) > 0 && p[0] == kindPiece:
		h, err := decodePieceHeader(p)
		if err != nil {
			st.damaged++
			return
		}
		st.pieces[h.id] = pieceLoc{off: off + headerBytes + int64(h.textAt), n: len(p) - h.textAt, hash: h.hash}
		st.byHash[h.hash] = h.id
		st.nextPiece = max(st.nextPiece, h.id+1)
	case len(p) > 0 && p[0] == kindFormat:
		r := reader{b: p[1:]}
		st.format = int(r.uvarint())
	case len(p) > 0 && p[0] == kindVersion:
		r, err := decodeVersion(p)
		if err != nil {
			st.damaged++
			return
		}
		st.add(r)
	default:
		st.damaged++
	}
}

// add takes a version record into the state, resolving its pieces.
func (st *state) add(r *versionRecord) {
	v := &Version{ID: versionID(r.path, r.time, r.seq), Time: r.time, Path: r.path, Name: r.name,
		Deleted: r.flags&flagDeleted != 0, Words: r.words, Added: r.added, Removed: r.removed, seq: r.seq}
	switch {
	case r.flags&flagFull != 0:
		v.pieces = r.mid
		st.sinceFull[r.path] = 0
	default:
		base, ok := st.bySeq[r.base]
		if !ok || base.Damaged || r.prefix+r.suffix > len(base.pieces) {
			v.Damaged = true
			break
		}
		v.pieces = slices.Concat(base.pieces[:r.prefix], r.mid, base.pieces[len(base.pieces)-r.suffix:])
		st.sinceFull[r.path]++
	}
	if !v.Damaged {
		for _, id := range v.pieces {
			if _, ok := st.pieces[id]; !ok {
				v.Damaged = true
				break
			}
		}
	}
	if v.Damaged {
		v.pieces = nil
	}
	st.versions = append(st.versions, v)
	st.bySeq[r.seq] = v
	st.latest[r.path] = v
	st.nextSeq = max(st.nextSeq, r.seq+1)
}

// versionID names a version by what cannot change while it is kept.
func versionID(path string, t time.Time, seq uint64) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%d\x00%d", path, t.UnixNano(), seq)
	return hex.EncodeToString(h.Sum(nil)[:4])
}

// Record keeps text as the newest version of the chapter at path
// (book-relative, slash-separated), named when name is not empty. An
// unnamed version of a text the chapter's latest version already holds
// is not kept again: nil, nil.
func (s *Store) Record(path, text, name string) (*Version, error) {
	var out *Version
	err := s.locked(func() error {
		v, err := s.record(path, text, name, false)
		out = v
		return err
	})
	return out, err
}

// RecordDeleted notes that the chapter at path is gone; its versions
// stay, to be found and restored. Nothing is kept when its latest
// version already says so, or it has none.
func (s *Store) RecordDeleted(path string) (*Version, error) {
	var out *Version
	err := s.locked(func() error {
		if prev := s.st.latest[path]; prev == nil || prev.Deleted {
			return nil
		}
		v, err := s.record(path, "", "", true)
		out = v
		return err
	})
	return out, err
}

func (s *Store) record(path, text, name string, deleted bool) (*Version, error) {
	st := s.st
	pieces := Split(text)
	ids := make([]uint64, len(pieces))
	var buf bytes.Buffer
	if st.size == 0 {
		// A new store begins with its format.
		buf.Write(frame(binary.AppendUvarint([]byte{kindFormat}, formatVersion)))
	}
	nextPiece := st.nextPiece
	type newPiece struct {
		id   uint64
		hash [32]byte
		loc  int // offset of the compressed text in buf
		n    int
	}
	var added []newPiece
	fresh := map[[32]byte]uint64{}
	for i, p := range pieces {
		hash := sha256.Sum256([]byte(p))
		if id, ok := st.byHash[hash]; ok {
			ids[i] = id
			continue
		}
		if id, ok := fresh[hash]; ok {
			ids[i] = id
			continue
		}
		id := nextPiece
		nextPiece++
		fresh[hash] = id
		ids[i] = id
		payload := encodePieceHeader(id, hash)
		textAt := len(payload)
		payload = append(payload, s.codec.compress(p)...)
		rec := frame(payload)
		added = append(added, newPiece{id: id, hash: hash, loc: buf.Len() + headerBytes + textAt, n: len(payload) - textAt})
		buf.Write(rec)
	}
	prev := st.latest[path]
	if prev != nil && !prev.Deleted && !prev.Damaged && name == "" && !deleted && slices.Equal(prev.pieces, ids) {
		return nil, nil
	}
	r := &versionRecord{seq: st.nextSeq, time: s.now(), path: path, name: name, words: manuscript.ChapterWords(text)}
	if deleted {
		r.flags |= flagDeleted
		r.words = 0
	}
	var old []uint64
	if prev != nil && !prev.Damaged {
		old = prev.pieces
	}
	pre, suf := commonEnds(old, ids)
	if prev == nil || prev.Damaged || st.sinceFull[path]+1 >= checkpointEvery {
		r.flags |= flagFull
		r.mid = ids
	} else {
		r.base, r.prefix, r.suffix = prev.seq, pre, suf
		r.mid = ids[pre : len(ids)-suf]
	}
	// The words changed: the pieces between the common ends, compared
	// word by word; a chapter's first version adds all its words, with
	// no diff to pay for (a first look at a long book reads them all).
	newMid := strings.Join(pieces[pre:len(pieces)-suf], "")
	if len(old) == 0 {
		r.added = words(newMid)
	} else {
		oldMid, err := s.joinPieces(old[pre : len(old)-suf])
		if err != nil {
			return nil, err
		}
		r.added, r.removed = Counts(WordDiff(oldMid, newMid))
	}
	buf.Write(frame(r.encode()))

	// Append, synced; a failure takes back what was written.
	start := st.size
	write := s.appendFile
	if write == nil {
		write = appendSynced
	}
	if err := write(s.file(), buf.Bytes()); err != nil {
		_ = os.Truncate(s.file(), start)
		return nil, fmt.Errorf("the snapshot of %s was not kept (%w); every earlier snapshot is intact", path, err)
	}
	info, err := os.Stat(s.file())
	if err != nil {
		return nil, fmt.Errorf("the snapshot store: %w", err)
	}
	for _, p := range added {
		st.pieces[p.id] = pieceLoc{off: start + int64(p.loc), n: p.n, hash: p.hash}
		st.byHash[p.hash] = p.id
	}
	st.nextPiece = nextPiece
	st.info, st.size = info, start+int64(buf.Len())
	st.add(r)
	return st.bySeq[r.seq], nil
}

// joinPieces is the text of ids, pieces already in the file.
func (s *Store) joinPieces(ids []uint64) (string, error) {
	if len(ids) == 0 {
		return "", nil
	}
	f, err := os.Open(s.file())
	if err != nil {
		return "", fmt.Errorf("the snapshot store: %w", err)
	}
	defer f.Close()
	return s.st.text(&s.codec, f, ids)
}

// text reads and joins pieces from f, the store's file.
func (st *state) text(c *codec, f io.ReaderAt, ids []uint64) (string, error) {
	var b strings.Builder
	for _, id := range ids {
		loc, ok := st.pieces[id]
		if !ok {
			return "", errors.New("a piece of it is missing from the snapshot store")
		}
		data := make([]byte, loc.n)
		if _, err := f.ReadAt(data, loc.off); err != nil {
			return "", fmt.Errorf("the snapshot store: %w", err)
		}
		text, err := c.expand(data)
		if err != nil {
			return "", err
		}
		b.Write(text)
	}
	return b.String(), nil
}

// Text is the chapter's text as the version holds it.
func (s *Store) Text(v *Version) (string, error) {
	var out string
	err := s.locked(func() error {
		if v.Damaged {
			return fmt.Errorf("the version %s of %s is damaged in the snapshot store and cannot be read", v.ID, v.Path)
		}
		cur, ok := s.st.bySeq[v.seq]
		if !ok {
			return fmt.Errorf("the version %s of %s is no longer kept", v.ID, v.Path)
		}
		f, err := os.Open(s.file())
		if err != nil {
			return fmt.Errorf("the snapshot store: %w", err)
		}
		defer f.Close()
		out, err = s.st.text(&s.codec, f, cur.pieces)
		if err != nil {
			return fmt.Errorf("the version %s of %s: %w", v.ID, v.Path, err)
		}
		return nil
	})
	return out, err
}

// Versions lists the versions of the chapter at path, oldest first; of
// every chapter when path is empty.
func (s *Store) Versions(path string) ([]*Version, error) {
	var out []*Version
	err := s.locked(func() error {
		for _, v := range s.st.versions {
			if path == "" || v.Path == path {
				out = append(out, v)
			}
		}
		return nil
	})
	return out, err
}

// Before is the version of the same chapter kept just before v; nil
// when v is its first.
func (s *Store) Before(v *Version) (*Version, error) {
	var out *Version
	err := s.locked(func() error {
		for _, o := range s.st.versions {
			if o.seq >= v.seq {
				break
			}
			if o.Path == v.Path {
				out = o
			}
		}
		return nil
	})
	return out, err
}

// Find is the version whose ID starts with id (at least four digits,
// and matching one version only).
func (s *Store) Find(id string) (*Version, error) {
	id = strings.ToLower(strings.TrimSpace(id))
	if len(id) < 4 {
		return nil, fmt.Errorf("a snapshot id has at least 4 of its 8 digits; %q is too short", id)
	}
	var found []*Version
	err := s.locked(func() error {
		for _, v := range s.st.versions {
			if strings.HasPrefix(v.ID, id) {
				found = append(found, v)
			}
		}
		return nil
	})
	switch {
	case err != nil:
		return nil, err
	case len(found) == 0:
		return nil, fmt.Errorf("no snapshot has the id %s (quire snapshot list shows them)", id)
	case len(found) > 1:
		return nil, fmt.Errorf("%d snapshots have ids that start with %s; give more of the id", len(found), id)
	}
	return found[0], nil
}

// Latest is the newest version of each chapter the store knows, by
// path; a chapter whose file is gone has a Deleted one.
func (s *Store) Latest() (map[string]*Version, error) {
	out := map[string]*Version{}
	err := s.locked(func() error {
		for p, v := range s.st.latest {
			out[p] = v
		}
		return nil
	})
	return out, err
}

// Stats is the store's size.
type Stats struct {
	Bytes    int64 `json:"bytes"`
	Versions int   `json:"versions"`
	Chapters int   `json:"chapters"`
	Pieces   int   `json:"pieces"`
}

// Stats says how big the store is.
func (s *Store) Stats() (Stats, error) {
	var out Stats
	err := s.locked(func() error {
		out = Stats{Bytes: s.st.size, Versions: len(s.st.versions), Chapters: len(s.st.latest), Pieces: len(s.st.pieces)}
		return nil
	})
	return out, err
}

// commonEnds are how many items a and b share at their start and, after
// that, at their end.
func commonEnds(a, b []uint64) (prefix, suffix int) {
	for prefix < len(a) && prefix < len(b) && a[prefix] == b[prefix] {
		prefix++
	}
	for suffix < len(a)-prefix && suffix < len(b)-prefix && a[len(a)-1-suffix] == b[len(b)-1-suffix] {
		suffix++
	}
	return prefix, suffix
}

// codec compresses and expands pieces with one writer and one reader,
// reset for each: a new DEFLATE writer allocates some 600 KB of tables,
// and a chapter of thousands of short paragraphs would pay that for
// each. Not safe for concurrent use; the store uses it under its lock.
type codec struct {
	w *flate.Writer
	r io.ReadCloser
}

func (c *codec) compress(s string) []byte {
	var b bytes.Buffer
	if c.w == nil {
		c.w, _ = flate.NewWriter(&b, flate.DefaultCompression)
	} else {
		c.w.Reset(&b)
	}
	_, _ = c.w.Write([]byte(s))
	_ = c.w.Close()
	return b.Bytes()
}

// expand is the text of a compressed piece, at most maxPieceBytes.
func (c *codec) expand(data []byte) ([]byte, error) {
	if c.r == nil {
		c.r = flate.NewReader(bytes.NewReader(data))
	} else if err := c.r.(flate.Resetter).Reset(bytes.NewReader(data), nil); err != nil {
		return nil, err
	}
	text, err := io.ReadAll(io.LimitReader(c.r, maxPieceBytes+1))
	if err != nil || len(text) > maxPieceBytes {
		return nil, errors.New("a piece of it is damaged in the snapshot store")
	}
	return text, nil
}

// compress is a piece compressed by a codec of its own, for tests.
func compress(s string) []byte {
	var c codec
	return c.compress(s)
}

// appendSynced appends data to the file at path and syncs it.
func appendSynced(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
