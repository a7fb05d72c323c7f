package bookmap

import (
	"cmp"
	"fmt"
	"html"
	"slices"
	"strconv"
	"strings"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/count"
	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/manuscript/dialogue"
)

// Speaker is one character's speech over the book: the words of the
// lines quire gives them, certainly or as its best guess, per chapter.
type Speaker struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Lines and Words count every line given them; CertainLines and
	// CertainWords those whose speaker is certain (a tag names them or
	// the writer's speaker line does), the rest being quire's best
	// guess.
	Lines        int `json:"lines"`
	Words        int `json:"words"`
	CertainLines int `json:"certainLines"`
	CertainWords int `json:"certainWords"`
	// Cells are the chapters where they speak, in reading order.
	Cells []SpokenCell `json:"cells"`
}

// SpokenCell is a character's speech in one chapter.
type SpokenCell struct {
	// Chapter indexes Map.Chapters.
	Chapter      int `json:"chapter"`
	Lines        int `json:"lines"`
	Words        int `json:"words"`
	CertainLines int `json:"certainLines"`
	CertainWords int `json:"certainWords"`
	// Line and Column (from 1, column in characters) locate the
	// chapter's first line given the character.
	Line   int `json:"line"`
	Column int `json:"column"`
}

// gatherSpeech reads each chapter's dialogue: its words spoken, its
// share of the chapter, the words no character is guessed for, and the
// rows of the speakers, in order of their first line. It returns the
// attribution, by chapter, for the outline's scenes to read.
func (m *Map) gatherSpeech(cat *codex.Catalog, snap *manuscript.Snapshot, opts dialogue.Options) map[*manuscript.Unit][]dialogue.Utterance {
	units := snap.Units()
	rows := map[string]int{}
	speech := make(map[*manuscript.Unit][]dialogue.Utterance, len(units))
	for col, cd := range dialogue.NewBook(snap, cat, opts).Units(units) {
		speech[cd.Unit] = cd.Utterances
		ch := &m.Chapters[col]
		var lines *lineIndex
		for i := range cd.Utterances {
			u := &cd.Utterances[i]
			ch.SpokenWords += u.Words
			id := u.Best()
			if id == "" {
				ch.UnattributedWords += u.Words
				continue
			}
			r, ok := rows[id]
			if !ok {
				r = len(m.Speakers)
				rows[id] = r
				m.Speakers = append(m.Speakers, Speaker{ID: id, Name: speakerName(cat, id)})
			}
			s := &m.Speakers[r]
			if n := len(s.Cells); n == 0 || s.Cells[n-1].Chapter != col {
				if lines == nil {
					l := newLineIndex(cd.Unit.Text)
					lines = &l
				}
				line, column := lines.at(u.Marks[0].Start)
				s.Cells = append(s.Cells, SpokenCell{Chapter: col, Line: line, Column: column})
			}
			c := &s.Cells[len(s.Cells)-1]
			certain := !u.Uncertain
			c.Lines++
			c.Words += u.Words
			s.Lines++
			s.Words += u.Words
			if certain {
				c.CertainLines++
				c.CertainWords += u.Words
				s.CertainLines++
				s.CertainWords += u.Words
			}
		}
		ch.DialogueShare = dialogue.Share(ch.SpokenWords, ch.Words)
	}
	slices.SortStableFunc(m.Speakers, func(a, b Speaker) int {
		fa, fb := a.Cells[0], b.Cells[0]
		return cmp.Or(cmp.Compare(fa.Chapter, fb.Chapter), cmp.Compare(fa.Line, fb.Line),
			cmp.Compare(fa.Column, fb.Column), strings.Compare(a.Name, b.Name), strings.Compare(a.ID, b.ID))
	})
	return speech
}

// speakerName is the character's name, or its ID when the catalog has
// it no more.
func speakerName(cat *codex.Catalog, id string) string {
	if e, ok := cat.Get(id); ok {
		return e.Name
	}
	return id
}

// BookShare is the book's words spoken over its words.
func (m *Map) BookShare() float64 {
	spoken, words := 0, 0
	for _, ch := range m.Chapters {
		spoken += ch.SpokenWords
		words += ch.Words
	}
	return dialogue.Share(spoken, words)
}

// spokenRows writes the Spoken heatmap's table body: the share of each
// chapter that is dialogue, one row per character of the MaxRows who
// speak most, in order of their first line, then a row summing the
// other characters and one for the words quire finds no speaker for.
// As heatmapRows, it is written directly, every value escaped.
func (m *Map) spokenRows() string {
	var b strings.Builder
	b.Grow((2 + min(len(m.Speakers), m.MaxRows)) * (80 + 48*len(m.Chapters)))
	b.WriteString(`<tr class="share"><th scope="row" class="name">Share of the chapter</th><td></td><td class="total">`)
	b.WriteString(dialogue.Percent(m.BookShare()))
	b.WriteString(`</td>`)
	for _, ch := range m.Chapters {
		b.WriteString(`<td title="`)
		b.WriteString(html.EscapeString(fmt.Sprintf("%s. %s: %d of %s are dialogue", ch.Label(), ch.Title, ch.SpokenWords, count.Of(ch.Words, "word"))))
		b.WriteString(`">`)
		b.WriteString(dialogue.Percent(ch.DialogueShare))
		b.WriteString(`</td>`)
	}
	b.WriteString("</tr>\n")
	top := m.topSpeakers()
	shown := make([]bool, len(m.Speakers))
	for _, i := range top {
		shown[i] = true
		s := m.Speakers[i]
		b.WriteString(`<tr class="speaker" data-name="`)
		b.WriteString(html.EscapeString(strings.ToLower(s.Name)))
		b.WriteString(`"><th scope="row" class="name t-character" title="`)
		b.WriteString(html.EscapeString(fmt.Sprintf("%s: %s in %s, %d of them certain", s.Name, count.Of(s.Words, "word"), count.Of(s.Lines, "line"), s.CertainWords)))
		b.WriteString(`">`)
		b.WriteString(html.EscapeString(s.Name))
		b.WriteString(`</th><td class="type">`)
		b.WriteString(strconv.Itoa(s.Lines))
		b.WriteString(`</td><td class="total">`)
		b.WriteString(strconv.Itoa(s.Words))
		b.WriteString(`</td>`)
		next := 0
		for col, ch := range m.Chapters {
			if next >= len(s.Cells) || s.Cells[next].Chapter != col {
				b.WriteString(`<td></td>`)
				continue
			}
			c := s.Cells[next]
			next++
			b.WriteString(`<td class="h`)
			b.WriteString(strconv.Itoa(wordLevel(c.Words)))
			if c.CertainWords == 0 {
				b.WriteString(` guess`)
			}
			b.WriteString(`" title="`)
			b.WriteString(html.EscapeString(fmt.Sprintf("%s in %s. %s: %s in %s, %d of them certain", s.Name, ch.Label(), ch.Title, count.Of(c.Words, "word"), count.Of(c.Lines, "line"), c.CertainWords)))
			b.WriteString(`"><a href="`)
			b.WriteString(html.EscapeString(m.chapterLink(ch.Path, c.Line, c.Column)))
			b.WriteString(`">`)
			b.WriteString(strconv.Itoa(c.Words))
			b.WriteString(`</a></td>`)
		}
		b.WriteString("</tr>\n")
	}
	if len(top) < len(m.Speakers) {
		others := make([]int, len(m.Chapters))
		n, lines, words := 0, 0, 0
		for i, s := range m.Speakers {
			if shown[i] {
				continue
			}
			n++
			lines += s.Lines
			words += s.Words
			for _, c := range s.Cells {
				others[c.Chapter] += c.Words
			}
		}
		m.sumRow(&b, fmt.Sprintf("Other characters (%d)", n), strconv.Itoa(lines), words, others, n)
	}
	unknown := make([]int, len(m.Chapters))
	total := 0
	for i, ch := range m.Chapters {
		unknown[i] = ch.UnattributedWords
		total += ch.UnattributedWords
	}
	if total > 0 {
		m.sumRow(&b, "No speaker found", "", total, unknown, 1)
	}
	return b.String()
}

// sumRow writes a row of words per chapter that stands for several
// characters (per, for its shade) or for none.
func (m *Map) sumRow(b *strings.Builder, label, lines string, total int, words []int, per int) {
	b.WriteString(`<tr class="rest"><th scope="row" class="name">`)
	b.WriteString(html.EscapeString(label))
	b.WriteString(`</th><td class="type">`)
	b.WriteString(lines)
	b.WriteString(`</td><td class="total">`)
	b.WriteString(strconv.Itoa(total))
	b.WriteString(`</td>`)
	for _, n := range words {
		if n == 0 {
			b.WriteString(`<td></td>`)
			continue
		}
		b.WriteString(`<td class="h`)
		b.WriteString(strconv.Itoa(wordLevel(n / max(per, 1))))
		b.WriteString(`">`)
		b.WriteString(strconv.Itoa(n))
		b.WriteString(`</td>`)
	}
	b.WriteString("</tr>\n")
}

// topSpeakers are the indexes (into Speakers, so in order of first
// line) of the MaxRows characters who speak the most words.
func (m *Map) topSpeakers() []int {
	idx := make([]int, len(m.Speakers))
	for i := range idx {
		idx[i] = i
	}
	if len(idx) > m.MaxRows {
		slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(m.Speakers[b].Words, m.Speakers[a].Words) })
		idx = idx[:m.MaxRows]
		slices.Sort(idx)
	}
	return idx
}

// wordLevel is the shade of the words spoken in a chapter, 1 to 5: a
// line of a few words, a short exchange, a conversation, a scene's
// worth, and more.
func wordLevel(n int) int {
	switch {
	case n <= 20:
		return 1
	case n <= 60:
		return 2
	case n <= 150:
		return 3
	case n <= 400:
		return 4
	}
	return 5
}
