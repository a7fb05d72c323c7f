package dialoguebench

import (
	"regexp"
	"strings"
)

// Chapter is one chapter of a novel's text: Text[Start:End], heading
// and all, so that an offset into it plus Start is one into the novel.
type Chapter struct {
	Start, End int
	// Heading is the heading line it starts with, "" for the text before
	// the first heading.
	Heading string
}

// headings are the shapes of the lines that open a chapter in plain-text
// novels (Project Gutenberg's and PDNC's).
type headings struct {
	chapter, word, bare, group *regexp.Regexp
}

func newHeadings() headings {
	const num = `(?:[IVXLCDM]+|\d+|(?i:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty)(?:-(?i:one|two|three|four|five|six|seven|eight|nine))?)`
	// After its number a heading ends, or goes on to a title after a
	// stop or a colon ("CHAPTER I. Down the Rabbit-Hole", "Chapter I:
	// The Bertolini") or in capitals; not into a sentence ("Chapter two
	// was found").
	const rest = `(?:\s*[.:]?\s*|\s*[.:]\s+\S.*|\s+[^a-z]*)$`
	return headings{
		chapter: regexp.MustCompile(`^\s*(?:CHAPTER|Chapter)\s+` + num + rest),
		word:    regexp.MustCompile(`^\s*(?:CHAPTER|Chapter)\s*$`),
		bare:    regexp.MustCompile(`^\s*(?:[IVXLC]+|\d+)\.?\s*$`),
		group:   regexp.MustCompile(`^\s*(?:VOLUME|Volume|BOOK|Book|PART|Part)\s+` + num + rest),
	}
}

// SplitChapters cuts a novel's plain text into its chapters at their
// headings: a line that stands after a blank line (or first in the text)
// and reads "CHAPTER I", "Chapter 12", "CHAPTER XII." or "Chapter
// Three", with a title after it or not; "CHAPTER" alone with its number
// on the next line; a number alone between blank lines ("IV."); a
// VOLUME, BOOK or PART line, which opens the chapter that follows it
// when one follows with nothing between. The text before the first
// heading, when it holds more than white space, is a chapter of its
// own. The chapters cover the text end to end.
func SplitChapters(text string) []Chapter {
	h := newHeadings()
	type line struct {
		start int
		text  string
	}
	var lines []line
	start := 0
	for l := range strings.Lines(text) {
		lines = append(lines, line{start, strings.TrimRight(l, "\r\n")})
		start += len(l)
	}
	blank := func(i int) bool { return i < 0 || i >= len(lines) || strings.TrimSpace(lines[i].text) == "" }
	// nextText is the first line after i that is not blank.
	nextText := func(i int) int {
		for i++; i < len(lines) && blank(i); i++ {
		}
		return i
	}
	var out []Chapter
	inGroup := false // a group heading opened the chapter; its chapter heading joins it
	for i := 0; i < len(lines); i++ {
		l, start := lines[i].text, lines[i].start
		if !blank(i-1) || blank(i) {
			continue
		}
		switch {
		case h.group.MatchString(l):
			out = append(out, Chapter{Start: lines[i].start, Heading: strings.TrimSpace(l)})
			inGroup = true
			continue
		case h.chapter.MatchString(l):
		case h.word.MatchString(l) && nextText(i) < len(lines) && h.bare.MatchString(lines[nextText(i)].text):
			i = nextText(i)
			l = strings.TrimSpace(l) + " " + strings.TrimSpace(lines[i].text)
		case h.bare.MatchString(l) && blank(i+1):
		default:
			inGroup = false
			continue
		}
		if inGroup {
			out[len(out)-1].Heading += " / " + strings.TrimSpace(l)
		} else {
			out = append(out, Chapter{Start: start, Heading: strings.TrimSpace(l)})
		}
		inGroup = false
	}
	if len(out) == 0 {
		return []Chapter{{Start: 0, End: len(text)}}
	}
	if out[0].Start > 0 {
		if strings.TrimSpace(text[:out[0].Start]) != "" {
			out = append([]Chapter{{Start: 0}}, out...)
		} else {
			out[0].Start = 0
		}
	}
	for i := range out {
		if i+1 < len(out) {
			out[i].End = out[i+1].Start
		} else {
			out[i].End = len(text)
		}
	}
	return out
}
