package goals

import (
	"fmt"
	"strings"

	"github.com/quire-ink/quire/codex/count"
)

// The words every editor shows are made here, once, so that the code
// lens, the message and `quire stats` say the same.

// Lens is a chapter's count as its code lens shows it: "4,210 words ·
// target 4,000 ✓".
func (c Chapter) Lens() string {
	s := count.Number(c.Words) + " words"
	if c.Words == 1 {
		s = "1 word"
	}
	if c.Target > 0 {
		s += " · target " + count.Number(c.Target)
		if c.Words >= c.Target {
			s += " ✓"
		}
	}
	return s
}

// TodayText is today's work: "today +1,250 of 1,000 ✓" (the gross, the
// words added), with the net when deletions made it differ. On a day
// that is not a writing day the daily target is not held up: "today
// +56, a rest day".
func (s Summary) TodayText() string {
	t := "today +" + count.Number(s.Today.Gross)
	if s.RestDay {
		t += ", a rest day"
	} else if s.Daily > 0 {
		t += " of " + count.Number(s.Daily)
		if s.Today.Gross >= s.Daily {
			t += " ✓"
		}
	}
	if s.Today.Net != s.Today.Gross {
		t += fmt.Sprintf(" (net %s%s)", sign(s.Today.Net), count.Number(abs(s.Today.Net)))
	}
	return t
}

// BookText is the book's count: "book 82,400 of 90,000".
func (s Summary) BookText() string {
	t := "book " + count.Number(s.Words)
	if s.Target > 0 {
		t += " of " + count.Number(s.Target)
		if s.Words >= s.Target {
			t += " ✓"
		}
	}
	return t
}

// Message is the summary in a few plain lines, as window/showMessage
// shows it; chapter, when not nil, is the chapter the writer is in.
func (s Summary) Message(chapter *Chapter) string {
	var lines []string
	if chapter != nil {
		lines = append(lines, fmt.Sprintf("%s: %s.", chapter.Title, chapter.Lens()))
	}
	lines = append(lines, capitalize(s.BookText())+", in "+count.Of(len(s.Chapters), "chapter")+".")
	lines = append(lines, capitalize(s.TodayText())+".")
	if s.Session > 0 {
		lines = append(lines, "This session: +"+count.Number(s.Session)+".")
	}
	if s.Streak > 0 {
		lines = append(lines, "Streak: "+count.Of(s.Streak, "writing day")+" in a row.")
	}
	if s.Quota != nil {
		lines = append(lines, s.Quota.Message)
	}
	return strings.Join(lines, "\n")
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func sign(n int) string {
	if n < 0 {
		return "-"
	}
	return "+"
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
