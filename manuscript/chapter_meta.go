package manuscript

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/clip"
)

// Problem codes of chapter front matter.
const (
	CodeChapterField = "chapter-field"
)

// maxDay bounds a story day: no calendar a writer keeps runs to a billion
// days, and the bound keeps day arithmetic far from overflow.
const maxDay = 1_000_000_000

// ChapterMeta is what a chapter's front matter says about story time:
// every key is optional. Ranges locate each value in the file, for
// diagnostics and for go to definition from a pov or location.
type ChapterMeta struct {
	// POV names the point-of-view character, as a codex name or alias.
	POV      string      `json:"pov,omitempty"`
	POVRange codex.Range `json:"povRange"`
	// Day is the story day on the writer's own calendar; HasDay says
	// whether the chapter gives one that reads as a whole number.
	Day      int         `json:"day,omitempty"`
	HasDay   bool        `json:"hasDay,omitempty"`
	DayRange codex.Range `json:"dayRange"`
	// Location is where the chapter mainly happens, as a codex name or
	// alias.
	Location      string      `json:"location,omitempty"`
	LocationRange codex.Range `json:"locationRange"`
	// Flashback marks a chapter told earlier in story time than its
	// place in the book.
	Flashback      bool        `json:"flashback,omitempty"`
	FlashbackRange codex.Range `json:"flashbackRange"`
	// Target is the chapter's own word target (target: 4000), 0 when it
	// sets none; docs/goals.md.
	Target      int         `json:"target,omitempty"`
	TargetRange codex.Range `json:"targetRange"`
	// Problems are values that could not be read (day: soon), located in
	// the file; the field is then left unset.
	Problems []codex.Problem `json:"problems,omitempty"`
}

// chapterFrontMatter is the front matter block of a chapter read once
// as a YAML tree: the title and the story-time keys come from it.
type chapterFrontMatter struct {
	text string
	// start is the byte offset of the YAML (after the opening fence).
	start int
	root  *yaml.Node
}

// readChapterFrontMatter parses the block fm of text; a block that is
// not a mapping of keys gives a nil root.
func readChapterFrontMatter(text string, fm codex.Range) chapterFrontMatter {
	out := chapterFrontMatter{text: text}
	if fm.Len() == 0 {
		return out
	}
	block := text[fm.Start:fm.End]
	out.start = fm.Start
	// Drop the fences; the YAML is what lies between them. An unclosed
	// block has no closing fence, and its last line is YAML too.
	if i := strings.IndexByte(block, '\n'); i >= 0 {
		block = block[i+1:]
		out.start += i + 1
	}
	block = strings.TrimRight(block, "\r\n")
	if i := strings.LastIndexByte(block, '\n'); i >= 0 && isFenceLine(block[i+1:]) {
		block = block[:i]
	} else if i < 0 && isFenceLine(block) {
		block = ""
	}
	// Read the block as a tree and look at the top-level keys: decoding
	// into a struct makes the YAML library compare every key with every
	// other to find duplicates, and a block of thousands of repeated keys
	// then costs gigabytes.
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(block), &doc); err != nil || len(doc.Content) == 0 {
		return out
	}
	if m := doc.Content[0]; m.Kind == yaml.MappingNode {
		out.root = m
	}
	return out
}

// value is the first value of key (the first one wins, as for a codex
// entry), aliases followed.
func (f chapterFrontMatter) value(key string) *yaml.Node {
	if f.root == nil {
		return nil
	}
	for i := 0; i+1 < len(f.root.Content); i += 2 {
		k, v := f.root.Content[i], f.root.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.Value != key {
			continue
		}
		return codex.FollowAlias(v)
	}
	return nil
}

// title is the `title:` that reads as text: any scalar does, so
// "title: 1984" is a title, not a number.
func (f chapterFrontMatter) title() string {
	v := f.value("title")
	if v == nil || v.Kind != yaml.ScalarNode || v.ShortTag() == "!!null" {
		return ""
	}
	return strings.TrimSpace(v.Value)
}

// nodeRange locates a value in the file: from its line and column (YAML
// counts columns in characters) to the end of a plain one-line value, or
// of its line.
func (f chapterFrontMatter) nodeRange(n *yaml.Node) codex.Range {
	off := f.start
	for line := 1; line < n.Line && off < len(f.text); line++ {
		i := strings.IndexByte(f.text[off:], '\n')
		if i < 0 {
			off = len(f.text)
			break
		}
		off += i + 1
	}
	lineEnd := len(f.text)
	if i := strings.IndexByte(f.text[off:], '\n'); i >= 0 {
		lineEnd = off + i
	}
	for col := 1; col < n.Column && off < lineEnd; col++ {
		_, size := utf8.DecodeRuneInString(f.text[off:lineEnd])
		off += size
	}
	end := strings.TrimRight(f.text[:lineEnd], " \t\r")
	e := len(end)
	if n.Kind == yaml.ScalarNode && n.Style == 0 && !strings.Contains(n.Value, "\n") {
		e = min(e, off+len(n.Value))
	}
	return codex.Range{Start: off, End: max(off, e)}
}

// meta reads the story-time keys. path names the file in problems.
func (f chapterFrontMatter) meta(path string) ChapterMeta {
	var m ChapterMeta
	problem := func(n *yaml.Node, format string, args ...any) {
		m.Problems = append(m.Problems, codex.Problem{Path: path, Code: CodeChapterField,
			Severity: codex.SeverityWarning, Message: fmt.Sprintf(format, args...), Range: f.nodeRange(n)})
	}
	name := func(key, what string) (string, codex.Range) {
		v := f.value(key)
		if v == nil {
			return "", codex.Range{}
		}
		if v.Kind != yaml.ScalarNode {
			problem(v, "`%s` names one %s, as a codex name or alias; a list or mapping is not read", key, what)
			return "", codex.Range{}
		}
		if v.ShortTag() == "!!null" {
			return "", codex.Range{}
		}
		return strings.Join(strings.Fields(v.Value), " "), f.nodeRange(v)
	}
	m.POV, m.POVRange = name("pov", "character")
	m.Location, m.LocationRange = name("location", "place")

	if v := f.value("day"); v != nil && !(v.Kind == yaml.ScalarNode && v.ShortTag() == "!!null") {
		day, ok := readDay(v)
		if ok {
			m.Day, m.HasDay, m.DayRange = day, true, f.nodeRange(v)
		} else {
			problem(v, "`day` must be a whole number, the story day on your own calendar (day: 14), not %s; the chapter is left out of timeline checks until it is", quoteValue(v))
		}
	}
	if v := f.value("flashback"); v != nil && !(v.Kind == yaml.ScalarNode && v.ShortTag() == "!!null") {
		b, ok := readFlag(v)
		if ok {
			m.Flashback, m.FlashbackRange = b, f.nodeRange(v)
		} else {
			problem(v, "`flashback` must be true or false, not %s; the chapter is read as in story order", quoteValue(v))
		}
	}
	if v := f.value("target"); v != nil && !(v.Kind == yaml.ScalarNode && v.ShortTag() == "!!null") {
		n, ok := readDay(v)
		if ok && n > 0 && n <= maxTargetWords {
			m.Target, m.TargetRange = n, f.nodeRange(v)
		} else {
			problem(v, "`target` must be a whole number of words above 0, such as target: 4000, not %s; the chapter has no target until it is", quoteValue(v))
		}
	}
	return m
}

// maxTargetWords bounds a word target: no book runs to ten million
// words, and the bound keeps sums of targets far from overflow.
const maxTargetWords = 10_000_000

// readDay reads a whole number, written plain or quoted.
func readDay(v *yaml.Node) (int, bool) {
	if v.Kind != yaml.ScalarNode {
		return 0, false
	}
	s := strings.TrimSpace(v.Value)
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		// "14.0" is fourteen; "14.5" is no day.
		fl, ferr := strconv.ParseFloat(s, 64)
		if ferr != nil || fl != math.Trunc(fl) || math.IsInf(fl, 0) {
			return 0, false
		}
		n = int64(fl)
	}
	if n > maxDay || n < -maxDay {
		return 0, false
	}
	return int(n), true
}

// readFlag reads true or false, and the yes and no writers also type.
func readFlag(v *yaml.Node) (bool, bool) {
	if v.Kind != yaml.ScalarNode {
		return false, false
	}
	switch strings.ToLower(strings.TrimSpace(v.Value)) {
	case "true", "yes", "on":
		return true, true
	case "false", "no", "off":
		return false, true
	}
	return false, false
}

// quoteValue shows a value in a message: a scalar quoted and cut short,
// a list or mapping by kind.
func quoteValue(v *yaml.Node) string {
	switch v.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "a mapping"
	}
	s := strings.Join(strings.Fields(v.Value), " ")
	return strconv.Quote(clip.BytesMarked(s, 40))
}
