package export

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Dashes is how the hyphens a writer types become dashes in a build
// (build: dashes).
type Dashes string

const (
	// DashesEm is the typewriter's convention, which standard manuscript
	// format keeps: -- and --- are both an em dash, set as typed
	// ("ways--with" is "ways—with"). The default.
	DashesEm Dashes = "em"
	// DashesPandoc is pandoc's and LaTeX's: -- an en dash, --- an em
	// dash.
	DashesPandoc Dashes = "pandoc"
	// DashesSpaced is the spaced en dash of much British publishing:
	// -- is " – " with a space on each side that touches a word, ---
	// an em dash.
	DashesSpaced Dashes = "spaced"
)

// AllDashes are the conventions, the default first.
func AllDashes() []Dashes { return []Dashes{DashesEm, DashesPandoc, DashesSpaced} }

// ParseDashes reads a convention's name; empty is the default.
func ParseDashes(s string) (Dashes, error) {
	if s == "" {
		return DashesEm, nil
	}
	for _, d := range AllDashes() {
		if strings.EqualFold(s, string(d)) {
			return d, nil
		}
	}
	return "", fmt.Errorf("%q is none of em (-- and --- are em dashes, the default), pandoc (-- en dash, --- em dash) and spaced (-- a spaced en dash)", s)
}

// The dashes themselves.
const (
	enDash = "–"
	emDash = "—"
)

// dashOf is what a run of two (n == 2) or three hyphens becomes between
// the runes before and after it (0 at a paragraph's edge). Two hyphens
// between digits are a range ("10--12", "1914--1918") and an en dash,
// closed up, in every convention; three are an em dash in every one.
func (d Dashes) dashOf(n int, before, after rune) string {
	if n >= 3 {
		return emDash
	}
	if unicode.IsDigit(before) && unicode.IsDigit(after) {
		return enDash
	}
	switch d {
	case DashesPandoc:
		return enDash
	case DashesSpaced:
		s := enDash
		if before != 0 && !unicode.IsSpace(before) && !strings.ContainsRune(opening, before) {
			s = " " + s
		}
		if after != 0 && !unicode.IsSpace(after) && !strings.ContainsRune(closing, after) {
			s += " "
		}
		return s
	}
	return emDash
}

// opening and closing are the marks a spaced dash sits against with no
// space between: “– and –”, (– and –).
const (
	opening = "“‘\"'([{«„"
	closing = "”’\"')]}».,;:!?…"
)

// resolveDashes makes the hyphen runs of runs (Run.dash) dashes by
// convention d, looking at the text on either side across runs; a line
// break is an edge.
func resolveDashes(runs []Run, d Dashes) {
	for i := range runs {
		if runs[i].dash == 0 {
			continue
		}
		runs[i].Text = d.dashOf(int(runs[i].dash), runeBefore(runs, i), runeAfter(runs, i))
		runs[i].dash = 0
	}
}

// runeBefore is the last rune of the text before runs[i], 0 at the
// start or after a line break.
func runeBefore(runs []Run, i int) rune {
	for j := i - 1; j >= 0; j-- {
		if runs[j].Break {
			return 0
		}
		if runs[j].Text != "" {
			r, _ := utf8.DecodeLastRuneInString(runs[j].Text)
			return r
		}
	}
	return 0
}

// runeAfter is the first rune of the text after runs[i], 0 at the end
// or at a line break.
func runeAfter(runs []Run, i int) rune {
	if runs[i].Break {
		return 0
	}
	for j := i + 1; j < len(runs); j++ {
		if runs[j].Text != "" {
			r, _ := utf8.DecodeRuneInString(runs[j].Text)
			return r
		}
		if runs[j].Break {
			return 0
		}
	}
	return 0
}

// titleDashes makes the -- and --- of a chapter's title dashes by
// convention d. A title is plain text (its quotes and asterisks stay as
// typed), so only runs of hyphens change; a lone hyphen stays, and a
// longer run is read as --- and what follows.
func titleDashes(title string, d Dashes) string {
	if !strings.Contains(title, "--") {
		return title
	}
	var sb strings.Builder
	for i := 0; i < len(title); {
		if !strings.HasPrefix(title[i:], "--") {
			r, size := utf8.DecodeRuneInString(title[i:])
			sb.WriteRune(r)
			i += size
			continue
		}
		n := 2
		if strings.HasPrefix(title[i:], "---") {
			n = 3
		}
		before, _ := utf8.DecodeLastRuneInString(sb.String())
		if sb.Len() == 0 {
			before = 0
		}
		var after rune
		if i+n < len(title) {
			after, _ = utf8.DecodeRuneInString(title[i+n:])
		}
		sb.WriteString(d.dashOf(n, before, after))
		i += n
	}
	return strings.Join(strings.Fields(sb.String()), " ")
}
