package export

import (
	"fmt"
	"io"
	"time"

	"github.com/quire-ink/quire/codex/count"
)

// Format is the kind of file a build writes.
type Format string

// The formats quire writes.
const (
	DOCX     Format = "docx"
	EPUB     Format = "epub"
	Markdown Format = "md"
	HTML     Format = "html"
)

// Formats are every format, in the order the editors offer them (a new
// slice each time: no caller can change another's).
func Formats() []Format { return []Format{DOCX, EPUB, Markdown, HTML} }

// Preset is how the book looks.
type Preset string

const (
	// Manuscript is the standard manuscript format agents and editors
	// ask for: 12 pt Times New Roman, double spaced, one-inch margins,
	// the writer's contact block and word count on page one, a running
	// header "Surname / Title / page", each chapter on a new page, a
	// centred # between scenes and END at the end.
	Manuscript Preset = "manuscript"
	// Reader is book-like: serif, single spaced, no header block, the
	// first paragraph of a chapter or scene set flush.
	Reader Preset = "reader"
)

// Presets are every preset.
func Presets() []Preset { return []Preset{Manuscript, Reader} }

// ParseFormat reads a format's name as the command line gives it.
func ParseFormat(s string) (Format, error) {
	for _, f := range Formats() {
		if string(f) == s {
			return f, nil
		}
	}
	if s == "markdown" {
		return Markdown, nil
	}
	return "", fmt.Errorf("unknown format %q: quire builds docx, epub, md or html", s)
}

// ParsePreset reads a preset's name; empty is the format's own default.
func ParsePreset(s string, f Format) (Preset, error) {
	switch s {
	case "":
		return DefaultPreset(f), nil
	case string(Manuscript), string(Reader):
		return Preset(s), nil
	}
	return "", fmt.Errorf("unknown preset %q: quire knows manuscript and reader", s)
}

// DefaultPreset is the manuscript for a DOCX (what an agent asks for),
// the reader's book for the other formats.
func DefaultPreset(f Format) Preset {
	if f == DOCX {
		return Manuscript
	}
	return Reader
}

// Options say what to write.
type Options struct {
	Format Format
	Preset Preset
	// Settings are the book's build settings (ReadSettings).
	Settings Settings
	// Modified is the EPUB's modification date; zero is 2000-01-01, so
	// that a build never depends on the clock.
	Modified time.Time
}

// Write writes b in o's format to w.
func Write(w io.Writer, b *Book, o Options) error {
	if b.Title == "" {
		b.Title = o.Settings.Title
	}
	if b.Author == "" {
		b.Author = o.Settings.Author
	}
	if b.Language == "" {
		b.Language = o.Settings.Language
	}
	switch o.Format {
	case DOCX:
		return writeDOCX(w, b, o)
	case EPUB:
		return writeEPUB(w, b, o)
	case Markdown:
		return writeMarkdown(w, b, o)
	case HTML:
		return writeHTML(w, b, o)
	}
	return fmt.Errorf("unknown format %q", o.Format)
}

// Ext is the file name extension of a format, with its dot.
func (f Format) Ext() string { return "." + string(f) }

// sceneMark is what a scene break shows.
func (p Preset) sceneMark() string {
	if p == Manuscript {
		return "#"
	}
	return "* * *"
}

// RoundedWords is the word count as a manuscript gives it: to the
// nearest hundred, never below a hundred, with thousands separated
// ("about 3,400 words").
func RoundedWords(n int) string {
	r := max((n+50)/100*100, 100)
	return "about " + count.Number(r) + " words"
}
