package dialoguebench

import (
	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/manuscript/dialogue"
)

// Analyzer finds the utterances of one chapter and attributes them:
// quire's dialogue.Analyze, a baseline, or a test's fake.
type Analyzer func(ch dialogue.Chapter, cast *dialogue.Cast) []dialogue.Utterance

// Quire is quire's analyzer with a book's default settings.
func Quire(ch dialogue.Chapter, cast *dialogue.Cast) []dialogue.Utterance {
	return dialogue.Analyze(ch, cast, dialogue.Options{})
}

// Edition is a book ready to be analyzed in one typography: its text as
// the source prints it, or its curly copy, with the gold utterances and
// chapters in that text's offsets.
type Edition struct {
	// Name is "straight" (the text as the source has it) or "curly".
	Name string
	Book Book
	// Gold is the benchmark's reading of the annotation (Reading); Raw
	// the annotation's quotations as they stand (RawReading).
	Gold, Raw []Gold
	Stats     GoldStats
	Chapters  []Chapter
	// Straddling are the gold utterances that cross a chapter boundary,
	// which no analyzer of chapters can find.
	Straddling []Gold
	cast       *dialogue.Cast
	inputs     []dialogue.Chapter
}

// NewEditions makes a book's editions: straight, and curly when asked.
// chapters are the book's chapters (SplitChapters), or nil for one
// chapter of the whole text.
func NewEditions(b Book, chapters []Chapter, curly bool) []*Edition {
	if len(chapters) == 0 {
		chapters = []Chapter{{Start: 0, End: len(b.Text)}}
	}
	gold, stats := Reading(b)
	raw := RawReading(b)
	entries := b.Codex()
	matcher := manuscript.NewMatcherOf(entries)
	cast := dialogue.NewCast(entries)
	out := []*Edition{newEdition("straight", b, gold, raw, stats, chapters, matcher, cast)}
	if curly {
		text, sh := Curly(b.Text)
		cb := b
		cb.Text = text
		cb.Quotes = make([]Quote, len(b.Quotes))
		for i, q := range b.Quotes {
			q.Spans = sh.spans(q.Spans)
			cb.Quotes[i] = q
		}
		chs := make([]Chapter, len(chapters))
		for i, c := range chapters {
			c.Start, c.End = sh.Map(c.Start), sh.Map(c.End)
			chs[i] = c
		}
		out = append(out, newEdition("curly", cb, sh.gold(gold), sh.gold(raw), stats, chs, matcher, cast))
	}
	return out
}

func newEdition(name string, b Book, gold, raw []Gold, stats GoldStats, chapters []Chapter, m *manuscript.Matcher, cast *dialogue.Cast) *Edition {
	e := &Edition{Name: name, Book: b, Gold: gold, Raw: raw, Stats: stats, Chapters: chapters, cast: cast}
	for _, c := range chapters {
		text := b.Text[c.Start:c.End]
		e.inputs = append(e.inputs, dialogue.Chapter{
			Text: text,
			Body: codex.Range{Start: 0, End: len(text)},
			// Plain text has no code; its indented verse and letters
			// are prose, not the code blocks Markdown would make them.
			Skip:     nil,
			Mentions: m.ScanAll(text),
		})
	}
	// Each chapter reads the others' votes for the book's narrator, as a
	// Book gives them.
	votes := make([]dialogue.Votes, len(e.inputs))
	var total dialogue.Votes
	for i, in := range e.inputs {
		votes[i] = dialogue.NarratorVotes(in, cast, dialogue.Options{})
		total = total.Plus(votes[i])
	}
	for i := range e.inputs {
		others := total.Minus(votes[i])
		e.inputs[i].Narrators = func() dialogue.Votes { return others }
	}
	for _, g := range gold {
		first, last := g.Spans[0].Start, g.Spans[len(g.Spans)-1].End
		for _, c := range chapters {
			if first < c.End && last > c.End {
				e.Straddling = append(e.Straddling, g)
				break
			}
		}
	}
	return e
}

// Analyze runs an analyzer over every chapter; the utterances it returns
// have offsets into the whole book's text.
func (e *Edition) Analyze(an Analyzer) []dialogue.Utterance {
	var out []dialogue.Utterance
	for i, in := range e.inputs {
		at := e.Chapters[i].Start
		for _, u := range an(in, e.cast) {
			u.Spans = shifted(u.Spans, at)
			u.Marks = shifted(u.Marks, at)
			if u.Tag != (codex.Range{}) {
				u.Tag = codex.Range{Start: u.Tag.Start + at, End: u.Tag.End + at}
			}
			out = append(out, u)
		}
	}
	return out
}

func shifted(rs []codex.Range, by int) []codex.Range {
	out := make([]codex.Range, len(rs))
	for i, r := range rs {
		out[i] = codex.Range{Start: r.Start + by, End: r.End + by}
	}
	return out
}

// spans maps spans into the curly copy.
func (s Shift) spans(rs []codex.Range) []codex.Range {
	out := make([]codex.Range, len(rs))
	for i, r := range rs {
		out[i] = codex.Range{Start: s.Map(r.Start), End: s.Map(r.End)}
	}
	return out
}

// gold maps gold utterances into the curly copy.
func (s Shift) gold(gs []Gold) []Gold {
	out := make([]Gold, len(gs))
	for i, g := range gs {
		g.Spans = s.spans(g.Spans)
		out[i] = g
	}
	return out
}
