package goals

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/quire-ink/quire/codex/count"
	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/manuscript/progress"
)

// Chapter is one chapter's count against its target.
type Chapter struct {
	Path     string `json:"path"`
	Title    string `json:"title"`
	Position int    `json:"position"`
	// Label is its number as quire shows it (manuscript.ChapterLabel).
	Label string `json:"label"`
	Words int    `json:"words"`
	// Target is the chapter's front matter target; 0 when none.
	Target int `json:"target,omitempty"`
}

// Quota is what is left to reach the book's target by its deadline.
type Quota struct {
	// Left is the words still to write.
	Left int `json:"left"`
	// WritingDays are the writing days from today to the deadline, both
	// counted.
	WritingDays int `json:"writingDays"`
	// PerDay is Left spread over WritingDays, rounded up; 0 when the
	// target is reached or the deadline passed.
	PerDay int `json:"perDay"`
	// Message says it in a sentence.
	Message string `json:"message"`
}

// Summary is a book's counts, today's work, its recent history and its
// goals: everything `quire stats` and the editors show.
type Summary struct {
	// Words is the book's count: its chapters' summed.
	Words int `json:"words"`
	// Target is the book's target; 0 when none.
	Target   int       `json:"target,omitempty"`
	Chapters []Chapter `json:"chapters"`
	// Today is today's day of the history.
	Today progress.Day `json:"today"`
	// Daily is the daily target; 0 when none.
	Daily int `json:"daily,omitempty"`
	// Days are the last 30 days, oldest first, today last; days with no
	// sight are left out.
	Days []progress.Day `json:"days"`
	// Session is the words added (gross) in this run of the language
	// server; 0, and left out, for the command line.
	Session int `json:"session,omitempty"`
	// Streak is the writing days in a row, to today (or to yesterday
	// while today has no words yet), on which words were added.
	Streak int `json:"streak"`
	// Deadline is the book's deadline, year-month-day; empty when none.
	Deadline string `json:"deadline,omitempty"`
	// WritingDays are the days of the week the writer writes, lower case
	// English names; empty is every day.
	WritingDays []string `json:"writingDays,omitempty"`
	// RestDay is whether today is not one of WritingDays: the daily
	// target does not apply to it.
	RestDay bool   `json:"restDay,omitempty"`
	Quota   *Quota `json:"quota,omitempty"`
}

// recentDays is how many days the summary's history shows.
const recentDays = 30

// Summarize sums chapters, history and goals as of now (its date in its
// location).
func Summarize(chapters []Chapter, h progress.History, g Settings, now time.Time) Summary {
	s := Summary{Chapters: chapters, Target: g.Target, Daily: g.Daily}
	if s.Chapters == nil {
		s.Chapters = []Chapter{}
	}
	for _, c := range chapters {
		s.Words += c.Words
	}
	today := progress.DateOf(now)
	s.Today = h.Day(today)
	if s.Today.Last == 0 && s.Today.First == 0 {
		s.Today.First, s.Today.Last = s.Words, s.Words
	}
	from := progress.DateOf(now.AddDate(0, 0, -(recentDays - 1)))
	s.Days = []progress.Day{}
	for _, d := range h.Days {
		if d.Date >= from && d.Date <= today {
			s.Days = append(s.Days, d)
		}
	}
	s.Streak = streak(h, g.Days, now)
	for _, d := range g.Days {
		s.WritingDays = append(s.WritingDays, strings.ToLower(d.String()))
	}
	s.RestDay = len(g.Days) > 0 && !slices.Contains(g.Days, now.Weekday())
	if !g.Deadline.IsZero() {
		s.Deadline = g.Deadline.Format(time.DateOnly)
		if g.Target > 0 {
			q := QuotaOf(s.Words, g.Target, g.Deadline, g.Days, now)
			s.Quota = &q
		}
	}
	return s
}

// streak counts back from today the writing days with words added;
// days that are not writing days neither count nor break it. Today
// without words yet does not break it either: the day is not over.
func streak(h progress.History, days []time.Weekday, now time.Time) int {
	gross := make(map[string]int, len(h.Days))
	for _, d := range h.Days {
		gross[d.Date] = d.Gross
	}
	n := 0
	day := now
	if gross[progress.DateOf(day)] == 0 {
		day = day.AddDate(0, 0, -1)
	}
	for range progress.MaxDays {
		if writingDay(day.Weekday(), days) {
			if gross[progress.DateOf(day)] == 0 {
				break
			}
			n++
		}
		day = day.AddDate(0, 0, -1)
	}
	return n
}

func writingDay(d time.Weekday, days []time.Weekday) bool {
	if len(days) == 0 {
		return true
	}
	for _, x := range days {
		if x == d {
			return true
		}
	}
	return false
}

// QuotaOf spreads what is left of target over the writing days from
// now's date to deadline, both counted.
func QuotaOf(words, target int, deadline time.Time, days []time.Weekday, now time.Time) Quota {
	q := Quota{Left: max(0, target-words)}
	by := HumanDate(deadline)
	if q.Left == 0 {
		q.Message = fmt.Sprintf("Target of %s words reached.", count.Number(target))
		return q
	}
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	end := time.Date(deadline.Year(), deadline.Month(), deadline.Day(), 0, 0, 0, 0, time.UTC)
	for d := today; !d.After(end) && q.WritingDays <= 3660; d = d.AddDate(0, 0, 1) {
		if writingDay(d.Weekday(), days) {
			q.WritingDays++
		}
	}
	if q.WritingDays == 0 {
		if end.Before(today) {
			q.Message = fmt.Sprintf("The deadline, %s, has passed; %s words to go to reach %s.", by, count.Number(q.Left), count.Number(target))
		} else {
			q.Message = fmt.Sprintf("No writing day is left before %s; %s words to go to reach %s.", by, count.Number(q.Left), count.Number(target))
		}
		return q
	}
	q.PerDay = (q.Left + q.WritingDays - 1) / q.WritingDays
	unit := "words"
	if q.PerDay == 1 {
		unit = "word"
	}
	q.Message = fmt.Sprintf("%s %s a day, %s, to reach %s by %s.", count.Number(q.PerDay), unit, DaysString(days), count.Number(target), by)
	return q
}

// HumanDate is a date as a writer says it: "1 March 2027".
func HumanDate(t time.Time) string { return t.Format("2 January 2006") }

// ChaptersOf are the chapters of a manuscript in reading order, with
// their counts and targets; documents outside the manuscript are left
// out.
func ChaptersOf(s *manuscript.Snapshot) []Chapter {
	var out []Chapter
	for _, u := range s.Units() {
		if u.Position == 0 {
			continue
		}
		out = append(out, Chapter{Path: u.Path, Title: u.Title, Position: u.Position, Label: u.Label(), Words: u.Words, Target: u.Meta.Target})
	}
	return out
}

// Counts are the chapters' counts by path, as progress.Store.Observe
// takes them.
func Counts(chapters []Chapter) map[string]int {
	m := make(map[string]int, len(chapters))
	for _, c := range chapters {
		m[c.Path] = c.Words
	}
	return m
}
