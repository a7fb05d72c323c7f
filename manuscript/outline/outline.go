// Package outline is the book seen whole, as a writer plans it: acts,
// chapters and scenes as cards, each with its synopsis, point of view,
// story day, location, status and words, and the characters who appear
// or speak in it (docs/outline.md). `quire outline`, the book map's
// outline view, the quire/outline request and the advisor's get_outline
// tool all read it. Like manuscript it knows nothing of LSP or LLMs.
package outline

import (
	"cmp"
	"context"
	"fmt"
	"path"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/count"
	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/manuscript/dialogue"
)

// Options say what an outline holds.
type Options struct {
	// Settings are quire.yaml's outline: section.
	Settings manuscript.OutlineSettings
	// Dialogue is the book's dialogue: section, for who speaks.
	Dialogue dialogue.Options
	// Speakers says whether to attribute each chapter's dialogue to
	// list who speaks in each scene: it costs what attribution costs,
	// about a quarter of a millisecond per thousand words.
	Speakers bool
	// From and To bound the chapters by position, from 1, both
	// included; 0 leaves that end open.
	From, To int
	// POV and Status keep the scenes of that point of view or status
	// (and the chapters that hold one); empty keeps all.
	POV, Status string
	// Speech, when set, is each chapter's attributed dialogue as the
	// caller already has it (the book map attributes it for its own
	// view): with Speakers, it is read instead of attributing again. It
	// is called from several goroutines at once.
	Speech func(u *manuscript.Unit) []dialogue.Utterance
	// Names are the book's current names (the server's matcher), when
	// the snapshot's mention index may have scanned with older ones:
	// a chapter it did not scan with these is scanned again. Nil trusts
	// the index.
	Names *manuscript.Matcher
}

// Outline is the book's plan.
type Outline struct {
	// Acts group the chapters: those quire.yaml names, else the
	// manuscript's folders when the chapters lie in more than one, else
	// one act with no title.
	Acts []Act `json:"acts"`
	// Statuses are the book's statuses, in order.
	Statuses []string `json:"statuses"`
	// Chapters, Scenes and Words count what the outline holds.
	Chapters int `json:"chapters"`
	Scenes   int `json:"scenes"`
	Words    int `json:"words"`
	// Stale counts the synopses written before their text last changed.
	Stale int `json:"stale"`
	// Total is the number of chapters in the book, whatever the bounds
	// and filters kept.
	Total int `json:"total"`
}

// Act is a run of chapters.
type Act struct {
	Title    string    `json:"title"`
	Chapters []Chapter `json:"chapters"`
}

// Card is what a chapter and a scene both show.
type Card struct {
	Title string `json:"title"`
	// Synopsis is the writer's summary; Stale says the text changed
	// since it was written.
	Synopsis string `json:"synopsis,omitempty"`
	Stale    bool   `json:"stale,omitempty"`
	Status   string `json:"status,omitempty"`
	POV      string `json:"pov,omitempty"`
	Location string `json:"location,omitempty"`
	// Day is the story day; HasDay says whether there is one.
	Day       int  `json:"day,omitempty"`
	HasDay    bool `json:"hasDay,omitempty"`
	Flashback bool `json:"flashback,omitempty"`
	Words     int  `json:"words"`
	// Line is where the card's text starts in its file, from 1.
	Line int `json:"line"`
}

// Facts is the card's line of facts, as an outline shows it beside the
// title: "Ilse Dorn · day 4 · flashback · Skerry Vault · draft · 812
// words".
func (c Card) Facts() string {
	var parts []string
	if c.POV != "" {
		parts = append(parts, c.POV)
	}
	if c.HasDay {
		parts = append(parts, fmt.Sprintf("day %d", c.Day))
	}
	if c.Flashback {
		parts = append(parts, "flashback")
	}
	if c.Location != "" {
		parts = append(parts, c.Location)
	}
	if c.Status != "" {
		parts = append(parts, c.Status)
	}
	unit := "words"
	if c.Words == 1 {
		unit = "word"
	}
	return strings.Join(append(parts, count.Number(c.Words)+" "+unit), " · ")
}

// CardOf is the card of story time m, status and words, titled title.
func CardOf(title string, m manuscript.ChapterMeta, status string, words int) Card {
	return Card{Title: title, Status: status, POV: m.POV, Location: m.Location, Day: m.Day, HasDay: m.HasDay, Flashback: m.Flashback, Words: words}
}

// Chapter is a chapter's card and its scenes'.
type Chapter struct {
	Card
	Path     string `json:"path"`
	Position int    `json:"position"`
	// Label is its number as quire shows it (manuscript.ChapterLabel).
	Label  string  `json:"label"`
	Scenes []Scene `json:"scenes"`
}

// Scene is a scene's card.
type Scene struct {
	Card
	Number int `json:"number"`
	// Appear are the characters the scene names, by codex name, in
	// order of their first mention; Speak those quire gives a line to
	// (certainly or as its best guess), in order of their first line.
	Appear []string `json:"appear"`
	Speak  []string `json:"speak"`
}

// maxPeople bounds the characters a card lists.
const maxPeople = 12

// Build reads the outline of the book snap holds, with cat's characters.
// It is linear in the chapters it keeps (and, with Speakers, in their
// words); ctx stops it between chapters.
func Build(ctx context.Context, snap *manuscript.Snapshot, cat *codex.Catalog, opts Options) (*Outline, error) {
	rules := opts.Settings.Rules
	units := snap.Units()
	out := &Outline{Statuses: rules.AllStatuses(), Total: len(units)}
	acts := actsOf(snap, opts.Settings.Acts)
	var book *dialogue.Book
	if opts.Speakers {
		book = dialogue.NewBook(snap, cat, opts.Dialogue)
		if opts.Names != nil {
			book = book.WithNames(opts.Names)
		}
	}
	var mentions *manuscript.MentionIndex
	if snap != nil {
		mentions = snap.Mentions()
	}
	cards, err := readCards(ctx, units, cat, mentions, book, opts)
	if err != nil {
		return nil, err
	}
	for i := range units {
		pos := i + 1
		if !inBounds(pos, opts) {
			continue
		}
		ch := cards[i]
		if !keep(&ch, opts) {
			continue
		}
		out.Chapters++
		out.Scenes += len(ch.Scenes)
		out.Words += ch.Words
		if ch.Stale {
			out.Stale++
		}
		for _, s := range ch.Scenes {
			if s.Stale {
				out.Stale++
			}
		}
		a := acts.at(pos)
		if len(out.Acts) == 0 || out.Acts[len(out.Acts)-1].Title != a || acts.startsAt(pos) {
			out.Acts = append(out.Acts, Act{Title: a})
		}
		last := &out.Acts[len(out.Acts)-1]
		last.Chapters = append(last.Chapters, ch)
	}
	if out.Acts == nil {
		out.Acts = []Act{}
	}
	return out, nil
}

// inBounds says whether the chapter at position pos lies in opts'
// bounds.
func inBounds(pos int, opts Options) bool {
	return (opts.From <= 0 || pos >= opts.From) && (opts.To <= 0 || pos <= opts.To)
}

// readCards reads the cards of the chapters opts keeps, on every core:
// the first outline after a book opens splits every chapter into scenes
// (a tenth of a second of counting words for a four-million-word series
// on one core), and every outline reads each scene's mentions (a
// series has hundreds of thousands). Each unit keeps its split for the
// outlines after. ctx stops it between chapters.
func readCards(ctx context.Context, units []*manuscript.Unit, cat *codex.Catalog, mentions *manuscript.MentionIndex, book *dialogue.Book, opts Options) ([]Chapter, error) {
	rules := opts.Settings.Rules
	cards := make([]Chapter, len(units))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range max(1, min(runtime.GOMAXPROCS(0), len(units))) {
		wg.Go(func() {
			people := newPeople(cat)
			for {
				i := int(next.Add(1)) - 1
				if i >= len(units) || ctx.Err() != nil {
					return
				}
				pos := i + 1
				if !inBounds(pos, opts) {
					continue
				}
				u := units[i]
				ch := chapterCard(u, rules)
				ch.Position, ch.Label = pos, manuscript.ChapterLabel(u.Number, pos)
				scenes := u.Scenes(rules)
				var appear, speak [][]string
				if cat != nil {
					appear = appearing(u, people, mentions, opts.Names, scenes)
				}
				if book != nil {
					var utts []dialogue.Utterance
					if opts.Speech != nil {
						utts = opts.Speech(u)
					} else {
						utts = book.Analyze(u)
					}
					speak = speaking(people, utts, scenes)
				}
				for j := range ch.Scenes {
					if appear != nil {
						ch.Scenes[j].Appear = appear[j]
					}
					if speak != nil {
						ch.Scenes[j].Speak = speak[j]
					}
				}
				cards[i] = ch
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return cards, nil
}

// chapterCard reads u's card and its scenes'.
func chapterCard(u *manuscript.Unit, rules manuscript.SceneRules) Chapter {
	scenes := u.Scenes(rules)
	times := manuscript.SceneTimes(u, scenes)
	note, stale, _ := u.NoteOf(rules, 0)
	lines := newLineCounter(u.Text)
	ch := Chapter{Path: u.Path, Card: Card{
		Title: u.Title, Synopsis: note.Synopsis, Status: note.Status,
		POV: u.Meta.POV, Location: u.Meta.Location, Day: u.Meta.Day, HasDay: u.Meta.HasDay, Flashback: u.Meta.Flashback,
		Line: 1,
	}}
	ch.Stale = stale
	ch.Scenes = make([]Scene, len(scenes))
	for i, s := range scenes {
		m := times[i]
		at := s.Range.Start
		if s.Break != (codex.Range{}) {
			at = s.Break.Start
		}
		ch.Scenes[i] = Scene{Number: s.Number, Appear: []string{}, Speak: []string{}, Card: Card{
			Title: s.Title(), Synopsis: s.Note.Synopsis, Stale: s.Note.Stale(s.Hash), Status: s.Note.Status,
			POV: m.POV, Location: m.Location, Day: m.Day, HasDay: m.HasDay, Flashback: m.Flashback,
			Words: s.Words, Line: lines.at(at),
		}}
		ch.Words += s.Words
	}
	return ch
}

// keep filters ch's scenes by opts' point of view and status, and says
// whether any is left.
func keep(ch *Chapter, opts Options) bool {
	if opts.POV == "" && opts.Status == "" {
		return true
	}
	ch.Scenes = slices.DeleteFunc(ch.Scenes, func(s Scene) bool {
		return opts.POV != "" && !strings.EqualFold(strings.TrimSpace(opts.POV), s.POV) ||
			opts.Status != "" && !strings.EqualFold(strings.TrimSpace(opts.Status), s.Status)
	})
	return len(ch.Scenes) > 0
}

// appearing lists, per scene, the characters u names there.
func appearing(u *manuscript.Unit, p *people, ix *manuscript.MentionIndex, names *manuscript.Matcher, scenes []manuscript.Scene) [][]string {
	ms, ok := ix.MentionsOf(u)
	if names != nil && (!ok || ix.Matcher() != names) {
		ms, ok = names.Scan(u.Text), true
	}
	if !ok {
		return nil
	}
	out := make([][]string, len(scenes))
	base := p.lists(len(scenes))
	// The mentions come in reading order, as the scenes do: a cursor
	// finds each one's scene (a series has hundreds of thousands).
	si := 0
	for _, m := range ms {
		if m.Uncertain || len(m.Others) > 0 {
			continue
		}
		for si < len(scenes) && scenes[si].Range.End <= m.Range.Start {
			si++
		}
		if si == len(scenes) {
			break
		}
		if m.Range.Start >= scenes[si].Range.Start {
			out[si] = p.add(out[si], base+si, m.Entry)
		}
	}
	return fill(out)
}

// speaking lists, per scene, the characters utts give a line there.
func speaking(p *people, utts []dialogue.Utterance, scenes []manuscript.Scene) [][]string {
	out := make([][]string, len(scenes))
	base := p.lists(len(scenes))
	for _, utt := range utts {
		id := utt.Best()
		if id == "" || len(utt.Marks) == 0 {
			continue
		}
		i := manuscript.SceneAt(scenes, utt.Marks[0].Start) - 1
		if i < 0 {
			continue
		}
		out[i] = p.add(out[i], base+i, id)
	}
	return fill(out)
}

// people builds a card's lists of characters for one goroutine: it
// remembers which entries are characters, by what name, and which list
// each entry was last put in, so that a scene's hundreds of mentions
// cost neither a catalog lookup nor a set of their own each.
type people struct {
	cat *codex.Catalog
	// names are the entries looked up: a character's name, else "".
	names map[string]string
	// in is the list each entry was last added to or passed over for;
	// lists are numbered by lists, from 1.
	in   map[string]int
	next int
}

func newPeople(cat *codex.Catalog) *people {
	return &people{cat: cat, names: map[string]string{}, in: map[string]int{}}
}

// lists numbers n new lists, from the number it returns on.
func (p *people) lists(n int) int {
	first := p.next + 1
	p.next += n
	return first
}

// add appends the name of character id to list number n, once, up to
// maxPeople names.
func (p *people) add(list []string, n int, id string) []string {
	// A full list takes no one: no lookup either.
	if len(list) >= maxPeople || p.in[id] == n {
		return list
	}
	p.in[id] = n
	name, ok := p.names[id]
	if !ok {
		if e, found := p.cat.Get(id); found && e.Type == codex.TypeCharacter {
			name = e.Name
		}
		p.names[id] = name
	}
	if name == "" {
		return list
	}
	return append(list, name)
}

// fill makes every nil list empty, for JSON.
func fill(lists [][]string) [][]string {
	for i := range lists {
		if lists[i] == nil {
			lists[i] = []string{}
		}
	}
	return lists
}

// actStarts are the positions acts start at, with their titles.
type actStarts struct {
	starts []int
	titles []string
	// folders names each chapter's act by its folder when no act is
	// set (nil when the chapters share one folder).
	folders map[int]string
}

// actsOf resolves quire.yaml's acts against snap, else groups by folder.
func actsOf(snap *manuscript.Snapshot, set []manuscript.ActSetting) actStarts {
	var a actStarts
	if snap == nil {
		return a
	}
	type act struct {
		pos   int
		title string
	}
	var acts []act
	for _, s := range set {
		u, err := snap.Resolve(s.From, manuscript.Place{})
		if err != nil || u.Position == 0 {
			continue
		}
		acts = append(acts, act{u.Position, s.Title})
	}
	slices.SortStableFunc(acts, func(x, y act) int { return cmp.Compare(x.pos, y.pos) })
	for _, x := range acts {
		a.starts = append(a.starts, x.pos)
		a.titles = append(a.titles, x.title)
	}
	if len(acts) > 0 {
		return a
	}
	dirs := map[string]bool{}
	for _, u := range snap.Units() {
		dirs[path.Dir(u.Path)] = true
	}
	if len(dirs) < 2 {
		return a
	}
	a.folders = map[int]string{}
	for i, u := range snap.Units() {
		a.folders[i+1] = manuscript.ReadableName(path.Base(path.Dir(u.Path)))
	}
	return a
}

// at is the title of the act holding the chapter at pos.
func (a actStarts) at(pos int) string {
	if a.folders != nil {
		return a.folders[pos]
	}
	title := ""
	for i, s := range a.starts {
		if s <= pos {
			title = a.titles[i]
		}
	}
	return title
}

// startsAt says an act named in quire.yaml starts at pos (two acts may
// share a title).
func (a actStarts) startsAt(pos int) bool { return slices.Contains(a.starts, pos) }

// lineCounter finds lines of offsets given in increasing order, in one
// pass over the text.
type lineCounter struct {
	text       string
	off, lines int
}

func newLineCounter(text string) *lineCounter { return &lineCounter{text: text, lines: 1} }

func (c *lineCounter) at(off int) int {
	off = min(max(off, 0), len(c.text))
	if off < c.off {
		c.off, c.lines = 0, 1
	}
	c.lines += strings.Count(c.text[c.off:off], "\n")
	c.off = off
	return c.lines
}
