package continuity

import (
	"fmt"
	"slices"
	"strings"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
)

// MaxDiagnostics bounds what one chapter reports per check: past it a
// writer has a pattern to fix, not a list to read.
const MaxDiagnostics = 200

// Diagnostic is one continuity or style problem of a chapter.
type Diagnostic struct {
	// Path is the chapter; Range the words at fault in it.
	Path     string         `json:"path"`
	Range    codex.Range    `json:"range"`
	Code     string         `json:"code"`
	Severity codex.Severity `json:"severity"`
	// Message names both sides: the prose's words and the canon's.
	Message string `json:"message"`
	// Related points at the canon the prose disagrees with (or the
	// chapter it is out of order with).
	Related []Related `json:"related,omitempty"`
	// Entry is the codex entry the diagnostic is about, for an action
	// that opens the canon; empty for timeline-order.
	Entry string `json:"entry,omitempty"`
	// Fix, when set, replaces Range with the canon's form.
	Fix *Fix `json:"fix,omitempty"`
	// Missing, for a pov or location that names nothing, is the entry
	// the writer may mean to create.
	Missing *Missing `json:"missing,omitempty"`
}

// Missing is an entry a chapter's front matter names and the codex
// lacks: its name as written, and the type its key implies (a pov is a
// character; a location, a location).
type Missing struct {
	Name string     `json:"name"`
	Type codex.Type `json:"type"`
}

// Related is a place in another file, with its 1-based line.
type Related struct {
	Path    string      `json:"path"`
	Range   codex.Range `json:"range"`
	Line    int         `json:"line"`
	Message string      `json:"message"`
	// Source is the text of Path when it is a codex file, for a reader
	// that must place Range in a file no catalog holds (the series file
	// of a progression a book entry keeps).
	Source string `json:"-"`
}

// Fix is a quick fix: the text that replaces the range.
type Fix struct {
	Title   string      `json:"title"`
	Range   codex.Range `json:"range"`
	NewText string      `json:"newText"`
}

// Check runs every enabled check on one chapter u: its own text, its
// front matter, and the canon as of its place in t. It is a pure
// function of its arguments, and linear in the chapter: each word is
// read a bounded number of times, whatever the size of the codex.
func Check(t *Timeline, u *manuscript.Unit) []Diagnostic {
	s := getScratch()
	defer s.release()
	return check(t, u, s)
}

// check is Check with the buffers of s.
func check(t *Timeline, u *manuscript.Unit, s *scratch) []Diagnostic {
	ch := t.ChapterOf(u)
	prev, hasPrev := t.previous(ch.Position - 1)
	c := &checker{t: t, canon: t.canon, opts: t.canon.opts, u: u, ch: ch, asOf: map[asOfKey]codex.AsOf{}}
	if hasPrev {
		c.prev = &prev
	}
	c.placeScenes()
	c.s = s
	return c.run()
}

type checker struct {
	t     *Timeline
	canon *Canon
	opts  Options
	u     *manuscript.Unit
	ch    Chapter
	prev  *Previous
	p     *prose
	// s holds the buffers of p and of the mentions, lent for the check.
	s *scratch
	// mentions are the unambiguous names in the body, in order; named
	// are all the names the chapter's text holds, as the matcher found
	// them (the speech's attribution reads them).
	mentions []manuscript.Mention
	named    []manuscript.Mention
	// body is the chapter's prose after its front matter.
	body codex.Range
	// mentionStarts and mentionEnds hold where mentions begin and end,
	// possessive endings included in the ends, in increasing order (the
	// mentions are in order and do not overlap).
	mentionStarts, mentionEnds []int
	asOf                       map[asOfKey]codex.AsOf
	out                        []Diagnostic
	// scenes are the chapter's scenes when a note gives one its own
	// story time, nil when the chapter's holds throughout; moments are
	// each scene's place in story time (one, the chapter's, when scenes
	// is nil), and class[i] the first moment that sees canon as moment
	// i does, so canon is worked out once per distinct moment.
	scenes  []manuscript.Scene
	moments []Chapter
	class   []int
	counts  map[string]int
}

func (c *checker) run() []Diagnostic {
	c.counts = map[string]int{}
	c.body = c.u.Body
	if c.body.End > len(c.u.Text) || c.body.Start > c.body.End || c.body == (codex.Range{}) {
		c.body = codex.Range{End: len(c.u.Text)}
	}
	if c.opts.Enabled(CodeTimelineOrder) {
		c.timelineOrder()
	}
	if c.opts.Enabled(CodeUnknownReference) {
		c.unknownReference("pov", c.u.Meta.POV, c.u.Meta.POVRange, codex.TypeCharacter)
		c.unknownReference("location", c.u.Meta.Location, c.u.Meta.LocationRange, codex.TypeLocation)
	}
	if c.opts.Enabled(CodeUnknownReference) {
		for _, sc := range c.scenes {
			c.unknownReference("pov", sc.Note.Meta.POV, sc.Note.Meta.POVRange, codex.TypeCharacter)
			c.unknownReference("location", sc.Note.Meta.Location, sc.Note.Meta.LocationRange, codex.TypeLocation)
		}
	}
	if c.opts.Enabled(CodeParagraphBreaks) {
		c.paragraphBreaks()
	}
	trait, death, style := c.opts.Enabled(CodeTraitContradiction), c.opts.Enabled(CodeAfterDeath) && !c.allFlashback(), c.opts.Enabled(CodeStyleRule) && len(c.canon.rules) > 0
	spelling := c.opts.Enabled(CodeNameSpelling)
	if !trait && !death && !style && !spelling {
		return c.out
	}
	body := c.body
	c.p = &c.s.prose
	splitProse(c.p, c.u.Text, body, c.u.Code)
	if trait || death {
		c.mentions = c.s.mentions[:0]
		c.named = c.names()
		for _, m := range c.named {
			if m.Range.Start < body.Start || m.Range.End > body.End || len(m.Others) > 0 || inCode(c.u.Code, m.Range.Start) {
				continue
			}
			c.mentions = append(c.mentions, m)
		}
		c.mentionStarts, c.mentionEnds = c.s.starts[:0], c.s.ends[:0]
		for _, m := range c.mentions {
			c.mentionStarts = append(c.mentionStarts, m.Range.Start)
			if i := c.p.tokenAt(m.Range.End - 1); i < len(c.p.tokens) {
				c.mentionEnds = append(c.mentionEnds, c.p.tokens[i].end)
			}
		}
		// Grown buffers go back with the scratch.
		c.s.mentions, c.s.starts, c.s.ends = c.mentions, c.mentionStarts, c.mentionEnds
	}
	if trait {
		c.traitContradictions()
	}
	if death {
		c.afterDeath()
	}
	if style {
		c.styleRules()
	}
	if spelling {
		c.nameSpelling()
	}
	return c.out
}

// names are the chapter's names as the canon's matcher finds them: the
// manuscript's mention index has usually scanned this very text already
// (the server scans each edit once for hover and references), so its
// scan is reused; otherwise the text is scanned here (the caller keeps
// the body's).
func (c *checker) names() []manuscript.Mention {
	if ix := c.t.mentions; ix != nil && ix.Matcher() == c.canon.matcher {
		if ms, ok := ix.MentionsOf(c.u); ok {
			return ms
		}
	}
	return c.canon.matcher.Scan(c.u.Text)
}

func inCode(code []codex.Range, off int) bool {
	i, found := slices.BinarySearchFunc(code, off, func(r codex.Range, off int) int {
		switch {
		case r.End <= off:
			return -1
		case r.Start > off:
			return 1
		}
		return 0
	})
	_ = i
	return found
}

func (c *checker) add(d Diagnostic) {
	if c.counts[d.Code] >= MaxDiagnostics {
		return
	}
	c.counts[d.Code]++
	d.Path = c.u.Path
	d.Severity = c.opts.Severity(d.Code)
	c.out = append(c.out, d)
}

// asOfKey is an entry as seen from one class of moments.
type asOfKey struct {
	id    string
	class int
}

// entryAsOf is an entry as of the scene holding off, computed once per
// entry and moment.
func (c *checker) entryAsOf(id string, off int) (codex.AsOf, bool) {
	k := asOfKey{id, c.class[c.momentAt(off)]}
	if a, ok := c.asOf[k]; ok {
		return a, true
	}
	e, ok := c.canon.cat.Get(id)
	if !ok {
		return codex.AsOf{}, false
	}
	a := c.t.AsOf(e, c.moments[k.class])
	c.asOf[k] = a
	return a, true
}

// placeScenes places each scene of the chapter in story time, where a
// note gives one its own (docs/outline.md): the rest of the checks ask
// momentAt which one a word is in.
func (c *checker) placeScenes() {
	c.scenes, c.moments = c.t.moments(c.u, c.ch)
	c.class = make([]int, len(c.moments))
	for i, m := range c.moments {
		c.class[i] = i
		for j := range i {
			if o := c.moments[j].Meta; o.Flashback == m.Meta.Flashback && o.HasDay == m.Meta.HasDay && o.Day == m.Meta.Day {
				c.class[i] = j
				break
			}
		}
	}
}

// momentAt is the index of the moment of the scene holding off.
func (c *checker) momentAt(off int) int {
	if c.scenes == nil {
		return 0
	}
	return max(0, manuscript.SceneAt(c.scenes, off)-1)
}

// flashbackAt says the scene holding off is a flashback.
func (c *checker) flashbackAt(off int) bool { return c.moments[c.momentAt(off)].Meta.Flashback }

// allFlashback says every scene of the chapter is a flashback.
func (c *checker) allFlashback() bool {
	for _, m := range c.moments {
		if !m.Meta.Flashback {
			return false
		}
	}
	return true
}

func (c *checker) timelineOrder() {
	last := c.prev
	for i, m := range c.moments {
		// A scene's own day counts; the first scene's is the chapter's
		// too.
		own := i == 0 && m.Meta.HasDay || c.scenes != nil && c.scenes[i].Note.Meta.HasDay
		if !own || m.Meta.Flashback {
			continue
		}
		if last != nil && m.Meta.Day < last.Day {
			line, _ := codex.LineColumn(last.Text, last.Range.Start)
			what := "this chapter"
			if c.scenes != nil && m.Meta.DayRange != c.u.Meta.DayRange {
				what = fmt.Sprintf("scene %d", i+1)
			}
			c.add(Diagnostic{Code: CodeTimelineOrder, Range: m.Meta.DayRange,
				Message: fmt.Sprintf("%s is on day %d, but %s before it is on day %d; if it is told out of order, mark it `flashback: true`", what, m.Meta.Day, last.what(), last.Day),
				Related: []Related{{Path: last.Path, Range: last.Range, Line: line, Message: fmt.Sprintf("%s is on day %d", capitalize(last.what()), last.Day)}}})
		}
		last = &Previous{Path: c.u.Path, Title: c.u.Title, Day: m.Meta.Day, Range: m.Meta.DayRange, Text: c.u.Text, scene: i + 1}
	}
}

// unknownReference flags a pov or location that names no entry. A name
// close to an entry's offers that name as its fix (and the entry to
// open); any unknown name can become a new entry of the type its key
// implies.
func (c *checker) unknownReference(key, name string, r codex.Range, typ codex.Type) {
	if name == "" || len(c.canon.Named(name)) > 0 {
		return
	}
	d := Diagnostic{Code: CodeUnknownReference, Range: r, Missing: &Missing{Name: name, Type: typ},
		Message: fmt.Sprintf("`%s: %s` names nothing in the codex", key, name)}
	if near, ok := c.canon.nearest(name); ok {
		d.Message += fmt.Sprintf("; did you mean %q?", near.Name)
		d.Entry = near.ID
		d.Fix = &Fix{Title: fmt.Sprintf("Change to %q", near.Name), Range: r, NewText: near.Name}
	} else {
		d.Message += "; add an entry for it, or give the name or an alias of one"
	}
	c.add(d)
}

// related points at a field of entry a: the progression that set it
// when one did, else its line in the front matter.
func related(a codex.AsOf, key, msg string) Related {
	e := a.Entry
	r := codex.Range{}
	for _, p := range slices.Backward(a.Applied) {
		if _, ok := p.Changes.Get(key); ok {
			if p.File != "" {
				return progressionRelated(e, p, msg)
			}
			r = p.Range
			break
		}
	}
	if r == (codex.Range{}) {
		r = fieldRange(e.Source, key)
	}
	line, _ := codex.LineColumn(e.Source, r.Start)
	return Related{Path: e.ID, Range: r, Line: line, Message: msg}
}

// progressionRelated points at progression p of entry e: in e's file,
// or in the series file that holds it (Progression.File).
func progressionRelated(e *codex.Entry, p codex.Progression, msg string) Related {
	rel := Related{Path: e.ID, Range: p.Range, Message: msg}
	text := e.Source
	if p.File != "" {
		rel.Path, rel.Source, text = p.File, p.Source, p.Source
	}
	rel.Line, _ = codex.LineColumn(text, p.Range.Start)
	return rel
}

// fieldRange is the front matter line of key in src, or the start of
// the file.
func fieldRange(src, key string) codex.Range {
	if !strings.HasPrefix(strings.TrimPrefix(src, "\uFEFF"), "---") {
		return codex.Range{}
	}
	pos := strings.IndexByte(src, '\n') + 1
	for pos > 0 && pos < len(src) {
		end := len(src)
		if i := strings.IndexByte(src[pos:], '\n'); i >= 0 {
			end = pos + i
		}
		line := strings.TrimRight(src[pos:end], "\r")
		if line == "---" || line == "..." {
			break
		}
		if len(line) > len(key) && strings.EqualFold(line[:len(key)], key) && strings.HasPrefix(strings.TrimLeft(line[len(key):], " \t"), ":") {
			return codex.Range{Start: pos, End: pos + len(line)}
		}
		pos = end + 1
	}
	return codex.Range{}
}
