package goals

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/settings"
)

// Settings are a book's word goals; every one may be unset (zero).
type Settings struct {
	// Target is the book's length in words.
	Target int `json:"target,omitempty"`
	// Deadline is the day the Target is due, at midnight UTC (a date,
	// not an instant); zero when none.
	Deadline time.Time `json:"-"`
	// Days are the writing days of the week; none means every day.
	Days []time.Weekday `json:"-"`
	// Daily is the words a writing day aims at.
	Daily int `json:"daily,omitempty"`
}

// maxWords bounds a target; no book runs to ten million words.
const maxWords = 10_000_000

// Keys are the settings of goals: (the docs test checks each is on docs/quire-yaml.md).
var Keys = []string{"target", "deadline", "days", "daily"}

// dateLayout is how a deadline is written: deadline: 2027-03-01.
const dateLayout = "2006-01-02"

// SettingsFrom reads `goals:` from a book's settings: target and
// deadline are the book's own; daily and days are the book's when it
// sets them, else the writer's config.yaml's (their own habits). A value
// that cannot be used is a problem located in its file and left unset.
func SettingsFrom(l *settings.Loaded) (Settings, []*settings.Problem) {
	var s Settings
	var problems []*settings.Problem
	if l == nil {
		return s, nil
	}
	files := []*settings.File{l.Book}
	if l.User != nil && l.User.Err == nil {
		files = append(files, l.User)
	}
	// The writer's file is read first, so that the book's values replace
	// its values key by key.
	for i := len(files) - 1; i >= 0; i-- {
		f := files[i]
		if f == nil {
			continue
		}
		n := codex.FollowAlias(f.Value("goals"))
		if n == nil || n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" {
			continue
		}
		if n.Kind != yaml.MappingNode {
			problems = append(problems, f.At(n, "goals is a mapping of target, deadline, days and daily, such as {daily: 1000}"))
			continue
		}
		book := f == l.Book
		for j := 0; j+1 < len(n.Content); j += 2 {
			k, v := n.Content[j], codex.FollowAlias(n.Content[j+1])
			if !slices.Contains(Keys, k.Value) {
				problems = append(problems, f.At(k, "goals: unknown setting %q; quire reads target, deadline, days and daily", k.Value))
				continue
			}
			if p := s.set(f, k.Value, v, book); p != nil {
				problems = append(problems, p)
			}
		}
	}
	return s, problems
}

// set reads one key of goals: into s; book says the file is the book's.
func (s *Settings) set(f *settings.File, key string, v *yaml.Node, book bool) *settings.Problem {
	if v == nil || v.Kind == yaml.ScalarNode && v.ShortTag() == "!!null" {
		return nil
	}
	switch key {
	case "target", "daily":
		n, ok := wholeWords(v)
		if !ok {
			return f.At(v, "goals: %s must be a whole number of words above 0, such as %s: %s, not %s", key, key, map[string]string{"target": "90000", "daily": "1000"}[key], quote(v))
		}
		if key == "target" {
			if !book {
				return f.At(v, "goals: target is the book's length and belongs in its quire.yaml, not in your own config.yaml")
			}
			s.Target = n
		} else {
			s.Daily = n
		}
	case "deadline":
		if !book {
			return f.At(v, "goals: deadline is the book's and belongs in its quire.yaml, not in your own config.yaml")
		}
		d, err := time.Parse(dateLayout, strings.TrimSpace(v.Value))
		if v.Kind != yaml.ScalarNode || err != nil {
			return f.At(v, "goals: deadline must be a date written year-month-day, such as deadline: 2027-03-01, not %s", quote(v))
		}
		s.Deadline = d
	case "days":
		days, bad := weekdays(v)
		if bad == v && v.Kind == yaml.SequenceNode && len(v.Content) == 0 {
			return f.At(v, "goals: days lists at least one day of the week, such as days: [mon, tue, wed, thu, fri]")
		}
		if bad != nil {
			return f.At(bad, "goals: days lists days of the week, such as days: [mon, tue, wed, thu, fri], and %s is none", quote(bad))
		}
		s.Days = days
	}
	return nil
}

// wholeWords reads a positive whole number of words, plain or quoted,
// with or without thousands separators ("90,000", 90_000).
func wholeWords(v *yaml.Node) (int, bool) {
	if v.Kind != yaml.ScalarNode {
		return 0, false
	}
	s := strings.NewReplacer(",", "", "_", "").Replace(strings.TrimSpace(v.Value))
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 || n > maxWords {
		return 0, false
	}
	return n, true
}

// weekdays reads a list of days of the week, or one day, written as
// names in any case, full or three letters; bad is the node that is no
// day.
func weekdays(v *yaml.Node) (days []time.Weekday, bad *yaml.Node) {
	items := []*yaml.Node{v}
	if v.Kind == yaml.SequenceNode {
		items = v.Content
	}
	seen := map[time.Weekday]bool{}
	for _, it := range items {
		it = codex.FollowAlias(it)
		if it == nil || it.Kind != yaml.ScalarNode {
			return nil, v
		}
		d, ok := weekday(it.Value)
		if !ok {
			return nil, it
		}
		if !seen[d] {
			seen[d] = true
			days = append(days, d)
		}
	}
	if len(days) == 0 {
		return nil, v
	}
	return days, nil
}

func weekday(s string) (time.Weekday, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	if len(s) < 3 {
		return 0, false
	}
	for d := time.Sunday; d <= time.Saturday; d++ {
		name := strings.ToLower(d.String())
		if s == name || s == name[:3] {
			return d, true
		}
	}
	return 0, false
}

// quote shows a value in a message.
func quote(v *yaml.Node) string {
	switch v.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "a mapping"
	}
	s := v.Value
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return strconv.Quote(s)
}

// DaysString is the writing days as a writer reads them: "Monday to
// Friday", "Monday, Wednesday and Friday", "every day".
func DaysString(days []time.Weekday) string {
	if len(days) == 0 || len(days) == 7 {
		return "every day"
	}
	// Order from Monday, as writers' weeks run.
	ordered := make([]time.Weekday, 0, len(days))
	for _, d := range []time.Weekday{time.Monday, time.Tuesday, time.Wednesday, time.Thursday, time.Friday, time.Saturday, time.Sunday} {
		for _, x := range days {
			if x == d {
				ordered = append(ordered, d)
			}
		}
	}
	run := true
	for i := 1; i < len(ordered); i++ {
		if (ordered[i-1]+1)%7 != ordered[i] {
			run = false
		}
	}
	if run && len(ordered) >= 3 {
		return fmt.Sprintf("%s to %s", ordered[0], ordered[len(ordered)-1])
	}
	names := make([]string, len(ordered))
	for i, d := range ordered {
		names[i] = d.String()
	}
	if len(names) == 1 {
		return names[0] + "s"
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
