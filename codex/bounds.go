package codex

import (
	"fmt"
	"github.com/quire-ink/quire/codex/clip"
	"unicode/utf8"
)

// Bounds on what one codex file can make quire do. A hostile or broken
// file (thousands of repeated keys, a hundred thousand aliases, one word
// of megabytes) must cost time and memory in proportion to its size, and
// must not bury the writer under warnings.
const (
	// MaxProblemsPerFile is how many problems of one file are listed; the
	// rest are counted in one summary problem.
	MaxProblemsPerFile = 50
	// MaxListItems bounds the aliases, tags, locked fields and exclusions
	// read from one entry: no real character has a thousand aliases.
	MaxListItems = 1000
	// MaxAliasBytes bounds one alias: longer text is not a name anyone
	// types in prose.
	MaxAliasBytes = 1000
	// MaxTypeBytes bounds a type name: types are single words such as
	// "character" or "spell".
	MaxTypeBytes = 64
	// maxClaimsNamed is how many other entries a duplicate-name problem
	// names; the rest are counted.
	maxClaimsNamed = 3
	// maxIndexedWord bounds one word sent to the search index. A longer
	// run of letters is cut: the index would otherwise hold it whole, at
	// a cost of more than a hundred times its length.
	maxIndexedWord = 256
	// MaxQueryChars bounds a search query. A search is a few words; the
	// index library builds a typo automaton as large as the query (a
	// 70 KB query took 590 MB), so a longer one is refused before it
	// reaches the library.
	MaxQueryChars = 500
	// MaxNameChars bounds a name looked up: no name or alias is longer
	// (MaxAliasBytes), so a longer one is refused, not searched for.
	MaxNameChars = MaxAliasBytes
	// MaxEchoChars bounds how much of a query or name an answer repeats
	// back: a plugin shows it, and it may be a pasted chapter.
	MaxEchoChars = 80
)

// NameTooLongError refuses a lookup of a name over MaxNameChars; like
// QueryTooLongError it says how long the name was, never what it said.
type NameTooLongError struct{ Chars int }

func (e *NameTooLongError) Error() string {
	return fmt.Sprintf("the name is %d characters long; no name or alias is longer than %d characters: look up a name, or search for a few words", e.Chars, MaxNameChars)
}

// CheckName refuses a name too long to be any entry's.
func CheckName(name string) error {
	if n := utf8.RuneCountInString(name); n > MaxNameChars {
		return &NameTooLongError{Chars: n}
	}
	return nil
}

// Echo is what an answer may repeat of a query or name the writer or a
// client sent: all of it when short, else its start and an ellipsis.
func Echo(s string) string { return clip.Runes(s, MaxEchoChars) }

// QueryTooLongError refuses a search query over MaxQueryChars. It says
// how long the query was, never what it said: an error may be shown or
// logged, and the query may be a pasted chapter.
type QueryTooLongError struct{ Chars int }

func (e *QueryTooLongError) Error() string {
	return fmt.Sprintf("the search is %d characters long; quire searches at most %d characters: search for a few words", e.Chars, MaxQueryChars)
}

// checkQuery refuses an empty or over-long query.
func checkQuery(q string) error {
	if n := utf8.RuneCountInString(q); n > MaxQueryChars {
		return &QueryTooLongError{Chars: n}
	}
	if Normalize(q) == "" {
		return ErrEmptyQuery
	}
	return nil
}

// CodeTooManyProblems marks the summary that stands for the problems of
// a file past MaxProblemsPerFile.
const CodeTooManyProblems = "too-many-problems"

// countUnlisted records one more problem that is not listed because the
// file already has its fill: the trailing summary counts it.
func countUnlisted(problems []Problem, path string, sev Severity, r Range) []Problem {
	if n := len(problems); n > 0 && problems[n-1].Code == CodeTooManyProblems {
		last := &problems[n-1]
		last.Unlisted++
		last.Severity = min(last.Severity, sev)
		return problems
	}
	return append(problems, Problem{Path: path, Code: CodeTooManyProblems, Severity: sev, Range: r, Unlisted: 1})
}

// CapProblems keeps the first MaxProblemsPerFile problems of each file,
// in the order given, and stands one summary for the rest of that file's
// right after its last kept one; summaries already in ps are merged in.
// ps must list each file's problems together (sorted by path, or all of
// one file), and stays so. When no file is over the limit, ps is
// returned as it is.
func CapProblems(ps []Problem) []Problem {
	type file struct {
		listed, unlisted, last int
		summaries              int
	}
	files := map[string]*file{}
	over := false
	for i, p := range ps {
		f := files[p.Path]
		if f == nil {
			f = &file{}
			files[p.Path] = f
		}
		f.last = i
		if p.Code == CodeTooManyProblems {
			f.unlisted += max(p.Unlisted, 1)
			f.summaries++
		} else {
			f.listed++
		}
		over = over || f.listed > MaxProblemsPerFile || f.summaries > 0
	}
	if !over {
		return ps
	}
	out := make([]Problem, 0, min(len(ps), len(files)*(MaxProblemsPerFile+1)))
	kept := map[string]int{}
	summary := map[string]*Problem{}
	for i, p := range ps {
		f := files[p.Path]
		s := summary[p.Path]
		switch {
		case p.Code == CodeTooManyProblems:
			if s == nil {
				s = &Problem{Path: p.Path, Code: CodeTooManyProblems, Severity: p.Severity, Range: p.Range}
				summary[p.Path] = s
			}
			s.Severity = min(s.Severity, p.Severity)
		case kept[p.Path] < MaxProblemsPerFile:
			kept[p.Path]++
			out = append(out, p)
		default:
			if s == nil {
				s = &Problem{Path: p.Path, Code: CodeTooManyProblems, Severity: p.Severity, Range: p.Range}
				summary[p.Path] = s
			}
			s.Severity = min(s.Severity, p.Severity)
		}
		if i == f.last && s != nil {
			s.Unlisted = f.unlisted + f.listed - kept[p.Path]
			s.Message = unlistedMessage(s.Unlisted)
			out = append(out, *s)
		}
	}
	return out
}

func unlistedMessage(n int) string {
	if n == 1 {
		return fmt.Sprintf("1 more problem in this file is not listed (quire lists the first %d of a file); fix the ones listed and it will show", MaxProblemsPerFile)
	}
	return fmt.Sprintf("%d more problems in this file are not listed (quire lists the first %d of a file); fix the ones listed and the rest will show", n, MaxProblemsPerFile)
}

// clipLongWords cuts every run of more than max bytes without a space
// down to max bytes (at a character boundary), for text sent to the
// search index. Text with no such run is returned as it is.
func clipLongWords(s string, max int) string {
	run, long := 0, false
	for i := 0; i < len(s) && !long; i++ {
		if isSpaceByte(s[i]) {
			run = 0
		} else if run++; run > max {
			long = true
		}
	}
	if !long {
		return s
	}
	out := make([]byte, 0, len(s)/2)
	start := 0
	for start < len(s) {
		end := start
		for end < len(s) && !isSpaceByte(s[end]) {
			end++
		}
		word := s[start:end]
		out = append(out, clip.Bytes(word, max)...)
		sp := end
		for sp < len(s) && isSpaceByte(s[sp]) {
			sp++
		}
		out = append(out, s[end:sp]...)
		start = sp
	}
	return string(out)
}

func isSpaceByte(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}
