package manuscript

import (
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/quire-ink/quire/codex"
)

// Scene is one scene of a chapter: the stretch of its body between two
// scene breaks (docs/outline.md). Scenes are found again from the text
// each time it changes, so a scene is what its text says it is: the
// note that opens it travels with it when lines are added above, kept
// by the first half when it is split, and left in the middle (and
// reported) when two are merged.
type Scene struct {
	// Number is the scene's place in its chapter, from 1.
	Number int `json:"number"`
	// Range runs from the line that opens the scene (its break or
	// heading; the body's start for a first scene) to the next scene's
	// opening line or the body's end.
	Range codex.Range `json:"range"`
	// Break is the line that opened the scene, without its line end;
	// zero for a first scene with no break of its own.
	Break codex.Range `json:"break"`
	// Heading is the text of the heading that opened the scene, empty
	// when a break line or the chapter's start did.
	Heading string `json:"heading,omitempty"`
	// Note is what the scene's note (`<!-- scene … -->` at its start)
	// says; zero when it has none.
	Note SceneNote `json:"note,omitzero"`
	// Words counts the scene's prose (notes and markup left out).
	Words int `json:"words"`
	// prose is the range the hash reads (the scene after its opening
	// line), less markup: the ranges, sorted, that are no prose (code,
	// HTML, the chapter's title heading), shared by the split's scenes.
	prose  codex.Range
	markup []codex.Range
	// Hash fingerprints the scene's prose (ProseHash), for a synopsis's
	// staleness: set when its note keeps a synopsis-hash to compare it
	// with, "" otherwise; Unit.SceneHash works it out for any scene.
	Hash string `json:"hash,omitempty"`
}

// Title is what a scene is called in an outline: its note's title, else
// its heading, else "Scene n".
func (s Scene) Title() string {
	switch {
	case s.Note.Title != "":
		return s.Note.Title
	case s.Heading != "":
		return s.Heading
	}
	return "Scene " + strconv.Itoa(s.Number)
}

// SceneRules say where a chapter splits into scenes and which statuses
// a scene or chapter may carry; quire.yaml's outline: section sets them
// (ReadOutlineSettings). The zero value is the default.
type SceneRules struct {
	// Headings says which headings open a scene: HeadingsAll (every
	// heading but the chapter's own title heading, as the build draws
	// them), HeadingsNone, or a level n: headings of level 1 to n.
	Headings int
	// Breaks are lines besides the thematic breaks (***, * * *, ---,
	// ___) that break scenes, such as "§" or "~", compared trimmed.
	Breaks []string
	// Statuses are the statuses a writer may give; empty means
	// defaultStatuses.
	Statuses []string
}

// Heading rules.
const (
	HeadingsAll  = 0
	HeadingsNone = -1
)

// defaultStatuses are a scene's statuses when quire.yaml names none,
// from first thought to last word.
var defaultStatuses = []string{"idea", "draft", "revised", "final"}

// statuses are the rules' statuses, the defaults when they name none.
func (r SceneRules) statuses() []string {
	if len(r.Statuses) == 0 {
		return defaultStatuses
	}
	return r.Statuses
}

// Status is the writer's status s as the rules spell it, and whether
// the rules know it (case and spaces aside).
func (r SceneRules) Status(s string) (string, bool) {
	s = strings.TrimSpace(s)
	for _, k := range r.statuses() {
		if strings.EqualFold(k, s) {
			return k, true
		}
	}
	return s, false
}

// AllStatuses are the statuses the rules allow, in their order.
func (r SceneRules) AllStatuses() []string { return slices.Clone(r.statuses()) }

// Equal says r and o split and check alike.
func (r SceneRules) Equal(o SceneRules) bool {
	return r.Headings == o.Headings && slices.Equal(r.Breaks, o.Breaks) && slices.Equal(r.Statuses, o.Statuses)
}

// sceneMemo is a unit's scenes under one set of rules.
type sceneMemo struct {
	rules    SceneRules
	scenes   []Scene
	problems []codex.Problem
}

// Scenes splits the unit into scenes by r: always at least one, the
// whole body, so that every chapter has a first scene. The split is
// kept on the unit (units are immutable), so asking again with the
// same rules costs nothing; it is linear in the text.
func (u *Unit) Scenes(r SceneRules) []Scene {
	return u.sceneMemo(r).scenes
}

// SceneProblems are the problems of the unit's scene notes under r: a
// value that cannot be read, a status the book does not know, a note
// that opens no scene.
func (u *Unit) SceneProblems(r SceneRules) []codex.Problem {
	return u.sceneMemo(r).problems
}

// sceneSlot holds a unit's last split, for every snapshot that shares
// the unit.
type sceneSlot struct{ last atomic.Pointer[sceneMemo] }

func (u *Unit) sceneMemo(r SceneRules) *sceneMemo {
	if u.scenes != nil {
		if m := u.scenes.last.Load(); m != nil && m.rules.Equal(r) {
			return m
		}
	}
	m := &sceneMemo{rules: r}
	m.scenes, m.problems = splitScenes(u, r)
	if u.scenes != nil {
		u.scenes.last.Store(m)
	}
	return m
}

// SceneAt is the scene holding byte offset off, by number from 1; 0
// when off lies before the body.
func SceneAt(scenes []Scene, off int) int {
	i, found := slices.BinarySearchFunc(scenes, off, func(s Scene, off int) int {
		switch {
		case s.Range.End <= off:
			return -1
		case s.Range.Start > off:
			return 1
		}
		return 0
	})
	if found {
		return scenes[i].Number
	}
	if len(scenes) > 0 && off >= scenes[len(scenes)-1].Range.End {
		// The body's end belongs to the last scene.
		return scenes[len(scenes)-1].Number
	}
	return 0
}

// opening is a line that may open a scene.
type opening struct {
	line    codex.Range
	heading string
}

// splitScenes finds the unit's scenes: each scene break and each heading
// the rules name opens one, except where nothing but markup lies before
// it in the body (the first scene then starts there) or between it and
// the next opening (breaks in a row make no empty scene, unless a note
// plans one).
func splitScenes(u *Unit, r SceneRules) ([]Scene, []codex.Problem) {
	body := u.Body
	if body.End > len(u.Text) || body.Start > body.End {
		body = codex.Range{End: len(u.Text)}
	}
	text := u.Text
	opens, title := sceneOpenings(u, body, r)
	notes := sceneNotes(u, body)
	// Before its note a scene may hold markup and its heading, no prose.
	markup := slices.Clone(u.Code)
	for _, h := range u.Headings {
		markup = append(markup, h.HeadingRange)
	}
	slices.SortFunc(markup, func(a, b codex.Range) int { return a.Start - b.Start })
	// The chapter's title heading is the chapter's, no scene's prose.
	notProse := u.Code
	if title != (codex.Range{}) {
		notProse = append(slices.Clone(u.Code), title)
		slices.SortFunc(notProse, func(a, b codex.Range) int { return a.Start - b.Start })
	}

	var scenes []Scene
	var problems []codex.Problem
	usedNote := make([]bool, len(notes))
	ni := 0 // the first note no scene has yet passed
	start, from := body.Start, opening{}
	add := func(end int) {
		rng := codex.Range{Start: start, End: end}
		s := Scene{Range: rng, Break: from.line, Heading: from.heading}
		// The note is the first one before any prose of the scene.
		proseFrom := max(start, from.line.End)
		for ni < len(notes) && notes[ni].Start < proseFrom {
			ni++
		}
		if ni < len(notes) && notes[ni].End <= end && !hasProse(text, markup, proseFrom, notes[ni].Start) {
			usedNote[ni] = true
			s.Note = readSceneNote(text, notes[ni], u.Path, r)
			ni++
		}
		prose := codex.Range{Start: proseFrom, End: end}
		words := sceneWords(text, notProse, prose)
		if words == 0 && s.Note.Range == (codex.Range{}) && s.Heading == "" {
			// Nothing to call a scene: a break at the chapter's start or
			// breaks in a row join the stretch to the next scene, a break
			// at the end to the last. A chapter keeps one scene however
			// empty (added below).
			if end == body.End && len(scenes) > 0 {
				scenes[len(scenes)-1].Range.End = end
			}
			return
		}
		s.Number = len(scenes) + 1
		s.Words, s.prose, s.markup = words, prose, notProse
		if s.Note.SynopsisHash != "" {
			s.Hash = proseHashOf(text, notProse, prose)
		}
		scenes = append(scenes, s)
		start = end
	}
	for _, o := range opens {
		if o.line.Start <= start {
			// An opening at the very start of the scene opens it.
			from = o
			continue
		}
		add(o.line.Start)
		from = o
	}
	add(body.End)
	if len(scenes) == 0 {
		scenes = append(scenes, Scene{Number: 1, Range: body})
	}
	for i, n := range notes {
		if usedNote[i] {
			continue
		}
		problems = append(problems, codex.Problem{Path: u.Path, Code: CodeSceneNote, Severity: codex.SeverityWarning, Range: noteHead(text, n),
			Message: "this scene note is not read: a scene note goes at the start of a scene, before its first words (right after its break). Move it there, or, if two scenes were merged, remove it"})
	}
	for _, s := range scenes {
		problems = append(problems, s.Note.Problems...)
	}
	return scenes, problems
}

// noteHead is the first line of a note, where a problem about the whole
// note is shown.
func noteHead(text string, n codex.Range) codex.Range {
	if i := strings.IndexByte(text[n.Start:n.End], '\n'); i >= 0 {
		return codex.Range{Start: n.Start, End: n.Start + i}
	}
	return n
}

// sceneOpenings are the lines that open scenes, in order: thematic and
// configured breaks outside code, HTML and front matter, and the
// headings r names (the chapter's title heading never: it opens the
// chapter).
func sceneOpenings(u *Unit, body codex.Range, r SceneRules) (out []opening, titleLine codex.Range) {
	text := u.Text
	heads := u.Headings
	hi := 0
	titleSeen := false
	ci := 0
	for start := body.Start; start < body.End; {
		end := strings.IndexByte(text[start:body.End], '\n')
		if end < 0 {
			end = body.End
		} else {
			end += start
		}
		line := codex.Range{Start: start, End: end}
		if line.End > line.Start && text[line.End-1] == '\r' {
			line.End--
		}
		for ci < len(u.Code) && u.Code[ci].End <= start {
			ci++
		}
		inCode := ci < len(u.Code) && u.Code[ci].Start <= start
		for hi < len(heads) && heads[hi].HeadingRange.End <= start {
			hi++
		}
		switch {
		case hi < len(heads) && heads[hi].HeadingRange.Start == start:
			h := heads[hi]
			title := !titleSeen && h.Level == 1 && !hasProse(text, u.Code, body.Start, start)
			titleSeen = true
			if title {
				titleLine = h.HeadingRange
			}
			if !title && opensScene(h.Level, r) {
				out = append(out, opening{line: h.HeadingRange, heading: h.Heading})
			}
		case hi < len(heads) && heads[hi].HeadingRange.Start < start:
			// The underline of a heading ("Title" over "---") is its own.
		case !inCode && isBreakLine(text[line.Start:line.End], r):
			out = append(out, opening{line: line})
		}
		start = end + 1
	}
	return out, titleLine
}

// opensScene says whether a heading of level opens a scene under r.
func opensScene(level int, r SceneRules) bool {
	switch {
	case r.Headings == HeadingsNone:
		return false
	case r.Headings == HeadingsAll:
		return true
	}
	return level <= r.Headings
}

// isBreakLine reports a scene break: a thematic break or one of the
// rules' own marks.
func isBreakLine(line string, r SceneRules) bool {
	t := strings.TrimSpace(line)
	if t == "" {
		return false
	}
	if isSceneBreak(line) || t == "#" {
		// A lone # is how manuscripts typed for print mark a break.
		return true
	}
	return slices.Contains(r.Breaks, t)
}

// sceneNotes are the HTML blocks of the body that are scene notes:
// `<!--` then the word scene.
func sceneNotes(u *Unit, body codex.Range) []codex.Range {
	var out []codex.Range
	for _, c := range u.Code {
		if c.Start < body.Start || c.End > body.End {
			continue
		}
		if _, ok := noteYAML(u.Text[c.Start:c.End]); ok {
			out = append(out, c)
		}
	}
	return out
}

// hasProse says whether text[from:to] holds a word outside code and
// HTML (headings count: a heading is the reader's).
func hasProse(text string, code []codex.Range, from, to int) bool {
	i := codeFrom(code, from)
	for from < to {
		next := to
		if i < len(code) {
			if code[i].Start <= from {
				from = max(from, code[i].End)
				i++
				continue
			}
			next = min(to, code[i].Start)
		}
		if CountWords(text[from:next]) > 0 {
			return true
		}
		from = next
	}
	return false
}

// sceneWords counts the words of r outside code blocks, spans and HTML.
func sceneWords(text string, code []codex.Range, r codex.Range) int {
	words := 0
	eachProse(code, r, func(from, to int) { words += CountWords(text[from:to]) })
	return words
}

// proseHashOf is the ProseHash of r outside code blocks, spans and HTML.
func proseHashOf(text string, code []codex.Range, r codex.Range) string {
	var h proseHasher
	eachProse(code, r, func(from, to int) { h.words(text[from:to]) })
	return h.sum()
}

// eachProse calls f with each piece of r that no range of code (sorted)
// covers, in order.
func eachProse(code []codex.Range, r codex.Range, f func(from, to int)) {
	i := codeFrom(code, r.Start)
	for from := r.Start; from < r.End; {
		next := r.End
		if i < len(code) {
			if code[i].Start <= from {
				from = max(from, min(r.End, code[i].End))
				i++
				continue
			}
			next = min(next, code[i].Start)
		}
		f(from, next)
		from = next
	}
}

// SceneHash is the ProseHash of scene s of u: what a synopsis written
// now is kept beside.
func (u *Unit) SceneHash(s Scene) string {
	if s.Hash != "" {
		return s.Hash
	}
	return proseHashOf(u.Text, s.markup, s.prose)
}

// codeFrom is the index of the first code range that ends after off.
func codeFrom(code []codex.Range, off int) int {
	i, _ := slices.BinarySearchFunc(code, off, func(r codex.Range, off int) int {
		if r.End <= off {
			return -1
		}
		return 1
	})
	return i
}
