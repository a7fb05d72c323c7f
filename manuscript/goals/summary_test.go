package goals

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/quire-ink/quire/manuscript/progress"
)

func date(s string) time.Time {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestQuotaAcrossWritingDays(t *testing.T) {
	weekdays := []time.Weekday{time.Monday, time.Tuesday, time.Wednesday, time.Thursday, time.Friday}
	tests := []struct {
		name     string
		words    int
		target   int
		deadline string
		days     []time.Weekday
		now      string
		want     Quota
	}{
		// Friday 27 November 2026 to Friday 11 December: 11 weekdays.
		{"weekdays", 77400, 90000, "2026-12-11", weekdays, "2026-11-27",
			Quota{Left: 12600, WritingDays: 11, PerDay: 1146, Message: "1,146 words a day, Monday to Friday, to reach 90,000 by 11 December 2026."}},
		// From a Saturday, the weekend is no writing day.
		{"from a weekend", 77400, 90000, "2026-12-11", weekdays, "2026-11-28",
			Quota{Left: 12600, WritingDays: 10, PerDay: 1260, Message: "1,260 words a day, Monday to Friday, to reach 90,000 by 11 December 2026."}},
		{"every day", 0, 1000, "2026-12-01", nil, "2026-11-27",
			Quota{Left: 1000, WritingDays: 5, PerDay: 200, Message: "200 words a day, every day, to reach 1,000 by 1 December 2026."}},
		{"the deadline itself", 990, 1000, "2026-11-27", nil, "2026-11-27",
			Quota{Left: 10, WritingDays: 1, PerDay: 10, Message: "10 words a day, every day, to reach 1,000 by 27 November 2026."}},
		{"reached", 91000, 90000, "2026-12-11", weekdays, "2026-11-27",
			Quota{Message: "Target of 90,000 words reached."}},
		{"passed", 100, 1000, "2026-11-01", nil, "2026-11-27",
			Quota{Left: 900, Message: "The deadline, 1 November 2026, has passed; 900 words to go to reach 1,000."}},
		{"no writing day left", 100, 1000, "2026-11-29", weekdays, "2026-11-28",
			Quota{Left: 900, Message: "No writing day is left before 29 November 2026; 900 words to go to reach 1,000."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// The writer's local evening: the date is the local one.
			now := date(tt.now).Add(22 * time.Hour).In(time.FixedZone("west", -5*3600)).Add(5 * time.Hour)
			assert.Equal(t, tt.want, QuotaOf(tt.words, tt.target, date(tt.deadline), tt.days, now))
		})
	}
}

func TestSummarize(t *testing.T) {
	h := progress.History{Days: []progress.Day{
		{Date: "2026-10-01", First: 10, Last: 20, Net: 10, Gross: 10},     // out of the 30 days
		{Date: "2026-11-23", First: 100, Last: 400, Net: 300, Gross: 300}, // Monday
		{Date: "2026-11-24", First: 400, Last: 500, Net: 100, Gross: 150},
		// Wednesday 25th: nothing written, but it is no writing day.
		{Date: "2026-11-26", First: 500, Last: 900, Net: 400, Gross: 400},
		{Date: "2026-11-27", First: 900, Last: 1100, Net: 200, Gross: 1250},
	}}
	g := Settings{Target: 2000, Daily: 1000, Deadline: date("2026-12-04"),
		Days: []time.Weekday{time.Monday, time.Tuesday, time.Thursday, time.Friday}}
	chapters := []Chapter{{Path: "m/01.md", Title: "One", Position: 1, Words: 600, Target: 500}, {Path: "m/02.md", Title: "Two", Position: 2, Words: 500}}
	s := Summarize(chapters, h, g, date("2026-11-27").Add(15*time.Hour))
	assert.Equal(t, 1100, s.Words)
	assert.Equal(t, h.Days[4], s.Today)
	assert.Len(t, s.Days, 4)
	assert.Equal(t, 4, s.Streak, "Wednesday is no writing day and does not break it")
	assert.Equal(t, []string{"monday", "tuesday", "thursday", "friday"}, s.WritingDays)
	// Friday 27, Monday 30, Tuesday 1, Thursday 3, Friday 4.
	assert.Equal(t, &Quota{Left: 900, WritingDays: 5, PerDay: 180, Message: "180 words a day, Monday, Tuesday, Thursday and Friday, to reach 2,000 by 4 December 2026."}, s.Quota)
	assert.Equal(t, "600 words · target 500 ✓", chapters[0].Lens())
	assert.Equal(t, "500 words", chapters[1].Lens())
	assert.Equal(t, "today +1,250 of 1,000 ✓ (net +200)", s.TodayText())
	assert.Equal(t, "book 1,100 of 2,000", s.BookText())
	assert.Equal(t, "One: 600 words · target 500 ✓.\nBook 1,100 of 2,000, in 2 chapters.\nToday +1,250 of 1,000 ✓ (net +200).\nStreak: 4 writing days in a row.\n180 words a day, Monday, Tuesday, Thursday and Friday, to reach 2,000 by 4 December 2026.", s.Message(&chapters[0]))
}

func TestStreakWaitsForTodayAndBreaksOnAMissedDay(t *testing.T) {
	h := progress.History{Days: []progress.Day{
		{Date: "2026-11-24", Gross: 5},
		{Date: "2026-11-25", Gross: 0},
		{Date: "2026-11-26", Gross: 10},
	}}
	// Today has no words yet: yesterday's streak stands.
	assert.Equal(t, 1, Summarize(nil, h, Settings{}, date("2026-11-27").Add(9*time.Hour)).Streak)
	// A day later, yesterday (the 27th) was missed.
	assert.Equal(t, 0, Summarize(nil, h, Settings{}, date("2026-11-28").Add(9*time.Hour)).Streak)
}

func TestSummaryWithNoHistory(t *testing.T) {
	s := Summarize([]Chapter{{Words: 40}}, progress.History{}, Settings{}, date("2026-11-27"))
	assert.Equal(t, progress.Day{Date: "2026-11-27", First: 40, Last: 40}, s.Today)
	assert.Equal(t, []progress.Day{}, s.Days)
	assert.Nil(t, s.Quota)
	assert.Equal(t, "today +0", s.TodayText())
}

// TestARestDayHoldsUpNoDailyTarget: "Today +56 of 1,000" on a day that
// is not a writing day read as a day's target missed.
func TestARestDayHoldsUpNoDailyTarget(t *testing.T) {
	h := progress.History{Days: []progress.Day{{Date: "2026-11-25", First: 100, Last: 156, Net: 56, Gross: 56}}}
	g := Settings{Daily: 1000, Days: []time.Weekday{time.Monday, time.Tuesday}}
	s := Summarize(nil, h, g, date("2026-11-25").Add(15*time.Hour)) // a Wednesday
	assert.True(t, s.RestDay)
	assert.Equal(t, "today +56, a rest day", s.TodayText())
	assert.Contains(t, s.Message(nil), "Book 0, in 0 chapters.\nToday +56, a rest day.")

	s = Summarize(nil, h, g, date("2026-11-24").Add(15*time.Hour)) // a Tuesday
	assert.False(t, s.RestDay)
	assert.Equal(t, "today +0 of 1,000", s.TodayText())

	s = Summarize(nil, h, Settings{Daily: 1000}, date("2026-11-25").Add(15*time.Hour))
	assert.False(t, s.RestDay, "no writing days named: every day is one")
	assert.Equal(t, "today +56 of 1,000", s.TodayText())
}

func TestMessageCountsAgree(t *testing.T) {
	s := Summarize([]Chapter{{Title: "One", Words: 1}}, progress.History{Days: []progress.Day{{Date: "2026-11-27", Gross: 1}}}, Settings{}, date("2026-11-27").Add(9*time.Hour))
	msg := s.Message(&s.Chapters[0])
	assert.Contains(t, msg, "One: 1 word.")
	assert.Contains(t, msg, "in 1 chapter.")
	assert.Contains(t, msg, "Streak: 1 writing day in a row.")
}
