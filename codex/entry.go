// Package codex parses, indexes and resolves a book's canon: the Markdown
// entries for characters, places, organizations, items, concepts, events and
// style rules. It knows nothing of LSP or LLMs; every position is a byte
// offset into the entry's source file.
package codex

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Range is a half-open byte range [Start, End) into a file's contents.
type Range struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// Len is the number of bytes the range covers.
func (r Range) Len() int { return r.End - r.Start }

// Contains reports whether the byte offset off lies inside the range.
func (r Range) Contains(off int) bool { return off >= r.Start && off < r.End }

// Status says whether an entry is settled canon or still an idea.
type Status string

const (
	StatusConfirmed Status = "confirmed"
	StatusTentative Status = "tentative"
)

// Entry is one parsed codex entry. Entries are immutable once built: the
// catalog and every snapshot share them.
type Entry struct {
	// ID is the project-relative, slash-separated path of the entry's file
	// (for a folder-shaped entry, its index.md).
	ID      string   `json:"id"`
	Type    Type     `json:"type"`
	Name    string   `json:"name"`
	Title   string   `json:"title"`
	Aliases []string `json:"aliases,omitempty"`
	Summary string   `json:"summary,omitempty"`
	Tags    []string `json:"tags,omitempty"`
	Status  Status   `json:"status"`
	Locked  []string `json:"locked,omitempty"`
	Custom  Fields   `json:"custom,omitempty"`
	// Stem is the filename without extension, or the folder name for a
	// folder-shaped entry; lookup scores it between title and alias.
	Stem string `json:"stem"`
	// Mentions is false when the writer turned off mention detection for
	// this entry (front matter `mentions: false`).
	Mentions bool `json:"mentions"`
	// Exclude lists phrases that must not count as mentions of this entry.
	Exclude []string `json:"exclude,omitempty"`

	Source   string    `json:"-"`
	Body     Range     `json:"body"`
	Sections []Section `json:"sections,omitempty"`
	Links    []Link    `json:"links,omitempty"`
	Soul     *Soul     `json:"soul,omitempty"`
	// NameRange locates the `name:` value in the front matter (empty when
	// the name comes from a heading or the file name); AliasRanges the
	// aliases, in order. Duplicate-name problems and renames point there.
	NameRange   Range     `json:"nameRange"`
	AliasRanges []Range   `json:"aliasRanges,omitempty"`
	Problems    []Problem `json:"problems,omitempty"`
	// lifeStatus says the front matter may give a status of life
	// (statusOfLife), read once when the entry is parsed: StoryOf reads
	// the YAML only then, and a book's opening reads no entry's source.
	lifeStatus bool
}

// BodyText is the Markdown after the front matter.
func (e *Entry) BodyText() string { return e.Source[e.Body.Start:e.Body.End] }

// Section finds a section by heading, case- and diacritic-insensitively.
func (e *Entry) Section(heading string) (Section, bool) {
	want := Normalize(heading)
	for _, s := range e.Sections {
		if Normalize(s.Heading) == want {
			return s, true
		}
	}
	return Section{}, false
}

// Section is a heading and the bytes it governs: from the heading line to
// the next heading of the same or a higher level.
type Section struct {
	Heading string `json:"heading"`
	Level   int    `json:"level"`
	// HeadingRange covers the heading line without its line break.
	HeadingRange Range `json:"headingRange"`
	// Range covers the heading line and its content.
	Range Range `json:"range"`
}

// Link is a wiki-style [[Target]] or [[Target|label]] reference.
type Link struct {
	Target string `json:"target"`
	Label  string `json:"label,omitempty"`
	// Range covers the whole link including brackets; TargetRange only the
	// target text.
	Range       Range `json:"range"`
	TargetRange Range `json:"targetRange"`
}

// Soul is the inner-life companion (soul.md) of a folder-shaped character.
type Soul struct {
	ID       string    `json:"id"`
	Source   string    `json:"-"`
	Body     Range     `json:"body"`
	Sections []Section `json:"sections,omitempty"`
	Links    []Link    `json:"links,omitempty"`
	Problems []Problem `json:"problems,omitempty"`
}

// Field is one custom front matter key and its decoded YAML value.
type Field struct {
	Key   string
	Value any
}

// Fields keeps custom fields in the order the writer wrote them.
type Fields []Field

// Get returns the value of key, matched case-insensitively.
func (f Fields) Get(key string) (any, bool) {
	for _, fld := range f {
		if strings.EqualFold(fld.Key, key) {
			return fld.Value, true
		}
	}
	return nil, false
}

// MarshalJSON writes the fields as one object, in order.
func (f Fields) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, fld := range f {
		if i > 0 {
			buf.WriteByte(',')
		}
		k, err := json.Marshal(fld.Key)
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(fld.Value)
		if err != nil {
			return nil, err
		}
		buf.Write(k)
		buf.WriteByte(':')
		buf.Write(v)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}
