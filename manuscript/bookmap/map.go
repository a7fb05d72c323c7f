package bookmap

import (
	"cmp"
	"path/filepath"
	"slices"
	"strings"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/manuscript/continuity"
	"github.com/quire-ink/quire/manuscript/dialogue"
	"github.com/quire-ink/quire/manuscript/goals"
	"github.com/quire-ink/quire/manuscript/outline"
)

// Defaults of Options.
const (
	// DefaultMaxRows is how many entries the heatmap shows one row each:
	// past a few hundred rows a page is no longer read but scrolled, and
	// every row costs a cell per chapter.
	DefaultMaxRows = 200
	// DefaultMaxNodes is how many entries the relationship graph draws:
	// labels on one circle stop being legible past that.
	DefaultMaxNodes = 60
	// DefaultMinShared is the fewest chapters two entries must share for
	// a co-appearance edge, when the book has few chapters; larger books
	// ask for a quarter of their chapters.
	DefaultMinShared = 2
)

// Options say how to build a map.
type Options struct {
	// Root is the book's folder (absolute); chapter links point into it.
	Root string
	// Title heads the page; empty is the folder's name.
	Title string
	// EditorURI is a template for the link of a heatmap cell, with
	// {path} (absolute, slash-separated), {line} and {column} (from 1):
	// "vscode://file/{path}:{line}:{column}". Empty links the file with
	// a file:// URI and #L<line>.
	EditorURI string
	// MaxRows, MaxNodes and MinShared bound the views; zero is the
	// default.
	MaxRows, MaxNodes, MinShared int
	// Timeline places the chapters in story time; nil builds one from
	// the catalog and the snapshot.
	Timeline *continuity.Timeline
	// Progress, when given, adds the progress view: each chapter against
	// its target and the words of each day (manuscript/goals).
	Progress *goals.Summary
	// Dialogue are the book's dialogue: settings, by which the Spoken
	// view finds the speech (manuscript/dialogue); the zero value
	// guesses each chapter's quotation marks.
	Dialogue dialogue.Options
	// Outline are the book's outline: settings, by which the outline
	// view splits chapters into scenes, orders statuses and groups acts
	// (manuscript.ReadOutlineSettings); the zero value is quire's
	// defaults.
	Outline manuscript.OutlineSettings
	// MaxScenes bounds the outline view's scene cards; zero is
	// DefaultMaxScenes.
	MaxScenes int
}

// Map is a book's data for its views.
type Map struct {
	Title string `json:"title"`
	// Chapters are the heatmap's columns, in reading order.
	Chapters []Chapter `json:"chapters"`
	// Entries are the entries the manuscript mentions, in order of first
	// appearance (chapter, then line), then by name.
	Entries []Entry `json:"entries"`
	// Unmentioned are the catalog's entries no chapter mentions, by name.
	Unmentioned []Entry `json:"unmentioned,omitempty"`
	// Types and Tags are those of the mentioned entries, for the
	// heatmap's filters: types in the catalog's order, tags sorted.
	Types []codex.Type `json:"types"`
	Tags  []string     `json:"tags"`
	// Speakers are the characters quire gives lines of dialogue to,
	// certainly or as its best guess, in order of their first line.
	Speakers []Speaker `json:"speakers"`
	// MaxRows is how many entries the heatmap shows one row each, and
	// how many characters the Spoken view does.
	MaxRows  int      `json:"maxRows"`
	Timeline Timeline `json:"timeline"`
	Graph    Graph    `json:"graph"`
	// Progress is the book's counts, goals and recent days; nil leaves
	// the progress view out.
	Progress *goals.Summary `json:"progress,omitempty"`
	// Outline is the book as acts, chapters and scenes, with who
	// appears and speaks in each scene (manuscript/outline).
	Outline *outline.Outline `json:"outline,omitempty"`

	editorURI string
	root      string
	maxScenes int
	// names are the codex names of the outline's pov: and location:
	// values, by the value.
	names map[string]string
}

// Chapter is one chapter: its place in the book and in story time.
type Chapter struct {
	Path     string `json:"path"`
	Title    string `json:"title"`
	Number   int    `json:"number,omitempty"`
	Position int    `json:"position"`
	Words    int    `json:"words"`
	// POV and Location are as the front matter gives them; POVName and
	// LocationName the codex names they resolve to, else the same text.
	POV          string `json:"pov,omitempty"`
	POVName      string `json:"povName,omitempty"`
	Location     string `json:"location,omitempty"`
	LocationName string `json:"locationName,omitempty"`
	// Day is the chapter's own story day, when HasDay; StoryDay its
	// effective one (continuity.Chapter), when HasStoryDay.
	Day         int  `json:"day,omitempty"`
	HasDay      bool `json:"hasDay,omitempty"`
	StoryDay    int  `json:"storyDay,omitempty"`
	HasStoryDay bool `json:"hasStoryDay,omitempty"`
	Flashback   bool `json:"flashback,omitempty"`
	// SpokenWords are the words of the chapter's dialogue, whoever
	// speaks them, and DialogueShare their share of its Words (0 to 1),
	// as quire stats counts them; UnattributedWords are those of lines
	// quire finds no speaker for.
	SpokenWords       int     `json:"spokenWords"`
	DialogueShare     float64 `json:"dialogueShare"`
	UnattributedWords int     `json:"unattributedWords,omitempty"`
}

// Label is how a column and a timeline box name the chapter, as quire
// numbers it everywhere (manuscript.ChapterLabel).
func (c Chapter) Label() string { return manuscript.ChapterLabel(c.Number, c.Position) }

// Entry is one codex entry's appearances.
type Entry struct {
	ID   string     `json:"id"`
	Name string     `json:"name"`
	Type codex.Type `json:"type"`
	Tags []string   `json:"tags,omitempty"`
	// Total counts its mentions in the whole manuscript; Chapters the
	// chapters that mention it.
	Total    int `json:"total"`
	Chapters int `json:"chapters"`
	// Cells are the chapters that mention it, in reading order.
	Cells []Cell `json:"cells,omitempty"`
	// links are the entries its [[links]] resolve to, by ID.
	links []string
}

// First is the entry's first cell; ok is false for an unmentioned entry.
func (e Entry) First() (Cell, bool) {
	if len(e.Cells) == 0 {
		return Cell{}, false
	}
	return e.Cells[0], true
}

// Cell is an entry's mentions in one chapter.
type Cell struct {
	// Chapter indexes Map.Chapters.
	Chapter int `json:"chapter"`
	Count   int `json:"count"`
	// Line and Column (from 1, column in characters) locate the
	// chapter's first mention of the entry.
	Line   int `json:"line"`
	Column int `json:"column"`
}

// Build gathers a book's map from its catalog and one manuscript
// snapshot (whose mention index was built against the same catalog).
func Build(cat *codex.Catalog, snap *manuscript.Snapshot, opts Options) *Map {
	opts = opts.withDefaults(len(snap.Units()))
	m := &Map{Title: opts.Title, MaxRows: opts.MaxRows, editorURI: opts.EditorURI, root: opts.Root, Types: []codex.Type{}, Tags: []string{},
		Speakers: []Speaker{}, Progress: opts.Progress, maxScenes: opts.MaxScenes}
	if m.Title == "" && opts.Root != "" {
		m.Title = filepath.Base(opts.Root)
	}
	tl := opts.Timeline
	if tl == nil {
		tl = continuity.NewTimeline(continuity.NewCanonWithMatcher(cat, continuity.Options{}, snap.Mentions().Matcher()), snap)
	}
	m.Chapters = chaptersOf(cat, snap.Units(), tl)
	resolve := newResolver(cat)
	m.gatherEntries(cat, resolve, snap)
	speech := m.gatherSpeech(cat, snap, opts.Dialogue)
	m.Timeline = timelineOf(m.Chapters)
	m.Graph = graphOf(m, cat, resolve, opts)
	m.buildOutline(cat, snap, opts, speech)
	return m
}

func (o Options) withDefaults(chapters int) Options {
	if o.MaxRows <= 0 {
		o.MaxRows = DefaultMaxRows
	}
	if o.MaxNodes <= 0 {
		o.MaxNodes = DefaultMaxNodes
	}
	if o.MaxScenes <= 0 {
		o.MaxScenes = DefaultMaxScenes
	}
	if o.MinShared <= 0 {
		o.MinShared = max(DefaultMinShared, chapters/4)
	}
	return o
}

// chaptersOf lists the units with their story time.
func chaptersOf(cat *codex.Catalog, units []*manuscript.Unit, tl *continuity.Timeline) []Chapter {
	out := make([]Chapter, len(units))
	for i, u := range units {
		ch := Chapter{Path: u.Path, Title: u.Title, Number: u.Number, Position: i + 1, Words: u.Words,
			POV: u.Meta.POV, Location: u.Meta.Location, Day: u.Meta.Day, HasDay: u.Meta.HasDay, Flashback: u.Meta.Flashback}
		ch.POVName = nameOf(cat, ch.POV)
		ch.LocationName = nameOf(cat, ch.Location)
		tc := tl.Chapter(u.Path, u.Meta)
		ch.StoryDay, ch.HasStoryDay = tc.StoryDay, tc.HasStoryDay
		out[i] = ch
	}
	return out
}

// nameOf is the codex name of the entry a front matter value names, or
// the value itself.
func nameOf(cat *codex.Catalog, s string) string {
	if s == "" {
		return ""
	}
	if e, ok := cat.Resolve(s); ok {
		return e.Name
	}
	return s
}

// gatherEntries reads every chapter's mention counts into rows, one per
// entry, and the catalog's links and unmentioned entries.
func (m *Map) gatherEntries(cat *codex.Catalog, resolve *resolver, snap *manuscript.Snapshot) {
	ix := snap.Mentions()
	rows := map[string]int{}
	for col, u := range snap.Units() {
		counts := ix.InUnit(u.Path)
		if len(counts) == 0 {
			continue
		}
		lines := newLineIndex(u.Text)
		for _, c := range counts {
			r, ok := rows[c.Entry]
			if !ok {
				r = len(m.Entries)
				rows[c.Entry] = r
				m.Entries = append(m.Entries, entryOf(cat, resolve, c.Entry))
			}
			line, column := lines.at(c.First.Start)
			e := &m.Entries[r]
			e.Cells = append(e.Cells, Cell{Chapter: col, Count: c.Count, Line: line, Column: column})
			e.Total += c.Count
			e.Chapters++
		}
	}
	types := map[codex.Type]bool{}
	tags := map[string]bool{}
	for _, e := range m.Entries {
		types[e.Type] = true
		for _, t := range e.Tags {
			tags[t] = true
		}
	}
	for _, e := range cat.All() {
		if _, ok := rows[e.ID]; !ok {
			m.Unmentioned = append(m.Unmentioned, entryOf(cat, resolve, e.ID))
		}
	}
	slices.SortStableFunc(m.Entries, func(a, b Entry) int {
		fa, fb := a.Cells[0], b.Cells[0]
		return cmp.Or(cmp.Compare(fa.Chapter, fb.Chapter), cmp.Compare(fa.Line, fb.Line),
			cmp.Compare(fa.Column, fb.Column), strings.Compare(a.Name, b.Name), strings.Compare(a.ID, b.ID))
	})
	slices.SortStableFunc(m.Unmentioned, func(a, b Entry) int {
		return cmp.Or(strings.Compare(a.Name, b.Name), strings.Compare(a.ID, b.ID))
	})
	for t := range types {
		m.Types = append(m.Types, t)
	}
	slices.SortFunc(m.Types, compareTypes)
	for t := range tags {
		m.Tags = append(m.Tags, t)
	}
	slices.Sort(m.Tags)
}

// entryOf describes the entry id: its name, type, tags and the entries
// its links (and its soul's) resolve to, through resolve. An entry gone
// from the catalog is named by its ID.
func entryOf(cat *codex.Catalog, resolve *resolver, id string) Entry {
	e, ok := cat.Get(id)
	if !ok {
		return Entry{ID: id, Name: id}
	}
	out := Entry{ID: id, Name: e.Name, Type: e.Type, Tags: e.Tags}
	add := func(links []codex.Link) {
		for _, l := range links {
			if t := resolve.id(l.Target); t != "" && t != id && !slices.Contains(out.links, t) {
				out.links = append(out.links, t)
			}
		}
	}
	add(e.Links)
	if e.Soul != nil {
		add(e.Soul.Links)
	}
	slices.Sort(out.links)
	return out
}

// resolver resolves link targets once each: at 10,000 entries the same
// few names are linked thousands of times.
type resolver struct {
	cat  *codex.Catalog
	seen map[string]string
}

func newResolver(cat *codex.Catalog) *resolver {
	return &resolver{cat: cat, seen: map[string]string{}}
}

// id is the ID of the entry target names, or "".
func (r *resolver) id(target string) string {
	if id, ok := r.seen[target]; ok {
		return id
	}
	id := ""
	if e, ok := r.cat.Resolve(target); ok {
		id = e.ID
	}
	r.seen[target] = id
	return id
}

// Links lists the IDs of the entries the entry's [[links]] name.
func (e Entry) Links() []string { return e.links }

// compareTypes orders types as the catalog does: the built-in ones in
// their order, then the writer's own by name.
func compareTypes(a, b codex.Type) int {
	rank := func(t codex.Type) int {
		if i := slices.Index(codex.Types, t); i >= 0 {
			return i
		}
		return len(codex.Types)
	}
	return cmp.Or(cmp.Compare(rank(a), rank(b)), strings.Compare(string(a), string(b)))
}

// Entry returns the mentioned entry with the ID id.
func (m *Map) Entry(id string) (Entry, bool) {
	for _, e := range m.Entries {
		if e.ID == id {
			return e, true
		}
	}
	return Entry{}, false
}
