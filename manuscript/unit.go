package manuscript

import (
	"crypto/sha256"
	"path"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/quire-ink/quire/codex"
)

// Unit is one manuscript file: a chapter, or any Markdown document the
// writer has open. Units are immutable once built.
type Unit struct {
	// Path is project-relative and slash-separated.
	Path string `json:"path"`
	// Number is the leading number of the file name ("07-storm.md" → 7),
	// 0 when the name has none.
	Number int `json:"number,omitempty"`
	// Position is the unit's place in reading order, from 1; 0 for a
	// document outside the manuscript.
	Position int `json:"position,omitempty"`
	// Title is the front matter title, else the first level-1 heading,
	// else the file name made readable.
	Title string `json:"title"`
	// Words counts the prose after any front matter.
	Words int `json:"words"`
	// Meta is what the front matter says about story time: pov, day,
	// location, flashback, and the values that could not be read.
	Meta ChapterMeta `json:"meta,omitzero"`
	// Headings are the scenes and parts of the unit, in order.
	Headings []codex.Section `json:"headings,omitempty"`
	// Body is the text after any front matter.
	Body codex.Range `json:"body"`
	// Code covers code spans and blocks: Markdown, not prose.
	Code []codex.Range `json:"-"`
	// Version is the editor's version of an open document; 0 when read
	// from disk.
	Version int32 `json:"version,omitempty"`

	// Text is the whole file. It is prose: it never goes to logs.
	Text string `json:"-"`

	// sum is the SHA-256 of the file as read from disk, the chapter
	// cache's key; zero for text from the editor.
	sum [sha256.Size]byte
	// stamp is the file's size and time as stat saw them before the
	// read; CatchUp compares it with the disk. Zero for the editor's text.
	stamp codex.FileStamp
	// unverified says sum is the chapter cache's, taken by the stamp at
	// the opening without hashing the bytes (Manuscript.Verify).
	unverified bool
	// scenes keeps the unit's last scene split (Scenes), made on first
	// use: most units are never split, and those that are, once. A copy
	// of the unit (renumbered in a new snapshot) shares it, as it shares
	// the text the split is of; nil in a unit made by hand.
	scenes *sceneSlot
}

// BodyText is the unit's text after any front matter.
func (u *Unit) BodyText() string { return u.Text[u.Body.Start:u.Body.End] }

// NewUnit reads text as the manuscript file at the project-relative path
// rel.
func NewUnit(rel, text string, version int32) *Unit {
	var problems []codex.Problem
	// The text is checked once: a warm start makes every chapter here.
	if !utf8.ValidString(text) {
		if p, ok := codex.EncodingProblem(rel, []byte(text)); ok {
			problems = append(problems, p)
		}
		text = strings.ToValidUTF8(text, "\uFFFD")
	}
	if p, ok := codex.FileNameProblem(rel); ok {
		problems = append(problems, p)
	}
	text = codex.LoneCRToLF(text)
	o := codex.OutlineOf([]byte(text))
	u := &Unit{
		Path:     rel,
		Number:   leadingNumber(path.Base(rel)),
		Headings: o.Sections,
		Body:     o.Body,
		Code:     o.Code,
		Version:  version,
		Text:     text,
		scenes:   &sceneSlot{},
	}
	u.Words = CountWords(u.BodyText())
	fm := readChapterFrontMatter(text, o.FrontMatter)
	u.Meta = fm.meta(rel)
	u.Meta.Problems = append(problems, u.Meta.Problems...)
	// A title is shown on one line: a folded YAML string or a file name
	// with a line break in it is made one.
	for _, title := range []string{fm.title(), o.FirstHeading, titleFromName(path.Base(rel))} {
		if u.Title = strings.Join(strings.Fields(title), " "); u.Title != "" {
			break
		}
	}
	return u
}

// readable is a chapter's text as quire reads it: invalid bytes made
// U+FFFD, and lone CRs (classic Mac line ends) made the LFs quire's
// readers look for, one byte for one, so that lines fall where the
// editor shows them.
func readable(text string) string { return codex.LoneCRToLF(validUTF8(text)) }

// validUTF8 is text with every invalid byte sequence replaced by U+FFFD.
// Checking first is several times faster on the valid text of almost
// every chapter than strings.ToValidUTF8, which walks it byte by byte.
func validUTF8(text string) string {
	if utf8.ValidString(text) {
		return text
	}
	return strings.ToValidUTF8(text, "\uFFFD")
}

func isFenceLine(line string) bool {
	line = strings.TrimSpace(line)
	return line == "---" || line == "..."
}

// ChapterLabel is the number quire gives a chapter wherever it shows
// one (stats, the outline, context, mentions, the map, the advisor's
// tools, story-time messages), and the reference that finds it again:
// the leading number of its file name, so that files 01–05 and 07 are
// chapters 1–5 and 7 everywhere; else "#" and its place in reading order.
func ChapterLabel(number, position int) string {
	if number > 0 {
		return strconv.Itoa(number)
	}
	return "#" + strconv.Itoa(position)
}

// Label is u's chapter number as ChapterLabel gives it.
func (u *Unit) Label() string { return ChapterLabel(u.Number, u.Position) }

// leadingNumber reads the digits a file name starts with.
func leadingNumber(name string) int {
	end := 0
	for end < len(name) && end < 9 && name[end] >= '0' && name[end] <= '9' {
		end++
	}
	n, err := strconv.Atoi(name[:end])
	if err != nil {
		return 0
	}
	return n
}

// titleFromName makes a file name readable: "07-the-storm.md" → "The Storm".
// ReadableName is a file or folder name as a title: its leading number
// and extension gone, dashes and underscores made spaces, each word
// capitalized ("02-act-two" → "Act Two").
func ReadableName(name string) string { return titleFromName(name) }

func titleFromName(name string) string {
	stem := strings.ToValidUTF8(strings.TrimSuffix(name, path.Ext(name)), "\uFFFD")
	trimmed := strings.TrimLeft(stem, "0123456789")
	trimmed = strings.TrimLeft(trimmed, "-_. ")
	if trimmed == "" {
		trimmed = stem
	}
	words := strings.FieldsFunc(trimmed, func(r rune) bool { return r == '-' || r == '_' || r == ' ' })
	for i, w := range words {
		r, size := utf8.DecodeRuneInString(w)
		words[i] = string(unicode.ToUpper(r)) + w[size:]
	}
	return strings.Join(words, " ")
}

// BodyRange is the part of u to read as prose: its body, or the whole
// text for a unit that was not built by NewUnit and has no body range,
// or whose range does not fit its text.
func (u *Unit) BodyRange() codex.Range {
	b := u.Body
	if b == (codex.Range{}) || b.Start < 0 || b.End > len(u.Text) || b.Start > b.End {
		return codex.Range{End: len(u.Text)}
	}
	return b
}
