package progress

import (
	"sort"
	"time"
)

// Day is one calendar day of a book's history.
type Day struct {
	// Date is the writer's local date, year-month-day.
	Date string `json:"date"`
	// First is the book's count at the day's first sight; Last at its last.
	First int `json:"first"`
	Last  int `json:"last"`
	// Net is Last - First: what the day changed.
	Net int `json:"net"`
	// Gross is the words added: every rise of a chapter's count summed,
	// deletions not taken off.
	Gross int `json:"gross"`
}

// History is what the progress file holds.
type History struct {
	// Days are oldest first, at most MaxDays.
	Days []Day `json:"days"`
	// Chapters are each chapter's count as last seen, by project-relative
	// path.
	Chapters map[string]int `json:"chapters"`
}

// Bounds of the file: a year and more of days, and more chapters than a
// book has, so that a damaged or hostile file stays small.
const (
	MaxDays     = 400
	maxChapters = 20_000
)

// DateOf is the day t falls on, in t's own location.
func DateOf(t time.Time) string { return t.Format(time.DateOnly) }

// Day is the history's day of date, zero with that date when it has none.
func (h History) Day(date string) Day {
	for _, d := range h.Days {
		if d.Date == date {
			return d
		}
	}
	return Day{Date: date}
}

// Total is the book's count as last seen.
func (h History) Total() int {
	n := 0
	for _, c := range h.Chapters {
		n += c
	}
	return n
}

// apply lands what one process saw in one day on h.
func (h *History) apply(p *pendingDay) {
	known := len(h.Chapters) > 0 || len(h.Days) > 0
	prior := h.Total()
	gross, first := 0, 0
	for path, sp := range p.chapters {
		if b, ok := h.Chapters[path]; ok {
			gross += max(0, sp.first-b)
		}
		gross += sp.gross
		if p.present[path] {
			first += sp.first
		}
	}
	next := make(map[string]int, len(p.present))
	for path := range p.present {
		if sp := p.chapters[path]; sp != nil && len(next) < maxChapters {
			next[path] = sp.last
		}
	}
	h.Chapters = next
	if !known {
		prior = first
	}
	i := sort.Search(len(h.Days), func(i int) bool { return h.Days[i].Date >= p.date })
	if i == len(h.Days) || h.Days[i].Date != p.date {
		h.Days = append(h.Days, Day{})
		copy(h.Days[i+1:], h.Days[i:])
		h.Days[i] = Day{Date: p.date, First: prior}
	}
	d := &h.Days[i]
	d.Last = h.Total()
	d.Gross += gross
	d.Net = d.Last - d.First
	if len(h.Days) > MaxDays {
		h.Days = h.Days[len(h.Days)-MaxDays:]
	}
}

// span is what one process saw of one chapter in one day: its first and
// last count, and the rises between them.
type span struct {
	first, last, gross int
}

// pendingDay is what one process saw in one day and has not yet written.
type pendingDay struct {
	date     string
	chapters map[string]*span
	// present are the chapters of the latest sight: a chapter left out
	// was removed from the book.
	present map[string]bool
}

func newPendingDay(date string) *pendingDay {
	return &pendingDay{date: date, chapters: map[string]*span{}, present: map[string]bool{}}
}

// see records one sight of the whole book.
func (p *pendingDay) see(counts map[string]int) {
	clear(p.present)
	for path, c := range counts {
		if len(p.present) >= maxChapters {
			break
		}
		c = max(0, c)
		p.present[path] = true
		sp := p.chapters[path]
		if sp == nil {
			p.chapters[path] = &span{first: c, last: c}
			continue
		}
		sp.gross += max(0, c-sp.last)
		sp.last = c
	}
}

// merge puts later (what was seen after p, same date) on p: a failed
// write's sights come back before the new ones.
func (p *pendingDay) merge(later *pendingDay) {
	for path, l := range later.chapters {
		sp := p.chapters[path]
		if sp == nil {
			p.chapters[path] = &span{first: l.first, last: l.last, gross: l.gross}
			continue
		}
		sp.gross += max(0, l.first-sp.last) + l.gross
		sp.last = l.last
	}
	p.present = later.present
}

func (p *pendingDay) clone() *pendingDay {
	c := newPendingDay(p.date)
	for path, sp := range p.chapters {
		s := *sp
		c.chapters[path] = &s
	}
	for path := range p.present {
		c.present[path] = true
	}
	return c
}
