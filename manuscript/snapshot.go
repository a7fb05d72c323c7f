package manuscript

import (
	"slices"
	"strings"

	"golang.org/x/text/unicode/norm"

	"github.com/quire-ink/quire/codex"
)

// Snapshot is an immutable view of the manuscript: its chapters in
// reading order. Every read of one request goes to one snapshot.
type Snapshot struct {
	root    string
	overlay *Overlay
	units   []*Unit
	byPath  map[string]*Unit
	// offline lists the chapters that are iCloud placeholders on this
	// Mac, not downloaded, so not read (discover).
	offline []string
	// unreadable are the chapters found on disk that could not be read,
	// each as the problem the writer is shown, sorted by path.
	unreadable []codex.Problem
	// mentions indexes the units against the codex of the last
	// SetCatalog (an empty one before).
	mentions *MentionIndex
	// cache is the chapter cache as last read or written; nil for none.
	cache *chapterCache
}

// Root is the project folder.
func (s *Snapshot) Root() string { return s.root }

// Units lists the chapters in reading order. The slice is shared: do not
// modify it.
func (s *Snapshot) Units() []*Unit { return s.units }

// Unit returns the chapter at the project-relative path rel.
// A name macOS lists decomposed (NFD) is the chapter a writer or an
// editor names composed (NFC), and the reverse.
func (s *Snapshot) Unit(rel string) (*Unit, bool) {
	if u, ok := s.byPath[rel]; ok {
		return u, true
	}
	return s.byOtherForm(rel)
}

// byOtherForm finds the chapter whose path is rel in another Unicode
// normalization form. Only a miss on a path with non-ASCII letters pays
// for the look through the chapters.
func (s *Snapshot) byOtherForm(rel string) (*Unit, bool) {
	if isASCII(rel) {
		return nil, false
	}
	want := norm.NFC.String(rel)
	for _, u := range s.units {
		if !isASCII(u.Path) && norm.NFC.String(u.Path) == want {
			return u, true
		}
	}
	return nil, false
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// Document returns the unit for any Markdown file of the project: a
// chapter from the snapshot, else the file read through the overlay,
// confined to the project like every reference.
func (s *Snapshot) Document(rel string) (*Unit, error) {
	if u, ok := s.Unit(rel); ok {
		return u, nil
	}
	// Any other file is named by a reference (a plugin's active
	// document, a model's path), refused in the forms a reference must
	// not take; a chapter, found on disk, is read whatever its name.
	clean, err := checkRelPath(rel)
	if err != nil {
		return nil, err
	}
	return readUnit(s.root, s.overlay, clean)
}

// NotDownloaded lists the chapters (project-relative paths) that are
// only iCloud Drive placeholders on this computer: they are in the book
// but not read until the writer downloads them.
func (s *Snapshot) NotDownloaded() []string { return s.offline }

// Unreadable lists the chapters quire found but could not read (too
// large, binary, a file the system would not open), each as a problem
// on its file that says what to do, sorted by path. They are not in
// Units: the advisor does not read them and no name is found in them.
func (s *Snapshot) Unreadable() []codex.Problem { return s.unreadable }

// withUnreadable is s with rel's problem set to p, or cleared when p is
// nil.
func (s *Snapshot) withUnreadable(rel string, p *codex.Problem) *Snapshot {
	i, found := slices.BinarySearchFunc(s.unreadable, rel, func(q codex.Problem, rel string) int { return strings.Compare(q.Path, rel) })
	if !found && p == nil {
		return s
	}
	next := *s
	next.unreadable = slices.Clone(s.unreadable)
	switch {
	case p == nil:
		next.unreadable = slices.Delete(next.unreadable, i, i+1)
	case found:
		next.unreadable[i] = *p
	default:
		next.unreadable = slices.Insert(next.unreadable, i, *p)
	}
	return &next
}

// Words is the length of the whole manuscript in words.
func (s *Snapshot) Words() int {
	n := 0
	for _, u := range s.units {
		n += u.Words
	}
	return n
}

// Mentions is the index of codex names mentioned in the chapters.
func (s *Snapshot) Mentions() *MentionIndex { return s.mentions }

// withUnits is a snapshot holding exactly units, which are in reading
// order. Only units whose text changed are scanned for mentions again.
func (s *Snapshot) withUnits(units []*Unit) *Snapshot {
	next := &Snapshot{root: s.root, overlay: s.overlay, cache: s.cache, offline: s.offline, unreadable: s.unreadable}
	next.setUnits(units)
	if s.mentions == nil {
		next.mentions = BuildMentionIndex(NewMatcher(nil), next.units)
	} else {
		next.mentions = s.mentions.syncWith(s.mentions.Matcher(), next.units, s.cache)
	}
	return next
}

// withMatcher is a snapshot whose mentions are found with m: a new codex.
// A chapter is scanned again only when m finds other names than the
// matcher it was scanned with.
func (s *Snapshot) withMatcher(m *Matcher) *Snapshot {
	next := *s
	next.cache = s.cache.sharing(m)
	prev := s.mentions
	if prev == nil {
		prev = &MentionIndex{}
	}
	next.mentions = prev.syncWith(m, s.units, next.cache)
	return &next
}

// with is a snapshot in which u is added or replaces the chapter at its
// path.
func (s *Snapshot) with(u *Unit) *Snapshot {
	units := make([]*Unit, 0, len(s.units)+1)
	for _, old := range s.units {
		if old.Path != u.Path {
			units = append(units, old)
		}
	}
	i, _ := slices.BinarySearchFunc(units, u.Path, func(x *Unit, p string) int { return compareReadingOrder(x.Path, p) })
	units = slices.Insert(units, i, u)
	return s.withUnits(units)
}

// without is a snapshot without the chapter at rel.
func (s *Snapshot) without(rel string) *Snapshot {
	if _, ok := s.byPath[rel]; !ok {
		return s
	}
	units := make([]*Unit, 0, len(s.units))
	for _, u := range s.units {
		if u.Path != rel {
			units = append(units, u)
		}
	}
	return s.withUnits(units)
}

// setUnits numbers the units by position, copying any whose position
// changed: units are shared with older snapshots and never modified.
func (s *Snapshot) setUnits(units []*Unit) {
	s.units = make([]*Unit, len(units))
	s.byPath = make(map[string]*Unit, len(units))
	for i, u := range units {
		if u.Position != i+1 {
			c := *u
			c.Position = i + 1
			u = &c
		}
		s.units[i] = u
		s.byPath[u.Path] = u
	}
}
