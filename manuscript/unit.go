package manuscript

import (
	"path"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

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
}

// BodyText is the unit's text after any front matter.
func (u *Unit) BodyText() string { return u.Text[u.Body.Start:u.Body.End] }

// NewUnit reads text as the manuscript file at the project-relative path
// rel.
func NewUnit(rel, text string, version int32) *Unit {
	text = strings.ToValidUTF8(text, "\uFFFD")
	o := codex.OutlineOf([]byte(text))
	u := &Unit{
		Path:     rel,
		Number:   leadingNumber(path.Base(rel)),
		Headings: o.Sections,
		Body:     o.Body,
		Code:     o.Code,
		Version:  version,
		Text:     text,
	}
	u.Words = CountWords(u.BodyText())
	// A title is shown on one line: a folded YAML string or a file name
	// with a line break in it is made one.
	for _, title := range []string{frontMatterTitle(text, o.FrontMatter), o.FirstHeading, titleFromName(path.Base(rel))} {
		if u.Title = strings.Join(strings.Fields(title), " "); u.Title != "" {
			break
		}
	}
	return u
}

// frontMatterTitle is the `title:` of a chapter's front matter, if it
// has one that reads as a string.
func frontMatterTitle(text string, fm codex.Range) string {
	if fm.Len() == 0 {
		return ""
	}
	block := text[fm.Start:fm.End]
	// Drop the fences; the YAML is what lies between them. An unclosed
	// block has no closing fence, and its last line is YAML too.
	if i := strings.IndexByte(block, '\n'); i >= 0 {
		block = block[i+1:]
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
		return ""
	}
	m := doc.Content[0]
	if m.Kind != yaml.MappingNode {
		return ""
	}
	// The first `title:` wins, as it does for a codex entry.
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.Value != "title" {
			continue
		}
		for j := 0; v.Kind == yaml.AliasNode && v.Alias != nil && j < 16; j++ {
			v = v.Alias
		}
		// Any scalar reads as text: "title: 1984" is a title, not a number.
		if v.Kind != yaml.ScalarNode || v.ShortTag() == "!!null" {
			return ""
		}
		return strings.TrimSpace(v.Value)
	}
	return ""
}

func isFenceLine(line string) bool {
	line = strings.TrimSpace(line)
	return line == "---" || line == "..."
}

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
