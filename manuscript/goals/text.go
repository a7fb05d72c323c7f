package goals

import (
	"fmt"
	"strings"
)

// The words every editor shows are made here, once, so that the code
// lens, the message and `quire stats` say the same.

// Lens is a chapter's count as its code lens shows it: "4,210 words ·
// target 4,000 ✓".
func (c Chapter) Lens() string {
	s := Thousands(c.Words) + " words"
	if c.Words == 1 {
		s = "1 word"
	}
	if c.Target > 0 {
		s += " · target " + Thousands(c.Target)
		if c.Words >= c.Target {
			s += " ✓"
		}
	}
	return s
}

// TodayText is today's work: "today +1,250 of 1,000 ✓" (the gross, the
// words added), with the net when deletions made it differ.
func (s Summary) TodayText() string {
	t := "today +" + Thousands(s.Today.Gross)
	if s.Daily > 0 {
		t += " of " + Thousands(s.Daily)
		if s.Today.Gross >= s.Daily {
			t += " ✓"
		}
	}
	if s.Today.Net != s.Today.Gross {
		t += fmt.Sprintf(" (net %s%s)", sign(s.Today.Net), Thousands(abs(s.Today.Net)))
	}
	return t
}

// BookText is the book's count: "book 82,400 of 90,000".
func (s Summary) BookText() string {
	t := "book " + Thousands(s.Words)
	if s.Target > 0 {
		t += " of " + Thousands(s.Target)
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
	lines = append(lines, capitalize(s.BookText())+", in "+plural(len(s.Chapters), "chapter")+".")
	lines = append(lines, capitalize(s.TodayText())+".")
	if s.Session > 0 {
		lines = append(lines, "This session: +"+Thousands(s.Session)+".")
	}
	if s.Streak > 0 {
		lines = append(lines, "Streak: "+plural(s.Streak, "writing day")+" in a row.")
	}
	if s.Quota != nil {
		lines = append(lines, s.Quota.Message)
	}
	return strings.Join(lines, "\n")
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return Thousands(n) + " " + what + "s"
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
