package snapshot

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"time"

	"github.com/quire-ink/quire/codex/safefile"
)

// Policy is how long versions are kept, as backups keep them: every
// version for All, then the last of each day until Daily, then the
// last of each week. A named version and each chapter's latest are kept
// forever.
type Policy struct {
	All   time.Duration `json:"all"`
	Daily time.Duration `json:"daily"`
}

// DefaultPolicy keeps every version for a week and one a day for three
// months.
var DefaultPolicy = Policy{All: 7 * 24 * time.Hour, Daily: 90 * 24 * time.Hour}

// Pruned says what Prune let go.
type Pruned struct {
	Versions int   `json:"versions"`
	Before   int64 `json:"bytesBefore"`
	After    int64 `json:"bytesAfter"`
}

// keep decides which versions p keeps as of now: vs in order.
func (p Policy) keep(vs []*Version, now time.Time) map[*Version]bool {
	keep := map[*Version]bool{}
	latest := map[string]*Version{}
	// The last version of a chapter in a day or a week, walking newest
	// first.
	dayLast := map[string]bool{}
	weekLast := map[string]bool{}
	for i := len(vs) - 1; i >= 0; i-- {
		v := vs[i]
		if latest[v.Path] == nil {
			latest[v.Path] = v
			keep[v] = true
		}
		age := now.Sub(v.Time)
		local := v.Time.Local()
		day := v.Path + "\x00" + local.Format(time.DateOnly)
		y, w := local.ISOWeek()
		week := fmt.Sprintf("%s\x00%d-%d", v.Path, y, w)
		firstOfDay, firstOfWeek := !dayLast[day], !weekLast[week]
		dayLast[day], weekLast[week] = true, true
		switch {
		case v.Name != "", age < p.All:
			keep[v] = true
		case age < p.Daily && firstOfDay:
			keep[v] = true
		case age >= p.Daily && firstOfWeek:
			keep[v] = true
		}
	}
	return keep
}

// WouldPrune counts the versions Prune would let go of, and keeps them.
func (s *Store) WouldPrune(p Policy) (int, error) {
	n := 0
	err := s.locked(func() error {
		keep := p.keep(s.st.versions, s.now())
		for _, v := range s.st.versions {
			if !keep[v] || v.Damaged {
				n++
			}
		}
		return nil
	})
	return n, err
}

// Prune lets go of the versions p does not keep, rewriting the store
// whole: a new file replaces the old one, so a crash leaves one or the
// other.
func (s *Store) Prune(p Policy) (Pruned, error) {
	var out Pruned
	err := s.locked(func() error {
		st := s.st
		out.Before = st.size
		keep := p.keep(st.versions, s.now())
		if len(keep) == len(st.versions) {
			out.After = st.size
			return nil
		}
		f, err := os.Open(s.file())
		if err != nil {
			return fmt.Errorf("the snapshot store: %w", err)
		}
		// Closed before the new file replaces this one: Windows refuses
		// to replace a file this process holds open.
		closed := false
		defer func() {
			if !closed {
				f.Close()
			}
		}()
		var buf bytes.Buffer
		buf.Write(frame(binary.AppendUvarint([]byte{kindFormat}, formatVersion)))
		written := map[uint64]bool{}
		next := newState()
		for _, v := range st.versions {
			if !keep[v] {
				out.Versions++
				continue
			}
			if v.Damaged {
				// Nothing of it can be read back: let it go too.
				out.Versions++
				continue
			}
			for _, id := range v.pieces {
				if written[id] {
					continue
				}
				written[id] = true
				loc := st.pieces[id]
				data := make([]byte, loc.n)
				if _, err := f.ReadAt(data, loc.off); err != nil {
					return fmt.Errorf("the snapshot store: %w", err)
				}
				buf.Write(frame(append(encodePieceHeader(id, loc.hash), data...)))
			}
			r := &versionRecord{seq: v.seq, time: v.Time, path: v.Path, name: v.Name, words: v.Words, added: v.Added, removed: v.Removed}
			if v.Deleted {
				r.flags |= flagDeleted
			}
			prev := next.latest[v.Path]
			if prev == nil || next.sinceFull[v.Path]+1 >= checkpointEvery {
				r.flags |= flagFull
				r.mid = v.pieces
			} else {
				pre, suf := commonEnds(prev.pieces, v.pieces)
				r.base, r.prefix, r.suffix = prev.seq, pre, suf
				r.mid = v.pieces[pre : len(v.pieces)-suf]
			}
			buf.Write(frame(r.encode()))
			next.add(r)
		}
		f.Close()
		closed = true
		if err := safefile.WriteFile(s.file(), buf.Bytes(), 0o600); err != nil {
			return fmt.Errorf("the snapshot store was not pruned (%w); it is as it was", err)
		}
		out.After = int64(buf.Len())
		// Read the new file afresh.
		s.st = nil
		return s.catchUp()
	})
	return out, err
}
