// Package proposal makes proposals: exact, reviewable changes to the
// canon, each a set of byte-range edits with the hash of the text they
// were computed from. It reads the codex and writes nothing: applying a
// proposal is the writer's act, through the editor. It knows nothing of
// language models; the advisor's tools bind it to the model.
package proposal

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/quire-ink/quire/codex"
)

// Proposal kinds.
const (
	KindUpdate = "update"
	KindCreate = "create"
)

// DefaultMax is how many proposals a Store keeps when no bound is given.
const DefaultMax = 100

// Proposal is a change to the canon the model suggested and the writer
// has not applied. It is review-only: nothing here is ever written to
// disk, and applying it is the writer's act, through the editor.
type Proposal struct {
	// ID is random, "p-" and 12 hex digits.
	ID string `json:"id"`
	// Tool is the tool that made it (propose_codex_update, …).
	Tool      string     `json:"tool"`
	Kind      string     `json:"kind"` // KindUpdate or KindCreate
	EntryType codex.Type `json:"entryType"`
	// Name is the entry's name: as resolved for an update, as proposed
	// for a create.
	Name          string `json:"name"`
	ChangeSummary string `json:"changeSummary"`
	// Path is the project-relative file the proposal is about: the entry
	// file, or the file a section edit targets (a soul.md), or the new
	// entry's file.
	Path string `json:"path"`
	// SoulPath is the soul.md a create proposes beside a new character
	// (folder shape); empty otherwise.
	SoulPath string `json:"soulPath,omitempty"`
	// BaseHash is codex.HashText of Path's text the proposal was computed from;
	// empty for a create. An apply must refuse when the file changed.
	BaseHash string `json:"baseHash,omitempty"`
	// Edits are the exact changes, grouped by file, in file order.
	Edits []FileEdit `json:"edits"`
	// Bases are the exact texts the edits of an update were made from,
	// by path. The base hash leaves line endings out, as every
	// codex.HashText does, while the edits are byte ranges: Stale compares
	// these bytes too, so a file whose line endings changed is refused
	// rather than garbled. Held in memory only; they are the writer's
	// files, already on disk.
	Bases map[string]string `json:"-"`
	// Markdown is the proposed text for the writer to read: the new
	// section, or the whole new entry file.
	Markdown string `json:"markdown"`
	// SoulMarkdown is the proposed soul.md of a create, if any.
	SoulMarkdown string    `json:"soulMarkdown,omitempty"`
	Warnings     []string  `json:"warnings,omitempty"`
	Created      time.Time `json:"created"`
	// Diff is the unified diff of Edits against the text they were made
	// from, for the writer to review.
	Diff string `json:"diff"`
	// Applied is when the editor reported the proposal applied; zero
	// while it is pending.
	Applied time.Time `json:"applied,omitzero"`
}

// FileEdit is one exact change: NewText replaces Range (byte offsets into
// the file's text whose hash is BaseHash), or, with Create, NewText is a
// whole new file at Path, which must not exist.
type FileEdit struct {
	Path     string      `json:"path"`
	Create   bool        `json:"create,omitempty"`
	Range    codex.Range `json:"range"`
	NewText  string      `json:"newText"`
	BaseHash string      `json:"baseHash,omitempty"`
}

// ApplyEdits applies the edits of one file to its text and returns the
// result. Create edits are skipped; ranges must lie inside base and not
// overlap. It writes nothing anywhere.
func ApplyEdits(base string, edits []FileEdit) (string, error) {
	var es []FileEdit
	for _, e := range edits {
		if !e.Create {
			es = append(es, e)
		}
	}
	sort.SliceStable(es, func(i, j int) bool { return es[i].Range.Start < es[j].Range.Start })
	out := make([]byte, 0, len(base))
	at := 0
	for _, e := range es {
		r := e.Range
		if r.Start < at || r.End < r.Start || r.End > len(base) {
			return "", fmt.Errorf("edit range [%d,%d) is out of bounds or overlaps another edit", r.Start, r.End)
		}
		out = append(out, base[at:r.Start]...)
		out = append(out, e.NewText...)
		at = r.End
	}
	out = append(out, base[at:]...)
	return string(out), nil
}

// newID is "p-" and 12 random hex digits.
func newID() string {
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		// crypto/rand does not fail on supported platforms; fall back
		// to the clock rather than panic.
		return fmt.Sprintf("p-%012x", time.Now().UnixNano()&0xffffffffffff)
	}
	return "p-" + hex.EncodeToString(b[:])
}

// Store is an in-memory, concurrency-safe store of the proposals of
// a session, bounded: past its limit the oldest are dropped. The zero
// value is ready to use and keeps DefaultMax.
type Store struct {
	mu    sync.Mutex
	max   int
	items []Proposal // oldest first
}

// NewStore makes a store that keeps the max newest proposals
// (DefaultMax when max <= 0).
func NewStore(max int) *Store {
	return &Store{max: max}
}

func (s *Store) limit() int {
	if s.max <= 0 {
		return DefaultMax
	}
	return s.max
}

// Add stores p, giving it an ID and a creation time when it has none,
// and returns what was stored. A proposal with the ID of one already
// held replaces it.
func (s *Store) Add(p Proposal) Proposal {
	if p.ID == "" {
		p.ID = newID()
	}
	if p.Created.IsZero() {
		p.Created = time.Now()
	}
	p = cloneProposal(p)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.items = slices.DeleteFunc(s.items, func(q Proposal) bool { return q.ID == p.ID })
	s.items = append(s.items, p)
	if over := len(s.items) - s.limit(); over > 0 {
		s.items = slices.Delete(s.items, 0, over)
	}
	return cloneProposal(p)
}

// Get returns the proposal with the given ID.
func (s *Store) Get(id string) (Proposal, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := len(s.items) - 1; i >= 0; i-- {
		if s.items[i].ID == id {
			return cloneProposal(s.items[i]), true
		}
	}
	return Proposal{}, false
}

// List returns every proposal held, newest first.
func (s *Store) List() []Proposal {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Proposal, 0, len(s.items))
	for i := len(s.items) - 1; i >= 0; i-- {
		out = append(out, cloneProposal(s.items[i]))
	}
	return out
}

// MarkApplied records that the proposal with the given ID was applied,
// and reports whether it is held.
func (s *Store) MarkApplied(id string, at time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range s.items {
		if s.items[i].ID == id {
			s.items[i].Applied = at
			return true
		}
	}
	return false
}

// Discard drops the proposal with the given ID and reports whether it
// was held.
func (s *Store) Discard(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := len(s.items)
	s.items = slices.DeleteFunc(s.items, func(q Proposal) bool { return q.ID == id })
	return len(s.items) < n
}

// Len is how many proposals are held.
func (s *Store) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.items)
}

// cloneProposal copies the slices of p, so callers never share them.
func cloneProposal(p Proposal) Proposal {
	p.Edits = slices.Clone(p.Edits)
	p.Warnings = slices.Clone(p.Warnings)
	p.Bases = maps.Clone(p.Bases)
	return p
}
