package bookmap

import (
	"cmp"
	"html"
	"slices"
	"strconv"
	"strings"

	"github.com/quire-ink/quire/codex"
)

// heatmapRows writes the heatmap's table body: one row per entry of the
// MaxRows most mentioned, in order of first appearance, then one row per
// type summing the rest. It is written directly rather than through
// html/template: at 10,000 entries and 200 chapters the table is tens of
// thousands of cells, and every value is escaped here as the template
// would.
func (m *Map) heatmapRows() (rows, rest string, shown int) {
	top := m.topEntries()
	var b strings.Builder
	b.Grow(len(top) * (64 + 24*len(m.Chapters)))
	for _, i := range top {
		e := m.Entries[i]
		b.WriteString(`<tr data-first="`)
		b.WriteString(strconv.Itoa(i))
		b.WriteString(`" data-total="`)
		b.WriteString(strconv.Itoa(e.Total))
		b.WriteString(`" data-type="`)
		b.WriteString(html.EscapeString(string(e.Type)))
		b.WriteString(`" data-rank="`)
		b.WriteString(strconv.Itoa(slices.Index(m.Types, e.Type)))
		b.WriteString(`" data-tags="|`)
		for _, t := range e.Tags {
			b.WriteString(html.EscapeString(t))
			b.WriteByte('|')
		}
		b.WriteString(`" data-name="`)
		b.WriteString(html.EscapeString(strings.ToLower(e.Name)))
		b.WriteString(`"><th scope="row" class="name t-`)
		b.WriteString(typeClass(e.Type))
		b.WriteString(`">`)
		b.WriteString(html.EscapeString(e.Name))
		b.WriteString(`</th><td class="type">`)
		b.WriteString(html.EscapeString(typeLabel(e.Type)))
		b.WriteString(`</td><td class="total">`)
		b.WriteString(strconv.Itoa(e.Total))
		b.WriteString(`</td>`)
		next := 0
		for col, ch := range m.Chapters {
			if next >= len(e.Cells) || e.Cells[next].Chapter != col {
				b.WriteString(`<td></td>`)
				continue
			}
			c := e.Cells[next]
			next++
			b.WriteString(`<td class="h`)
			b.WriteString(strconv.Itoa(level(c.Count)))
			b.WriteString(`"><a href="`)
			b.WriteString(html.EscapeString(m.chapterLink(ch.Path, c.Line, c.Column)))
			b.WriteString(`">`)
			b.WriteString(strconv.Itoa(c.Count))
			b.WriteString(`</a></td>`)
		}
		b.WriteString("</tr>\n")
	}
	return b.String(), m.restRows(top), len(top)
}

// topEntries are the indexes (into Entries, so in order of first
// appearance) of the MaxRows entries mentioned most.
func (m *Map) topEntries() []int {
	idx := make([]int, len(m.Entries))
	for i := range idx {
		idx[i] = i
	}
	if len(idx) > m.MaxRows {
		slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(m.Entries[b].Total, m.Entries[a].Total) })
		idx = idx[:m.MaxRows]
		slices.Sort(idx)
	}
	return idx
}

// restRows sums the entries past the top ones by type: a row per type
// saying how many entries it stands for.
func (m *Map) restRows(top []int) string {
	shown := make([]bool, len(m.Entries))
	for _, i := range top {
		shown[i] = true
	}
	type sum struct {
		entries, total int
		counts         []int
	}
	sums := map[codex.Type]*sum{}
	for i, e := range m.Entries {
		if shown[i] {
			continue
		}
		s := sums[e.Type]
		if s == nil {
			s = &sum{counts: make([]int, len(m.Chapters))}
			sums[e.Type] = s
		}
		s.entries++
		s.total += e.Total
		for _, c := range e.Cells {
			s.counts[c.Chapter] += c.Count
		}
	}
	var b strings.Builder
	for _, t := range m.Types {
		s := sums[t]
		if s == nil {
			continue
		}
		b.WriteString(`<tr class="rest"><th scope="row" class="name t-`)
		b.WriteString(typeClass(t))
		b.WriteString(`">`)
		b.WriteString(html.EscapeString(typePlural(t)))
		b.WriteString(` not shown (`)
		b.WriteString(strconv.Itoa(s.entries))
		b.WriteString(`)</th><td class="type">`)
		b.WriteString(html.EscapeString(typeLabel(t)))
		b.WriteString(`</td><td class="total">`)
		b.WriteString(strconv.Itoa(s.total))
		b.WriteString(`</td>`)
		for _, n := range s.counts {
			if n == 0 {
				b.WriteString(`<td></td>`)
				continue
			}
			b.WriteString(`<td class="h`)
			b.WriteString(strconv.Itoa(level(n / s.entries)))
			b.WriteString(`">`)
			b.WriteString(strconv.Itoa(n))
			b.WriteString(`</td>`)
		}
		b.WriteString("</tr>\n")
	}
	return b.String()
}

// level is a count's shade, 1 to 5, doubling per step: a name said once
// and one said thirty times must both be seen.
func level(n int) int {
	switch {
	case n <= 1:
		return 1
	case n <= 3:
		return 2
	case n <= 7:
		return 3
	case n <= 15:
		return 4
	}
	return 5
}

// Rows are the entries the heatmap gives a row each: the MaxRows
// mentioned most, in order of first appearance.
func (m *Map) Rows() []Entry {
	top := m.topEntries()
	out := make([]Entry, len(top))
	for i, j := range top {
		out[i] = m.Entries[j]
	}
	return out
}

// Counts are the entry's mentions in each of the map's chapters.
func (m *Map) Counts(e Entry) []int {
	out := make([]int, len(m.Chapters))
	for _, c := range e.Cells {
		out[c.Chapter] = c.Count
	}
	return out
}
