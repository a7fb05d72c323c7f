package bookmap

import (
	"slices"
	"strconv"
)

// Timeline places the chapters in story time: those whose front matter
// gives a day in a column per day (flashbacks too, at the day they are
// set), the others in reading order in a lane of their own.
type Timeline struct {
	// Days are the days chapters give, in story order.
	Days []Day `json:"days"`
	// Undated are the chapters with no day of their own, by index into
	// Map.Chapters, in reading order.
	Undated []int `json:"undated"`
	// POVs are the points of view, in order of first chapter; each
	// has a colour of its own, by that order.
	POVs []string `json:"povs"`
}

// Day is one story day and the chapters set on it, in reading order.
type Day struct {
	Day      int   `json:"day"`
	Chapters []int `json:"chapters"`
	// Gap says days are skipped before this one.
	Gap bool `json:"gap,omitempty"`
}

func timelineOf(chapters []Chapter) Timeline {
	t := Timeline{Days: []Day{}, Undated: []int{}, POVs: []string{}}
	byDay := map[int][]int{}
	for i, ch := range chapters {
		if ch.POVName != "" && !slices.Contains(t.POVs, ch.POVName) {
			t.POVs = append(t.POVs, ch.POVName)
		}
		if !ch.HasDay {
			t.Undated = append(t.Undated, i)
			continue
		}
		byDay[ch.Day] = append(byDay[ch.Day], i)
	}
	days := make([]int, 0, len(byDay))
	for d := range byDay {
		days = append(days, d)
	}
	slices.Sort(days)
	for i, d := range days {
		t.Days = append(t.Days, Day{Day: d, Chapters: byDay[d], Gap: i > 0 && d > days[i-1]+1})
	}
	return t
}

// POVIndex is the colour number of a point of view: its place in POVs,
// or -1.
func (t Timeline) POVIndex(name string) int { return slices.Index(t.POVs, name) }

func itoa(n int) string { return strconv.Itoa(n) }
