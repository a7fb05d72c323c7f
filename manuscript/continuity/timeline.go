package continuity

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
)

// Chapter is a chapter's place in reading order and in story time.
type Chapter struct {
	Path  string `json:"path"`
	Title string `json:"title"`
	// Position is the place in reading order, from 1; Number the leading
	// number of the file name, 0 when it has none.
	Position int `json:"position"`
	Number   int `json:"number,omitempty"`
	// Meta is what the chapter's front matter says about story time.
	Meta manuscript.ChapterMeta `json:"meta"`
	// StoryDay is the chapter's day, else that of the nearest earlier
	// chapter that is no flashback and has one; HasStoryDay says whether
	// there is any.
	StoryDay    int  `json:"storyDay,omitempty"`
	HasStoryDay bool `json:"hasStoryDay,omitempty"`
	// EndDay is the day the chapter ends on: the last its front matter
	// or a scene that is no flashback gives (manuscript.LastDay), which
	// the next chapter is compared with; HasEndDay says there is one.
	EndDay      int         `json:"endDay,omitempty"`
	HasEndDay   bool        `json:"hasEndDay,omitempty"`
	endDayRange codex.Range `json:"-"`
	// Scene is, for the story time of one scene (SceneOf), its number;
	// 0 for a whole chapter.
	Scene int `json:"scene,omitempty"`
}

// Label is the chapter's number as quire shows it everywhere.
func (c Chapter) Label() string { return manuscript.ChapterLabel(c.Number, c.Position) }

// Previous is the chapter a chapter's day is compared with: the nearest
// earlier one in reading order that is no flashback and has a day.
type Previous struct {
	Path  string      `json:"path"`
	Title string      `json:"title"`
	Day   int         `json:"day"`
	Range codex.Range `json:"range"`
	// Text is the chapter's file, for the line of its day.
	Text string `json:"-"`
	// scene is, within the chapter being checked, the earlier scene
	// whose day is compared; 0 for another chapter.
	scene int
}

// what names the chapter or scene in a message.
func (p *Previous) what() string {
	if p.scene > 0 {
		return fmt.Sprintf("scene %d of this chapter", p.scene)
	}
	return strconv.Quote(p.Title)
}

// capitalize starts s with a capital letter, for a message that opens
// with a name.
func capitalize(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

// Timeline places the chapters of one manuscript snapshot in story time
// and resolves the chapter each progression starts from. Build it when
// the canon changes, and move it to a new snapshot of the chapters with
// For.
type Timeline struct {
	canon *Canon
	*placing
	units []*manuscript.Unit
	// mentions is the snapshot's mention index: where it scanned a
	// chapter with the canon's matcher, the checks reuse that scan.
	mentions *manuscript.MentionIndex
	problems []codex.Problem
}

// placing is what a timeline works out from the chapters' order, file
// names, titles and front matter: the timelines of snapshots whose
// chapters agree on those share it. An edit of a chapter's prose
// changes none of them, so the server keeps one placing across a
// writer's edits instead of building it again for every keystroke.
type placing struct {
	chapters []Chapter
	byPath   map[string]int
	// from holds, per entry, the position each progression starts at; 0
	// when its chapter reference names no chapter.
	from map[string][]int
	// ordered holds the stories whose progressions come from a series
	// entry and the book entry over it, in the order they apply (story
	// order; see order); from follows that order for them.
	ordered map[string]codex.Story
	// units are the chapters it was worked out from, to tell by identity
	// those a later snapshot shares.
	units []*manuscript.Unit
	// rules split the chapters into scenes, whose days count.
	rules manuscript.SceneRules
	// unplaced are the progressions whose reference names no chapter:
	// their problem is said again for each snapshot, since a path may
	// name a file of the project that is no chapter, read from disk.
	unplaced []progressionRef
}

// progressionRef is the i-th progression of the entry id.
type progressionRef struct {
	id string
	i  int
}

// NewTimeline places snap's chapters in story time under canon.
func NewTimeline(canon *Canon, snap *manuscript.Snapshot) *Timeline {
	units := snap.Units()
	pl := &placing{byPath: make(map[string]int, len(units)), from: map[string][]int{}, units: units,
		chapters: make([]Chapter, 0, len(units)), rules: canon.opts.Scenes}
	lastDay, hasLast := 0, false
	for i, u := range units {
		ch := Chapter{Path: u.Path, Title: u.Title, Position: i + 1, Number: u.Number, Meta: u.Meta}
		switch {
		case u.Meta.HasDay:
			ch.StoryDay, ch.HasStoryDay = u.Meta.Day, true
		case hasLast:
			ch.StoryDay, ch.HasStoryDay = lastDay, true
		}
		ch.EndDay, ch.endDayRange, ch.HasEndDay = manuscript.LastDay(u, canon.opts.Scenes)
		if ch.HasEndDay {
			lastDay, hasLast = ch.EndDay, true
		}
		pl.byPath[u.Path] = len(pl.chapters)
		pl.chapters = append(pl.chapters, ch)
	}
	for id, s := range canon.stories {
		if len(s.Progressions) == 0 {
			continue
		}
		pos := make([]int, len(s.Progressions))
		for i, p := range s.Progressions {
			if u, err := snap.Resolve(p.From, manuscript.Place{}); err == nil && u.Position > 0 {
				pos[i] = u.Position
				continue
			}
			pl.unplaced = append(pl.unplaced, progressionRef{id, i})
		}
		pl.from[id] = pos
		if seriesAndBook(s) {
			pl.order(id, s, pos)
		}
	}
	return pl.timeline(canon, snap)
}

// For is the timeline of snap under t's canon. It shares t's placing
// when snap's chapters come in the same order with the same file names,
// titles and front matter (only their prose changed), and is
// NewTimeline(t.Canon(), snap) otherwise: either way it equals the
// latter.
func (t *Timeline) For(snap *manuscript.Snapshot) *Timeline {
	if !t.placing.rules.Equal(t.canon.opts.Scenes) || !t.placing.fits(snap.Units()) {
		return NewTimeline(t.canon, snap)
	}
	return t.placing.timeline(t.canon, snap)
}

// fits reports whether a timeline of units would be placed as pl is:
// what placing chapters and resolving references reads of each chapter
// is unchanged.
func (pl *placing) fits(units []*manuscript.Unit) bool {
	if len(units) != len(pl.units) {
		return false
	}
	for i, u := range units {
		was := pl.units[i]
		if u == was {
			continue
		}
		if u.Path != was.Path || u.Title != was.Title || u.Number != was.Number || u.Position != was.Position || !sameMeta(u.Meta, was.Meta) {
			return false
		}
		// A scene's day, which prose may change, moves the day the
		// chapter ends on.
		if u.HasSceneNotes() || was.HasSceneNotes() {
			d1, r1, ok1 := manuscript.LastDay(u, pl.rules)
			d2, r2, ok2 := manuscript.LastDay(was, pl.rules)
			if d1 != d2 || r1 != r2 || ok1 != ok2 {
				return false
			}
		}
	}
	return true
}

// sameMeta compares two chapters' story-time front matter, problems and
// ranges included, since a timeline's chapters carry it.
func sameMeta(a, b manuscript.ChapterMeta) bool {
	return a.POV == b.POV && a.POVRange == b.POVRange && a.Day == b.Day && a.HasDay == b.HasDay &&
		a.DayRange == b.DayRange && a.Location == b.Location && a.LocationRange == b.LocationRange &&
		a.Flashback == b.Flashback && a.FlashbackRange == b.FlashbackRange && slices.Equal(a.Problems, b.Problems)
}

// timeline is pl seen from snap: the chapters' texts and mentions are
// snap's, and the references that name no chapter are said again.
func (pl *placing) timeline(canon *Canon, snap *manuscript.Snapshot) *Timeline {
	t := &Timeline{canon: canon, placing: pl, units: snap.Units(), mentions: snap.Mentions()}
	for _, r := range pl.unplaced {
		p := canon.stories[r.id].Progressions[r.i]
		reason := "names no chapter"
		if _, err := snap.Resolve(p.From, manuscript.Place{}); err == nil {
			reason = "names a file that is not a chapter"
		}
		path := r.id
		if p.File != "" {
			// A series progression is read in the series' file.
			path = p.File
		}
		t.problems = append(t.problems, codex.Problem{Path: path, Code: codex.CodeProgression, Severity: codex.SeverityWarning,
			Message: fmt.Sprintf("progression `from: %s` %s (give a chapter number, title or path), so it applies nowhere", p.From, reason),
			Range:   p.FromRange})
	}
	return t
}

// seriesAndBook says whether s holds progressions of a series entry and
// of the book entry that overrides it.
func seriesAndBook(s codex.Story) bool {
	series, book := false, false
	for _, p := range s.Progressions {
		if p.File != "" {
			series = true
		} else {
			book = true
		}
	}
	return series && book
}

// order puts the progressions of a book entry over a series entry in
// story order: by the chapter each starts from, the series' before the
// book's at the same chapter (so the book's wins a field both set
// there), each side's in the order written. Written order alone would
// let a book progression from chapter 3 undo a series one from chapter
// 5, which no writer means. Those that name no chapter apply nowhere and
// go last.
func (pl *placing) order(id string, s codex.Story, pos []int) {
	idx := make([]int, len(pos))
	for i := range idx {
		idx[i] = i
	}
	key := func(i int) int {
		if pos[i] == 0 {
			return math.MaxInt
		}
		return pos[i]
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(key(a), key(b)) })
	ps := make([]codex.Progression, len(idx))
	from := make([]int, len(idx))
	for i, j := range idx {
		ps[i], from[i] = s.Progressions[j], pos[j]
	}
	s.Progressions = ps
	if pl.ordered == nil {
		pl.ordered = map[string]codex.Story{}
	}
	pl.ordered[id], pl.from[id] = s, from
}

// story is what entry id says about story time, its progressions in the
// order they apply.
func (t *Timeline) story(id string) (codex.Story, bool) {
	if s, ok := t.ordered[id]; ok {
		return s, true
	}
	s, ok := t.canon.stories[id]
	return s, ok
}

// Canon is the canon the timeline was built under.
func (t *Timeline) Canon() *Canon { return t.canon }

// Chapters lists the chapters in reading order.
func (t *Timeline) Chapters() []Chapter { return t.chapters }

// Problems are progressions whose chapter reference names no chapter,
// located in the entries' files.
func (t *Timeline) Problems() []codex.Problem { return t.problems }

// Chapter is the chapter at path. A document that is not (yet) a
// chapter of the snapshot stands after the last one, with the front
// matter meta gives it.
func (t *Timeline) Chapter(path string, meta manuscript.ChapterMeta) Chapter {
	if i, ok := t.byPath[path]; ok {
		ch := t.chapters[i]
		if ch.Meta.Day != meta.Day || ch.Meta.HasDay != meta.HasDay || ch.Meta.Flashback != meta.Flashback {
			// The editor's text changed the chapter's story time since
			// the snapshot: its own day counts, the rest stays.
			ch.Meta = meta
			if meta.HasDay {
				ch.StoryDay, ch.HasStoryDay = meta.Day, true
			} else if p, ok := t.previous(i); ok {
				ch.StoryDay, ch.HasStoryDay = p.Day, true
			} else {
				ch.HasStoryDay = false
			}
		}
		ch.Meta = meta
		return ch
	}
	ch := Chapter{Path: path, Position: len(t.chapters) + 1, Meta: meta}
	if meta.HasDay {
		ch.StoryDay, ch.HasStoryDay = meta.Day, true
	} else if p, ok := t.previous(len(t.chapters)); ok {
		ch.StoryDay, ch.HasStoryDay = p.Day, true
	}
	return ch
}

// moments are u's scenes, when a note gives one its own story time,
// and each scene's place in story time: ch (u's) with the scene's
// story time (manuscript.SceneTimes). A chapter whose scenes give none
// has no scenes here and one moment, ch.
func (t *Timeline) moments(u *manuscript.Unit, ch Chapter) ([]manuscript.Scene, []Chapter) {
	if !u.HasSceneNotes() {
		return nil, []Chapter{ch}
	}
	scenes := u.Scenes(t.canon.opts.Scenes)
	times := manuscript.SceneTimes(u, scenes)
	out := make([]Chapter, len(times))
	for i, m := range times {
		s := ch
		s.Meta, s.Scene = m, i+1
		if m.HasDay {
			s.StoryDay, s.HasStoryDay = m.Day, true
		}
		out[i] = s
	}
	return scenes, out
}

// SceneOf is the place in story time of the scene of u that holds the
// byte offset off: ChapterOf(u) with the scene's own story time, where
// its note gives one.
func (t *Timeline) SceneOf(u *manuscript.Unit, off int) Chapter {
	scenes, moments := t.moments(u, t.ChapterOf(u))
	if scenes == nil {
		return moments[0]
	}
	return moments[max(0, manuscript.SceneAt(scenes, off)-1)]
}

// ChapterOf is the place in story time of u, the editor's text of a
// chapter or of a document about to become one.
func (t *Timeline) ChapterOf(u *manuscript.Unit) Chapter { return t.Chapter(u.Path, u.Meta) }

// Previous is the chapter whose day the chapter at position pos (from 1)
// is compared with.
func (t *Timeline) Previous(pos int) (Previous, bool) { return t.previous(pos - 1) }

// previous looks before index i.
func (t *Timeline) previous(i int) (Previous, bool) {
	for j := min(i, len(t.chapters)) - 1; j >= 0; j-- {
		if ch := t.chapters[j]; ch.HasEndDay {
			return Previous{Path: ch.Path, Title: ch.Title, Day: ch.EndDay, Range: ch.endDayRange, Text: t.units[j].Text}, true
		}
	}
	return Previous{}, false
}

// AsOf is entry e as of chapter ch, by the flashback rule of the package
// documentation.
func (t *Timeline) AsOf(e *codex.Entry, ch Chapter) codex.AsOf {
	s, ok := t.story(e.ID)
	if !ok {
		return codex.AsOf{Entry: e, Status: string(e.Status)}
	}
	from := t.from[e.ID]
	return s.Apply(e, func(i int, _ codex.Progression) bool {
		return i < len(from) && t.reached(from[i], ch)
	})
}

// reached says whether a progression from the chapter at position f
// holds in ch.
func (t *Timeline) reached(f int, ch Chapter) bool {
	if f == 0 || f > ch.Position {
		return false
	}
	if !ch.Meta.Flashback || !ch.Meta.HasDay || f > len(t.chapters) {
		return true
	}
	src := t.chapters[f-1]
	return !src.HasStoryDay || src.StoryDay <= ch.Meta.Day
}

// From is the chapter a progression of entry id starts at, if its
// reference names one.
func (t *Timeline) From(id string, i int) (Chapter, bool) {
	pos := t.from[id]
	if i < 0 || i >= len(pos) || pos[i] == 0 || pos[i] > len(t.chapters) {
		return Chapter{}, false
	}
	return t.chapters[pos[i]-1], true
}
