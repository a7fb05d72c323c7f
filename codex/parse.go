package codex

import (
	"bytes"
	"fmt"
	"github.com/quire-ink/quire/codex/clip"
	"path"
	"strings"
	"unicode"
	"unicode/utf8"
)

const (
	// MaxEntryBytes is the largest file parsed as an entry. Canon entries
	// are notes, not novels; anything larger is reported and skipped.
	MaxEntryBytes = 4 << 20
	// maxSummary bounds a summary taken from the first paragraph.
	maxSummary = 400
	// binarySniff is how far into a file a NUL byte marks it as binary,
	// the same rule git uses.
	binarySniff = 8000
)

// Parse reads src as the file at the project-relative path id. folderType
// is the type the file's folder implies, or "" when it sits in no type
// folder. It returns a nil entry when the file is not a codex entry, and
// problems either way: an entry with problems is still usable; problems
// with no entry mean the file was skipped.
func Parse(id string, src []byte, folderType Type) (*Entry, []Problem) {
	return parseInto(id, src, folderType, nil)
}

// parseInto is Parse with the entry's text kept in arena while it has
// room (sourceArena.keep).
func parseInto(id string, src []byte, folderType Type, arena *sourceArena) (*Entry, []Problem) {
	if folderType == "" && !bytes.HasPrefix(bytes.TrimPrefix(src, []byte("\xEF\xBB\xBF")), []byte("---")) {
		return nil, nil // no front matter, no type folder: prose, not canon
	}
	if p, skip := unusable(id, src); skip {
		if folderType == "" {
			return nil, nil
		}
		return nil, []Problem{p}
	}

	var problems []Problem
	if p, ok := EncodingProblem(id, src); ok {
		problems = append(problems, p)
	}
	if p, ok := FileNameProblem(id); ok {
		problems = append(problems, p)
	}
	// A file saved with classic Mac line ends (a lone CR) is read with
	// them as line breaks, as editors show it, not as one long line
	// whose front matter is never closed.
	src = LoneCRToLF(src)
	source := arena.keep(src)

	fm := splitFrontMatter(src)
	var h header
	if fm.Present {
		if !fm.Closed {
			problems = append(problems, Problem{Path: id, Code: CodeUnclosed, Severity: SeverityError,
				Message: "front matter is opened with `---` but never closed; add a `---` line after the last key",
				Range:   fm.Open})
		}
		// The front matter's values are pieces of the text they are read
		// from. An entry whose text an arena keeps reads them from a copy
		// of its front matter in the heap: a start reads every entry's
		// names and fields, and from the arena that brought it back into
		// the process whole (source_arena.go; a cold start at 10,000
		// entries peaked 2-5 MB higher).
		header := source
		if arena != nil && fm.YAML.End <= len(src) {
			header = string(src[:fm.YAML.End])
		}
		var hp []Problem
		h, hp = decodeHeader(id, src, header, fm.YAML)
		problems = append(problems, hp...)
	}

	if len(h.Type) > MaxTypeBytes {
		problems = append(problems, Problem{Path: id, Code: CodeUnknownType, Severity: SeverityWarning,
			Message: fmt.Sprintf("the type is %d characters long, too long for a type (at most %d bytes); the folder's type is used", utf8.RuneCountInString(h.Type), MaxTypeBytes),
			Range:   h.typeRange})
		h.Type = ""
	}
	typ := ParseType(h.Type)
	if manuscriptTypes[string(typ)] {
		return nil, nil
	}
	if typ == "" {
		typ = folderType
	}
	if typ == "" {
		return nil, nil
	}
	if h.Type != "" && !typ.Builtin() {
		if guess, ok := suggestType(string(typ)); ok {
			problems = append(problems, Problem{Path: id, Code: CodeUnknownType, Severity: SeverityWarning,
				Message: fmt.Sprintf("unknown type %q; did you mean %q?", h.Type, guess), Range: h.typeRange})
		}
	}

	o := outlineOf(src, fm.Body, h.Summary == "")
	e := &Entry{
		ID:          id,
		Type:        typ,
		Stem:        stemOf(id),
		Aliases:     h.Aliases,
		AliasRanges: h.aliasRanges,
		Tags:        h.Tags,
		Locked:      h.Locked,
		Custom:      h.Custom,
		Exclude:     h.Exclude,
		Mentions:    h.Mentions == nil || *h.Mentions,
		Source:      source,
		Body:        fm.Body,
		Sections:    o.Sections,
	}
	e.Title = firstNonEmpty(h.Title, o.FirstHeading, humanize(e.Stem))
	e.Name = firstNonEmpty(h.Name, h.Title, o.FirstHeading, humanize(e.Stem))
	if h.Name != "" {
		e.NameRange = h.nameRange
	}
	e.Summary = firstNonEmpty(h.Summary, clip.Words(linkText(o.FirstParagraph), maxSummary))
	e.Links = scanLinks(src, fm.Body, o.Code)
	e.lifeStatus = statusOfLife(e)

	switch strings.ToLower(h.Status) {
	case "", "confirmed":
		e.Status = StatusConfirmed
	case "alive", "dead", "deceased":
		// A status of life (story time, issue 16) says nothing of how
		// settled the canon is; StoryOf reads it.
		e.Status = StatusConfirmed
	case "tentative":
		e.Status = StatusTentative
	default:
		e.Status = StatusConfirmed
		problems = append(problems, Problem{Path: id, Code: CodeStatus, Severity: SeverityWarning,
			Message: fmt.Sprintf("status %q is not confirmed or tentative; treated as confirmed", h.Status),
			Range:   h.statusRange})
	}

	for i, field := range h.Locked {
		if !h.keys[strings.ToLower(field)] {
			problems = append(problems, Problem{Path: id, Code: CodeLockedField, Severity: SeverityWarning,
				Message: fmt.Sprintf("locked field %q is not set in this entry's front matter", field),
				Range:   h.lockedRanges[i]})
		}
	}

	if len(bytes.TrimSpace(bytes.TrimPrefix(src, []byte("\xEF\xBB\xBF")))) == 0 {
		problems = append(problems, Problem{Path: id, Code: CodeEmpty, Severity: SeverityWarning,
			Message: "empty entry: add front matter (name, aliases, summary) and a description"})
	}
	problems = CapProblems(problems)
	e.Problems = problems
	return e, problems
}

// ParseSoul reads the soul.md companion of a folder-shaped character.
// Front matter, if any, is skipped; the rest is the character's inner life.
func ParseSoul(id string, src []byte) *Soul {
	s := &Soul{ID: id}
	if p, skip := unusable(id, src); skip {
		s.Problems = []Problem{p}
		return s
	}
	fm := splitFrontMatter(src)
	o := outlineOf(src, fm.Body, false)
	s.Source = string(src)
	s.Body = fm.Body
	s.Sections = o.Sections
	s.Links = scanLinks(src, fm.Body, o.Code)
	return s
}

// unusable reports files that cannot be read as Markdown at all.
func unusable(id string, src []byte) (Problem, bool) {
	switch {
	case len(src) > MaxEntryBytes:
		return tooLarge(id, int64(len(src))), true
	case bytes.IndexByte(src[:min(len(src), binarySniff)], 0) >= 0:
		return Problem{Path: id, Code: CodeBinary, Severity: SeverityError,
			Message: "file looks binary (it contains NUL bytes), not Markdown; skipped. If it is text saved as UTF-16 without a byte-order mark, save it again as UTF-8"}, true
	}
	return Problem{}, false
}

func tooLarge(id string, size int64) Problem {
	return Problem{Path: id, Code: CodeTooLarge, Severity: SeverityError,
		Message: fmt.Sprintf("file is %s, over the %s limit for a codex entry; skipped", byteSize(size), byteSize(MaxEntryBytes))}
}

func byteSize(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// EncodingProblem is the warning for a file that is not valid UTF-8, at
// its first bad byte, when it is not.
func EncodingProblem(id string, src []byte) (Problem, bool) {
	bad := firstInvalidUTF8(src)
	if bad < 0 {
		return Problem{}, false
	}
	return Problem{Path: id, Code: CodeEncoding, Severity: SeverityWarning,
		Message: fmt.Sprintf("file is not valid UTF-8 (first bad byte at offset %d); unreadable bytes show as \uFFFD. Save it again as UTF-8", bad),
		Range:   Range{bad, bad + 1}}, true
}

func firstInvalidUTF8(src []byte) int {
	if utf8.Valid(src) {
		return -1
	}
	for i := 0; i < len(src); {
		r, size := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return -1
}

// stemOf is the file name without extension, or the folder name for a
// folder-shaped entry's index.md.
func stemOf(id string) string {
	dir, file := path.Split(id)
	stem := strings.TrimSuffix(file, path.Ext(file))
	if strings.EqualFold(stem, "index") && dir != "" {
		return path.Base(strings.TrimSuffix(dir, "/"))
	}
	return stem
}

// humanize turns a file stem into a display name: "mara-vell" → "Mara Vell".
func humanize(stem string) string {
	stem = strings.ToValidUTF8(stem, "\uFFFD")
	words := strings.FieldsFunc(stem, func(r rune) bool { return r == '-' || r == '_' || r == ' ' || r == '.' })
	for i, w := range words {
		r, size := utf8.DecodeRuneInString(w)
		words[i] = string(unicode.ToUpper(r)) + w[size:]
	}
	return strings.Join(words, " ")
}

// linkText replaces [[Target|label]] with its label and [[Target]] with
// its target, for summaries read as prose.
func linkText(s string) string {
	if !strings.Contains(s, "[[") {
		return s
	}
	links := scanLinks([]byte(s), Range{0, len(s)}, nil)
	var b strings.Builder
	prev := 0
	for _, l := range links {
		b.WriteString(s[prev:l.Range.Start])
		b.WriteString(firstNonEmpty(l.Label, l.LinkName()))
		prev = l.Range.End
	}
	b.WriteString(s[prev:])
	return b.String()
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// suggestType finds the built-in type a misspelt one was meant to be.
func suggestType(s string) (Type, bool) {
	for _, t := range Types {
		if editDistanceAtMost(s, string(t), 2) || editDistanceAtMost(s, t.Plural(), 2) {
			return t, true
		}
	}
	return "", false
}
