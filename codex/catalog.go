package codex

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode"
)

// Catalog is an immutable, in-memory view of every entry, built for fast
// name resolution: hover and mention detection never wait on a search.
// A new catalog is built for every change; readers keep whichever one
// they started with.
type Catalog struct {
	byID   map[string]*Entry
	sorted []*Entry
	byType map[Type][]*Entry

	// Normalized key → entries, one map per lookup tier.
	byName, byTitle, byStem, byAlias map[string][]*Entry

	// words lists every word of every name, title and alias, sorted, for
	// partial-name matching by word prefix.
	words []wordRef
	// keys lists every normalized name, title, stem and alias once per
	// entry, for fuzzy matching.
	keys []fuzzyKey
	// shortest is the length in characters of each entry's shortest name,
	// title or alias, for scoring partial matches.
	shortest map[*Entry]int

	problems []Problem
}

type wordRef struct {
	word  string
	entry *Entry
}

type fuzzyKey struct {
	key   string
	runes int
	entry *Entry
	tier  MatchKind
}

// NewCatalog indexes entries. skipped are the problems of files that
// could not be read as entries at all, kept so they can be shown. Entries
// with the same ID are a caller bug; the last one wins.
func NewCatalog(entries []*Entry, skipped []Problem) *Catalog {
	c := &Catalog{
		byID:     make(map[string]*Entry, len(entries)),
		byType:   map[Type][]*Entry{},
		byName:   make(map[string][]*Entry, len(entries)),
		byTitle:  make(map[string][]*Entry, len(entries)),
		byStem:   make(map[string][]*Entry, len(entries)),
		byAlias:  make(map[string][]*Entry, len(entries)),
		shortest: make(map[*Entry]int, len(entries)),
	}
	for _, e := range entries {
		c.byID[e.ID] = e
	}
	c.sorted = make([]*Entry, 0, len(c.byID))
	for _, e := range c.byID {
		c.sorted = append(c.sorted, e)
	}
	slices.SortFunc(c.sorted, compareEntries)

	for _, e := range c.sorted {
		c.byType[e.Type] = append(c.byType[e.Type], e)
		seen := map[string]bool{}
		add := func(m map[string][]*Entry, key string, tier MatchKind) {
			if key == "" {
				return
			}
			m[key] = append(m[key], e)
			if !seen[key] {
				seen[key] = true
				n := runeLen(key)
				c.keys = append(c.keys, fuzzyKey{key: key, runes: n, entry: e, tier: tier})
				if tier != MatchStem && (c.shortest[e] == 0 || n < c.shortest[e]) {
					c.shortest[e] = n
				}
			}
		}
		add(c.byName, Normalize(e.Name), MatchName)
		add(c.byTitle, Normalize(e.Title), MatchTitle)
		add(c.byStem, stemKey(e.Stem), MatchStem)
		for _, a := range e.Aliases {
			add(c.byAlias, Normalize(a), MatchAlias)
		}
		words := map[string]bool{}
		for _, k := range append([]string{e.Name, e.Title}, e.Aliases...) {
			for _, w := range splitWords(Normalize(k)) {
				if !words[w] {
					words[w] = true
					c.words = append(c.words, wordRef{w, e})
				}
			}
		}
	}
	slices.SortFunc(c.words, func(a, b wordRef) int { return strings.Compare(a.word, b.word) })
	c.problems = c.findProblems(skipped)
	return c
}

// compareEntries orders entries by type (built-ins first, in their
// order), then name, then ID, so every listing is stable.
func compareEntries(a, b *Entry) int {
	return cmp.Or(
		cmp.Compare(typeRank(a.Type), typeRank(b.Type)),
		strings.Compare(string(a.Type), string(b.Type)),
		strings.Compare(Normalize(a.Name), Normalize(b.Name)),
		strings.Compare(a.ID, b.ID),
	)
}

func typeRank(t Type) int {
	if i := slices.Index(Types, t); i >= 0 {
		return i
	}
	return len(Types)
}

// stemKey normalizes a file stem or a query for comparison with stems:
// "mara-vell", "mara_vell" and "Mara Vell" are one key.
func stemKey(s string) string {
	return Normalize(strings.Map(func(r rune) rune {
		if r == '-' || r == '_' {
			return ' '
		}
		return r
	}, s))
}

func splitWords(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\''
	})
}

// Len is the number of entries.
func (c *Catalog) Len() int { return len(c.sorted) }

// Get returns the entry with the given ID.
func (c *Catalog) Get(id string) (*Entry, bool) {
	e, ok := c.byID[id]
	return e, ok
}

// All returns every entry in stable order. The slice is shared: do not
// modify it.
func (c *Catalog) All() []*Entry { return c.sorted }

// OfType returns the entries of one type, in stable order; an empty type
// returns all. The slice is shared: do not modify it.
func (c *Catalog) OfType(t Type) []*Entry {
	if t == "" {
		return c.sorted
	}
	return c.byType[t]
}

// TypeCounts counts entries per type.
func (c *Catalog) TypeCounts() map[Type]int {
	out := make(map[Type]int, len(c.byType))
	for t, es := range c.byType {
		out[t] = len(es)
	}
	return out
}

// Resolve finds the entry a [[link]] or a name refers to exactly: by
// name, title, alias or file stem, ignoring case, diacritics and a
// possessive ending. Ambiguous names resolve to the best-ranked entry.
func (c *Catalog) Resolve(name string) (*Entry, bool) {
	ms := c.exact(Normalize(name), "")
	if len(ms) == 0 {
		return nil, false
	}
	return ms[0].Entry, true
}

// Problems lists every codex problem, sorted by file and position: what
// parsing found in each entry and its soul, files skipped as unreadable,
// names or aliases claimed by more than one entry, and links to entries
// or sections that do not exist. Each is reported in the file where the
// writer can fix it.
func (c *Catalog) Problems() []Problem { return c.problems }

// ProblemsIn lists the problems of one file.
func (c *Catalog) ProblemsIn(path string) []Problem {
	lo, _ := slices.BinarySearchFunc(c.problems, path, func(p Problem, path string) int {
		return strings.Compare(p.Path, path)
	})
	hi := lo
	for hi < len(c.problems) && c.problems[hi].Path == path {
		hi++
	}
	return c.problems[lo:hi]
}

func (c *Catalog) findProblems(skipped []Problem) []Problem {
	out := slices.Clone(skipped)
	for _, e := range c.sorted {
		out = append(out, e.Problems...)
		if e.Soul != nil {
			out = append(out, e.Soul.Problems...)
		}
	}
	type claim struct {
		entry *Entry
		what  string
		r     Range
	}
	claims := map[string][]claim{}
	var order []string
	for _, e := range c.sorted {
		mine := map[string]bool{}
		stake := func(raw, what string, r Range) {
			k := Normalize(raw)
			if k == "" || mine[k] {
				return
			}
			mine[k] = true
			if _, ok := claims[k]; !ok {
				order = append(order, k)
			}
			claims[k] = append(claims[k], claim{e, what, r})
		}
		stake(e.Name, "name", e.NameRange)
		for i, a := range e.Aliases {
			r := Range{}
			if i < len(e.AliasRanges) {
				r = e.AliasRanges[i]
			}
			stake(a, "alias", r)
		}
	}
	for _, k := range order {
		cs := claims[k]
		if len(cs) < 2 {
			continue
		}
		for _, mine := range cs {
			var others []string
			for _, other := range cs {
				if other.entry != mine.entry {
					others = append(others, fmt.Sprintf("%s of %s (%s)", other.what, other.entry.Name, other.entry.ID))
				}
			}
			out = append(out, Problem{Path: mine.entry.ID, Code: CodeDuplicateName, Severity: SeverityWarning,
				Message: fmt.Sprintf("%s %q is also the %s; mentions of it are ambiguous",
					mine.what, mine.entry.displayKey(k, mine.what), strings.Join(others, " and the ")),
				Range: mine.r})
		}
	}
	for _, e := range c.sorted {
		out = append(out, c.linkProblems(e.ID, e.Links)...)
		if e.Soul != nil {
			out = append(out, c.linkProblems(e.Soul.ID, e.Soul.Links)...)
		}
	}
	slices.SortStableFunc(out, func(a, b Problem) int {
		return cmp.Or(strings.Compare(a.Path, b.Path), cmp.Compare(a.Range.Start, b.Range.Start))
	})
	return out
}

func (e *Entry) displayKey(norm, what string) string {
	if what == "name" {
		return e.Name
	}
	for _, a := range e.Aliases {
		if Normalize(a) == norm {
			return a
		}
	}
	return norm
}

func (c *Catalog) linkProblems(path string, links []Link) []Problem {
	var out []Problem
	for _, l := range links {
		target, ok := c.Resolve(l.LinkName())
		if !ok {
			out = append(out, Problem{Path: path, Code: CodeBrokenLink, Severity: SeverityWarning,
				Message: fmt.Sprintf("no codex entry is named %q", l.LinkName()), Range: l.TargetRange})
			continue
		}
		if sec := l.LinkSection(); sec != "" {
			if _, ok := target.Section(sec); !ok {
				out = append(out, Problem{Path: path, Code: CodeBrokenLink, Severity: SeverityWarning,
					Message: fmt.Sprintf("%s has no section %q", target.Name, sec), Range: l.TargetRange})
			}
		}
	}
	return out
}
