package bookmap

import (
	"html/template"
	"strings"

	"github.com/quire-ink/quire/codex/count"
)

// The progress view: each chapter against its target and the words added
// on each of the last 30 days, from the Summary `quire stats` prints, so
// the map and every editor give the same figures. Bars are plain HTML
// widths: nothing to script, and they print.

// progressView is the section as the template draws it.
type progressView struct {
	Book     string
	BookPct  int
	Today    string
	Quota    string
	Chapters []progressRow
	Days     []dayRow
}

type progressRow struct {
	Label, Title, Words, Target string
	Href                        template.URL
	// Pct is the bar's width, words against the target, at most 100; 0
	// with no target.
	Pct int
	Met bool
}

type dayRow struct {
	Date, Gross, Net, Last string
	// Pct is the bar's width against the day that added most (or the
	// daily goal, when higher).
	Pct int
	Met bool
}

// pct is n as a whole percentage of of, at most 100.
func pct(n, of int) int {
	if of <= 0 || n <= 0 {
		return 0
	}
	return min(100, n*100/of)
}

func signed(n int) string {
	if n < 0 {
		return count.Number(n)
	}
	return "+" + count.Number(n)
}

// progressView is nil when the map was built without a summary.
func (m *Map) progressView() *progressView {
	s := m.Progress
	if s == nil {
		return nil
	}
	v := &progressView{Book: s.BookText(), BookPct: pct(s.Words, s.Target), Today: s.TodayText()}
	if s.Quota != nil {
		// The line is one sentence, its full stop the template's.
		v.Quota = strings.TrimRight(s.Quota.Message, ".")
	}
	label := map[string]string{}
	for _, ch := range m.Chapters {
		label[ch.Path] = ch.Label()
	}
	for _, c := range s.Chapters {
		r := progressRow{Label: label[c.Path], Title: c.Title, Words: count.Number(c.Words),
			Href: template.URL(m.chapterLink(c.Path, 1, 1)), Pct: pct(c.Words, c.Target), Met: c.Target > 0 && c.Words >= c.Target}
		if r.Label == "" {
			r.Label = count.Number(c.Position)
		}
		if c.Target > 0 {
			r.Target = count.Number(c.Target)
		}
		v.Chapters = append(v.Chapters, r)
	}
	most := s.Daily
	for _, d := range s.Days {
		most = max(most, d.Gross)
	}
	for _, d := range s.Days {
		v.Days = append(v.Days, dayRow{Date: d.Date, Gross: "+" + count.Number(d.Gross), Net: signed(d.Net),
			Last: count.Number(d.Last), Pct: pct(d.Gross, most), Met: s.Daily > 0 && d.Gross >= s.Daily})
	}
	return v
}
