package progress

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"maps"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/quire-ink/quire/codex/safefile"
)

// FileName is the progress file in a book's cache folder.
const FileName = "progress.json"

// maxFileBytes bounds what is read of a progress file: 400 days and a
// large book's chapters are a few hundred kilobytes.
const maxFileBytes = 8 << 20

// formatVersion is the layout of the file; another is started afresh.
const formatVersion = 1

// Options make a Store.
type Options struct {
	// Path is the progress file; empty keeps the history in memory only.
	Path string
	// Now is the clock (tests turn it past midnight); nil is time.Now.
	Now func() time.Time
	// Debounce is how long Observe waits for more sights before writing;
	// zero writes only on Flush.
	Debounce time.Duration
	Logger   *slog.Logger
}

// Store is one process's view of a book's history: what it saw and has
// not written, over what the file holds. It is safe for concurrent use;
// Observe never waits for the disk.
type Store struct {
	opts Options

	mu      sync.Mutex
	pending []*pendingDay
	timer   *time.Timer
	// closed stops the debounce for good: a sight after Close stays in
	// memory, and no write outlives the store's owner.
	closed bool
	// mem is the history when there is no file.
	mem History
	// seen are this process's last sight of each chapter and session
	// the words it saw added: a session is one process's life.
	seen    map[string]int
	session int

	// writing is held while the file is read and written.
	writing sync.Mutex
}

// New is a Store over the file o.Path.
func New(o Options) *Store {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return &Store{opts: o}
}

// Now is the store's clock.
func (s *Store) Now() time.Time { return s.opts.Now() }

// Observe records a sight of the whole book, each chapter's count by
// project-relative path, now; the file is written Debounce later, in
// the background.
func (s *Store) Observe(counts map[string]int) {
	date := DateOf(s.opts.Now())
	s.mu.Lock()
	defer s.mu.Unlock()
	var p *pendingDay
	if n := len(s.pending); n > 0 && s.pending[n-1].date == date {
		p = s.pending[n-1]
	} else {
		p = newPendingDay(date)
		s.pending = append(s.pending, p)
	}
	p.see(counts)
	s.seeSession(counts)
	if s.opts.Debounce > 0 && s.opts.Path != "" && !s.closed {
		if s.timer == nil {
			s.timer = time.AfterFunc(s.opts.Debounce, func() {
				if err := s.Flush(context.Background()); err != nil {
					s.opts.Logger.Warn("progress: history not written", "err", err)
				}
			})
		} else {
			s.timer.Reset(s.opts.Debounce)
		}
	}
}

// seeSession adds the rises since this process's last sight to the
// session's words.
func (s *Store) seeSession(counts map[string]int) {
	if s.seen == nil {
		s.seen = make(map[string]int, min(len(counts), maxChapters))
	}
	// In place: the server sees the book on every pause in typing.
	for path := range s.seen {
		if _, ok := counts[path]; !ok {
			delete(s.seen, path)
		}
	}
	for path, c := range counts {
		last, ok := s.seen[path]
		if !ok && len(s.seen) >= maxChapters {
			continue
		}
		if ok && c > last {
			s.session += c - last
		}
		s.seen[path] = max(0, c)
	}
}

// Session is the words this process saw added (gross), across days.
func (s *Store) Session() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.session
}

// History is the book's history as it stands: the file with this
// process's sights on it.
func (s *Store) History() History {
	h := s.read()
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range s.pending {
		h.apply(p)
	}
	return h
}

// Flush writes what this process saw to the file: read, sights applied,
// written whole. A write that fails keeps the sights for the next one.
func (s *Store) Flush(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.writing.Lock()
	defer s.writing.Unlock()
	s.mu.Lock()
	pending := s.pending
	s.pending = nil
	s.mu.Unlock()
	if len(pending) == 0 {
		return nil
	}
	h := s.read()
	before := cloneHistory(h)
	for _, p := range pending {
		h.apply(p)
	}
	// Sights that change nothing (the same counts seen again, as at a
	// server's exit) write nothing.
	if equalHistory(before, h) {
		return nil
	}
	if err := s.write(h); err != nil {
		s.mu.Lock()
		s.pending = requeue(pending, s.pending)
		s.mu.Unlock()
		return err
	}
	return nil
}

// Close stops the debounce and writes what is left.
func (s *Store) Close(ctx context.Context) error {
	s.mu.Lock()
	s.closed = true
	if s.timer != nil {
		s.timer.Stop()
	}
	s.mu.Unlock()
	return s.Flush(ctx)
}

// requeue puts failed sights back before the ones seen since.
func requeue(failed, since []*pendingDay) []*pendingDay {
	out := failed
	for _, p := range since {
		if last := out[len(out)-1]; last.date == p.date {
			last.merge(p)
			continue
		}
		out = append(out, p)
	}
	return out
}

type file struct {
	Version int `json:"version"`
	History
}

// read is the file's history; none, or one that cannot be read, is an
// empty history (a damaged file is logged and started afresh).
func (s *Store) read() History {
	if s.opts.Path == "" {
		s.mu.Lock()
		defer s.mu.Unlock()
		return cloneHistory(s.mem)
	}
	h, err := readFile(s.opts.Path)
	if err != nil {
		s.opts.Logger.Warn("progress: history not read; starting afresh", "file", s.opts.Path, "err", err)
		return History{}
	}
	return h
}

func readFile(path string) (History, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return History{}, nil
	}
	if err != nil {
		return History{}, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxFileBytes+1))
	if err != nil {
		return History{}, err
	}
	if len(data) > maxFileBytes {
		return History{}, fmt.Errorf("larger than %d bytes", maxFileBytes)
	}
	var fl file
	if err := json.Unmarshal(data, &fl); err != nil {
		return History{}, fmt.Errorf("damaged: %w", err)
	}
	if fl.Version != formatVersion {
		return History{}, fmt.Errorf("format %d, not %d", fl.Version, formatVersion)
	}
	return sane(fl.History), nil
}

// sane keeps what a hand-edited or damaged file says within bounds:
// days in order, once each, at most MaxDays; no negative count.
func sane(h History) History {
	var days []Day
	for _, d := range h.Days {
		if _, err := time.Parse(time.DateOnly, d.Date); err != nil || len(days) > 0 && d.Date <= days[len(days)-1].Date {
			continue
		}
		d.First, d.Last, d.Gross = max(0, d.First), max(0, d.Last), max(0, d.Gross)
		d.Net = d.Last - d.First
		days = append(days, d)
	}
	if len(days) > MaxDays {
		days = days[len(days)-MaxDays:]
	}
	chapters := make(map[string]int, min(len(h.Chapters), maxChapters))
	for path, c := range h.Chapters {
		if len(chapters) < maxChapters {
			chapters[path] = max(0, c)
		}
	}
	return History{Days: days, Chapters: chapters}
}

func (s *Store) write(h History) error {
	if s.opts.Path == "" {
		s.mu.Lock()
		s.mem = h
		s.mu.Unlock()
		return nil
	}
	data, err := json.Marshal(file{Version: formatVersion, History: h})
	if err != nil {
		return fmt.Errorf("encode progress: %w", err)
	}
	// The folder is the book's cache folder, which opening the book made;
	// one removed since (the cache cleared, a test's folder going away)
	// is not made again for this file.
	if err := safefile.WriteFile(s.opts.Path, data, 0o600); err != nil {
		return fmt.Errorf("write progress: %w", err)
	}
	return nil
}

func equalHistory(a, b History) bool {
	return slices.Equal(a.Days, b.Days) && maps.Equal(a.Chapters, b.Chapters)
}

func cloneHistory(h History) History {
	c := History{Days: append([]Day(nil), h.Days...), Chapters: make(map[string]int, len(h.Chapters))}
	for k, v := range h.Chapters {
		c.Chapters[k] = v
	}
	return c
}
