package continuity

import (
	"strings"
	"sync"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/manuscript/dialogue"
)

// Canon is the story-time view of one catalog under one set of options:
// each entry's progressions and style rules read once, the trait fields,
// and a name matcher that knows every alias an entry ever takes. Build
// it when the codex or the options change; it is immutable.
type Canon struct {
	cat     *codex.Catalog
	opts    Options
	traits  []string
	stories map[string]codex.Story
	rules   []rule
	// matcher finds names and aliases, those that progressions add too.
	matcher *manuscript.Matcher
	// names maps each normalized name and alias (progressions' too) to
	// its entries, for pov and location: made from toName on the first
	// lookup (namesOnce), not while the book opens, since a first hover
	// needs none of it.
	names     map[string][]*codex.Entry
	toName    []namedEntry
	namesOnce sync.Once
	// series, for a book of a series, are the names of the series'
	// entries, shared by its books (canon_series.go); hidden are the
	// series entries the book overrides, whose names are not found.
	series   map[string][]*codex.Entry
	hidden   map[string]bool
	problems []codex.Problem
	// style indexes the rules by the first word they match.
	style styleIndex
	// near remembers the "did you mean" answer for each unknown pov or
	// location: a fuzzy lookup over thousands of entries costs as much
	// as the rest of a chapter's checks, and the same misspelling is
	// checked again on every edit of its chapter.
	near nearCache
	// accepted are the words of opts.Spelling, normalized; spell finds the
	// name words near a word, built on the first check that needs it.
	accepted  map[string]bool
	spellOnce sync.Once
	spell     *spellIndex
	// cast are the characters dialogue attribution gives speech to;
	// mortal says a character's status is dead in the entry or in a
	// progression, so a chapter's speech is worth attributing for
	// after-death.
	cast   *dialogue.Cast
	mortal bool
}

// spelling is the canon's index of name words for the name-spelling
// check.
func (c *Canon) spelling() *spellIndex {
	c.spellOnce.Do(func() { c.spell = buildSpellIndex(c.cat) })
	return c.spell
}

// nearCache is a bounded memo of nearest entries, shared by the
// goroutines that check chapters side by side.
type nearCache struct {
	mu      sync.Mutex
	entries map[string]*codex.Entry
}

// nearCacheSize bounds the memo: a book names at most a few hundred
// povs and locations; past that it starts again.
const nearCacheSize = 1024

// nearest is the entry whose name is closest to name; ok is false when
// none is close. The catalog is fixed for the canon's life, so the
// answer is too.
func (c *Canon) nearest(name string) (*codex.Entry, bool) {
	c.near.mu.Lock()
	e, ok := c.near.entries[name]
	c.near.mu.Unlock()
	if !ok {
		if ms := c.cat.Lookup(name, ""); len(ms) > 0 {
			e = ms[0].Entry
		}
		c.near.mu.Lock()
		if c.near.entries == nil || len(c.near.entries) >= nearCacheSize {
			c.near.entries = map[string]*codex.Entry{}
		}
		c.near.entries[name] = e
		c.near.mu.Unlock()
	}
	return e, e != nil
}

// rule is a style rule and the entry it belongs to.
type rule struct {
	codex.StyleRule
	entry *codex.Entry
}

// NewCanon reads the story-time canon of cat. Its cost grows with the
// entries; only those that use story time have their front matter read
// again.
func NewCanon(cat *codex.Catalog, opts Options) *Canon {
	return NewCanonWithMatcher(cat, opts, nil)
}

// NewCanonWithMatcher is NewCanon reusing m, the matcher the caller
// already built for cat, unless a progression adds an alias m cannot
// know: building a matcher for thousands of entries is most of the cost
// of a canon.
func NewCanonWithMatcher(cat *codex.Catalog, opts Options, m *manuscript.Matcher) *Canon {
	c := &Canon{cat: cat, opts: opts, traits: opts.traits(), stories: map[string]codex.Story{},
		accepted: map[string]bool{}}
	for _, w := range opts.Spelling {
		c.accepted[codex.Normalize(w)] = true
	}
	var widened []*codex.Entry
	own := c.layOverSeries()
	for _, e := range cat.All() {
		s := cat.Story(e)
		if len(s.Progressions) > 0 || len(s.Rules) > 0 || s.Status != "" {
			c.stories[e.ID] = s
		}
		c.problems = append(c.problems, s.Problems...)
		c.mortal = c.mortal || (e.Type == codex.TypeCharacter || e.Type == "") && mayDie(s)
		for _, r := range s.Rules {
			c.rules = append(c.rules, rule{StyleRule: r, entry: e})
		}
		aliases := storyAliases(e, s)
		if own == nil || own[e] {
			c.toName = append(c.toName, namedEntry{e, aliases})
		}
		if len(aliases) > len(e.Aliases) {
			w := *e
			w.Aliases = aliases
			widened = append(widened, &w)
		}
	}
	c.style = buildStyleIndex(c.rules)
	c.cast = dialogue.NewCast(cat.OfType(codex.TypeCharacter))
	// An alias given from a chapter on still names the entity earlier:
	// the matcher knows every alias an entry ever has.
	switch {
	case len(widened) > 0:
		c.matcher = manuscript.NewMatcher(cat.WithEntries(widened))
	case m != nil:
		c.matcher = m
	default:
		c.matcher = manuscript.NewMatcher(cat)
	}
	return c
}

// mayDie says a story makes its entry dead somewhere: its own status,
// or a progression's.
func mayDie(s codex.Story) bool {
	if (codex.AsOf{Status: s.Status}).Dead() {
		return true
	}
	for _, p := range s.Progressions {
		for _, f := range p.Changes {
			if st, ok := f.Value.(string); ok && strings.EqualFold(f.Key, "status") &&
				(codex.AsOf{Status: strings.ToLower(strings.TrimSpace(st))}).Dead() {
				return true
			}
		}
	}
	return false
}

// textValues reads a text value or a list of them.
func textValues(v any) []string {
	switch v := v.(type) {
	case string:
		if s := strings.TrimSpace(v); s != "" {
			return []string{s}
		}
	case []any:
		var out []string
		for _, item := range v {
			if s, ok := item.(string); ok && strings.TrimSpace(s) != "" {
				out = append(out, strings.TrimSpace(s))
			}
		}
		return out
	}
	return nil
}

// Catalog is the catalog the canon was read from.
func (c *Canon) Catalog() *codex.Catalog { return c.cat }

// Matcher finds names and aliases in prose, every alias a progression
// adds included.
func (c *Canon) Matcher() *manuscript.Matcher { return c.matcher }

// Story is what entry id says about story time.
func (c *Canon) Story(id string) codex.Story { return c.stories[id] }

// Problems are the problems of progressions and style rules as written,
// located in the entries' files.
func (c *Canon) Problems() []codex.Problem { return c.problems }

// Named finds the entries a name or alias (progressions' included) names.
func (c *Canon) Named(name string) []*codex.Entry {
	if es := c.named(codex.Normalize(name)); len(es) > 0 {
		return es
	}
	if bare, ok := codex.StripPossessive(codex.Normalize(name)); ok {
		return c.named(bare)
	}
	return nil
}
