package dialogue

import (
	"math"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
)

// Book analyzes the chapters of one manuscript snapshot against one
// codex catalog: its characters are the cast, each chapter's mentions
// come from the snapshot's mention index, and a chapter's pov: names its
// point-of-view character. A Book is immutable and safe for concurrent
// use.
type Book struct {
	snap *manuscript.Snapshot
	cat  *codex.Catalog
	// cast is made from cat on first use, unless WithCast gave one: a
	// server that keeps a chapter's last cast does not build another
	// for each edit.
	cast func() *Cast
	opts Options
	// names, when set, are the codex's current names: a snapshot whose
	// mentions were found with older ones (a server catching up after a
	// codex change) is scanned again with these.
	names *manuscript.Matcher
	// narrators remembers the chapters' votes for the book's narrator
	// (narrator.go); NewBook gives each Book its own.
	narrators *Narrators
}

// WithNarrators is b keeping its chapters' votes for the book's narrator
// in n, which outlives it: a server gives one to every Book of a book it
// makes, so that an edit counts again only the chapter edited.
func (b *Book) WithNarrators(n *Narrators) *Book {
	c := *b
	c.narrators = n
	return &c
}

// WithNames is b reading mentions with the matcher m wherever the
// snapshot's index was built with another.
func (b *Book) WithNames(m *manuscript.Matcher) *Book {
	c := *b
	c.names = m
	return &c
}

// WithCast is b with the cast c, made from the same catalog before:
// an Analysis made with c lends its conversations to AnalyzeAfter only
// with c itself.
func (b *Book) WithCast(c *Cast) *Book {
	d := *b
	d.cast = func() *Cast { return c }
	return &d
}

// NewBook prepares the analysis of snap's chapters with cat's
// characters and the book's settings opts.
func NewBook(snap *manuscript.Snapshot, cat *codex.Catalog, opts Options) *Book {
	b := &Book{snap: snap, cat: cat, opts: opts, narrators: &Narrators{}}
	b.cast = sync.OnceValue(func() *Cast {
		if cat == nil {
			return NewCast(nil)
		}
		return NewCast(cat.OfType(codex.TypeCharacter))
	})
	return b
}

// Cast is the book's characters.
func (b *Book) Cast() *Cast { return b.cast() }

// ChapterDialogue is one chapter's speech.
type ChapterDialogue struct {
	Unit *manuscript.Unit
	// Utterances are in reading order.
	Utterances []Utterance
}

// Chapters analyzes every chapter of the snapshot, in reading order;
// documents outside the manuscript are left out.
func (b *Book) Chapters() []ChapterDialogue {
	var units []*manuscript.Unit
	if b.snap != nil {
		for _, u := range b.snap.Units() {
			if u.Position > 0 {
				units = append(units, u)
			}
		}
	}
	return b.Units(units)
}

// Units analyzes units, on as many cores as the process may use, and
// returns their speech in the order given.
func (b *Book) Units(units []*manuscript.Unit) []ChapterDialogue {
	// Counted once, when a chapter first asks.
	tally := sync.OnceValues(func() (map[string]Votes, Votes) { return b.votes("") })
	out := make([]ChapterDialogue, len(units))
	parallel(len(units), func(i int) {
		ch := b.chapter(units[i])
		ch.Narrators = func() Votes {
			votes, total := tally()
			return total.Minus(votes[units[i].Path])
		}
		out[i] = ChapterDialogue{Unit: units[i], Utterances: Analyze(ch, b.cast(), b.opts)}
	})
	return out
}

// Analyze finds and attributes the speech of one unit, a chapter of the
// snapshot or a document outside it.
func (b *Book) Analyze(u *manuscript.Unit) []Utterance {
	return Analyze(b.Chapter(u), b.cast(), b.opts)
}

// Remember keeps an, the analysis of u read as Chapter(u) gives it, as
// u's vote for the book's narrator: the next count need not read u.
func (b *Book) Remember(u *manuscript.Unit, an *Analysis) {
	b.narrators.put(u.Path, b.voteKey(u, an.Vote()))
}

// votes are the votes of the snapshot's chapters but the one at skip,
// by path, and their sum: each remembered, else read (on as many cores
// as the process may use) and remembered.
func (b *Book) votes(skip string) (map[string]Votes, Votes) {
	var units []*manuscript.Unit
	if b.snap != nil {
		for _, u := range b.snap.Units() {
			if u.Position > 0 && u.Path != skip {
				units = append(units, u)
			}
		}
	}
	got := make([]Votes, len(units))
	var missing []int
	for i, u := range units {
		v, ok := b.narrators.get(u.Path, b.voteKey(u, nil))
		if !ok {
			missing = append(missing, i)
		}
		got[i] = v
	}
	parallel(len(missing), func(k int) {
		u := units[missing[k]]
		v := NarratorVotes(b.chapter(u), b.cast(), b.opts)
		b.narrators.put(u.Path, b.voteKey(u, v))
		got[missing[k]] = v
	})
	byPath := make(map[string]Votes, len(units))
	var total Votes
	for i, u := range units {
		if got[i] != nil {
			byPath[u.Path] = got[i]
			total = total.Plus(got[i])
		}
	}
	return byPath, total
}

// voteKey is what u's vote v was read from.
func (b *Book) voteKey(u *manuscript.Unit, v Votes) chapterVote {
	return chapterVote{text: u.Text, cat: b.cat, names: b.names, opts: b.opts, vote: v}
}

// Chapter is what Analyze reads of u: its text and body, its code as
// the text that is never speech, its mentions (the snapshot's scan of
// that very text, else a scan of its body with the index's names; both
// leave out the uncertain mentions ScanAll would mark, which attribution
// passes over anyway), the entry its pov: names, and the other
// chapters' votes for the book's narrator.
func (b *Book) Chapter(u *manuscript.Unit) Chapter {
	ch := b.chapter(u)
	ch.Narrators = func() Votes { return b.OtherVotes(u) }
	return ch
}

// OtherVotes are the votes of the snapshot's chapters other than u's for
// the book's narrator, what Chapter(u) gives attribution.
func (b *Book) OtherVotes(u *manuscript.Unit) Votes {
	_, total := b.votes(u.Path)
	return total
}

// chapter is Chapter without the other chapters' votes.
func (b *Book) chapter(u *manuscript.Unit) Chapter {
	body := u.BodyRange()
	return Chapter{
		Text:     u.Text,
		Body:     body,
		Skip:     u.Code,
		Mentions: b.mentions(u, body),
		POV:      b.povOf(u.Meta.POV),
		POVs:     b.scenePOVs(u),
	}
}

// scenePOVs are where u's scenes change its point of view, when a scene
// note names one.
func (b *Book) scenePOVs(u *manuscript.Unit) []POVFrom {
	if !u.HasSceneNotes() {
		return nil
	}
	scenes := u.Scenes(b.opts.Scenes)
	var out []POVFrom
	for i, m := range manuscript.SceneTimes(u, scenes) {
		if m.POV != u.Meta.POV || len(out) > 0 {
			out = append(out, POVFrom{From: scenes[i].Range.Start, ID: b.povOf(m.POV)})
		}
	}
	return out
}

// mentions are u's mentions: the index's when it scanned u, else the
// body scanned with the index's matcher (or the catalog's).
func (b *Book) mentions(u *manuscript.Unit, body codex.Range) []manuscript.Mention {
	var ix *manuscript.MentionIndex
	if b.snap != nil {
		ix = b.snap.Mentions()
	}
	current := b.names == nil || ix != nil && ix.Matcher() == b.names
	if ms, ok := ix.MentionsOf(u); ok && current {
		return ms
	}
	m := b.names
	if m == nil && ix != nil {
		m = ix.Matcher()
	}
	if m == nil {
		m = manuscript.NewMatcher(b.cat)
	}
	ms := m.Scan(u.Text[body.Start:body.End])
	for i := range ms {
		ms[i].Range.Start += body.Start
		ms[i].Range.End += body.Start
	}
	return ms
}

// povOf is the character a chapter's pov: names, by a name or alias of
// the cast, else the catalog's exact lookup of a character (title, file
// name, a possessive); "" when it names none.
func (b *Book) povOf(name string) string {
	if name == "" {
		return ""
	}
	if id, ok := b.cast().Find(name); ok {
		return id
	}
	if b.cat == nil {
		return ""
	}
	// Lookup ranks exact matches first; a partial or fuzzy one is no
	// name the chapter gives.
	ms := b.cat.Lookup(name, codex.TypeCharacter)
	if len(ms) == 0 {
		return ""
	}
	switch ms[0].Kind {
	case codex.MatchName, codex.MatchTitle, codex.MatchStem, codex.MatchAlias:
		return ms[0].Entry.ID
	}
	return ""
}

// SpokenWords counts the words spoken in each of units (Find's
// utterances, no attribution needed), on as many cores as the process
// may use: the share of a chapter that is dialogue is its spoken words
// over its words.
func SpokenWords(units []*manuscript.Unit, opts Options) []int {
	out := make([]int, len(units))
	parallel(len(units), func(i int) {
		u := units[i]
		for _, utt := range Find(u.Text, u.BodyRange(), u.Code, opts) {
			out[i] += utt.Words
		}
	})
	return out
}

// Share is spoken words over a chapter's words, from 0 to 1.
func Share(spoken, words int) float64 {
	if words <= 0 || spoken <= 0 {
		return 0
	}
	return min(1, float64(spoken)/float64(words))
}

// Percent is a share as the writer reads it, a whole percentage: "35%",
// "<1%" for a trace, "0%" for none (quire stats and the book map).
func Percent(share float64) string {
	switch {
	case share <= 0:
		return "0%"
	case share < 0.005:
		return "<1%"
	}
	return strconv.Itoa(int(math.Round(share*100))) + "%"
}

// parallel calls fn(i) for every i below n on at most GOMAXPROCS
// goroutines, and returns when all are done.
func parallel(n int, fn func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := range n {
			fn(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				fn(i)
			}
		})
	}
	wg.Wait()
}
