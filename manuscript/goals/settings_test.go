package goals

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex/settings"
)

func loaded(book, user string) *settings.Loaded {
	l := &settings.Loaded{Book: settings.Parse(settings.Name, []byte(book)), User: &settings.File{}}
	if user != "" {
		l.User = settings.Parse("/home/w/.config/quire/config.yaml", []byte(user))
	}
	return l
}

func TestSettingsFrom(t *testing.T) {
	weekdays := []time.Weekday{time.Monday, time.Tuesday, time.Wednesday, time.Thursday, time.Friday}
	tests := []struct {
		name     string
		book     string
		user     string
		want     Settings
		problems []string // file:line: part of the message
	}{
		{name: "none", book: "title: X\n"},
		{name: "all", book: "goals:\n  target: 90000\n  deadline: 2027-03-01\n  days: [mon, tue, wed, thu, fri]\n  daily: 1000\n",
			want: Settings{Target: 90000, Deadline: time.Date(2027, 3, 1, 0, 0, 0, 0, time.UTC), Days: weekdays, Daily: 1000}},
		{name: "separators and full names", book: "goals:\n  target: \"90,000\"\n  days: [Monday, saturday]\n",
			want: Settings{Target: 90000, Days: []time.Weekday{time.Monday, time.Saturday}}},
		{name: "one day", book: "goals: {days: sun}\n", want: Settings{Days: []time.Weekday{time.Sunday}}},
		{name: "writer's habits under the book's", book: "goals:\n  target: 50000\n", user: "goals:\n  daily: 500\n  days: [sat, sun]\n",
			want: Settings{Target: 50000, Daily: 500, Days: []time.Weekday{time.Saturday, time.Sunday}}},
		{name: "the book's daily over the writer's", book: "goals:\n  daily: 2000\n", user: "goals:\n  daily: 500\n",
			want: Settings{Daily: 2000}},
		{name: "bad values each located", book: "goals:\n  target: lots\n  deadline: March\n  days: [mon, someday]\n  daily: -3\n  weekly: 5000\n",
			problems: []string{"quire.yaml:2:target", "quire.yaml:3:deadline", "quire.yaml:4:someday", "quire.yaml:5:daily", "quire.yaml:6:weekly"}},
		{name: "good values stand beside a bad one", book: "goals:\n  target: 90000\n  daily: 1.5\n",
			want: Settings{Target: 90000}, problems: []string{"quire.yaml:3:daily"}},
		{name: "not a mapping", book: "goals: 1000\n", problems: []string{"quire.yaml:1:mapping"}},
		{name: "a book's target in the writer's file", book: "", user: "goals:\n  target: 9000\n  deadline: 2027-01-01\n",
			problems: []string{"/home/w/.config/quire/config.yaml:2:quire.yaml", "/home/w/.config/quire/config.yaml:3:quire.yaml"}},
		{name: "zero target", book: "goals:\n  target: 0\n", problems: []string{"quire.yaml:2:above 0"}},
		{name: "impossible date", book: "goals:\n  deadline: 2027-02-30\n", problems: []string{"quire.yaml:2:year-month-day"}},
		{name: "empty list of days", book: "goals:\n  days: []\n", problems: []string{"quire.yaml:2:at least one day"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, problems := SettingsFrom(loaded(tt.book, tt.user))
			require.Len(t, problems, len(tt.problems), "%v", problems)
			for i, want := range tt.problems {
				// want is file:line:a part of the message.
				cut := strings.LastIndex(want, ":")
				assert.Equal(t, want[:cut], problems[i].File+":"+strconv.Itoa(problems[i].Line))
				assert.Contains(t, problems[i].Message, want[cut+1:])
				assert.Contains(t, problems[i].Message, "goals")
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestDaysString(t *testing.T) {
	tests := []struct {
		days []time.Weekday
		want string
	}{
		{nil, "every day"},
		{[]time.Weekday{time.Friday, time.Monday, time.Tuesday, time.Wednesday, time.Thursday}, "Monday to Friday"},
		{[]time.Weekday{time.Monday, time.Wednesday, time.Friday}, "Monday, Wednesday and Friday"},
		{[]time.Weekday{time.Saturday, time.Sunday}, "Saturday and Sunday"},
		{[]time.Weekday{time.Friday, time.Saturday, time.Sunday}, "Friday to Sunday"},
		{[]time.Weekday{time.Sunday}, "Sundays"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, DaysString(tt.days))
	}
}
