package export

// Book is the manuscript as the writers draw it.
type Book struct {
	// Title, Author and Language are the book's metadata.
	Title, Author, Language string
	// Chapters are in reading order.
	Chapters []Chapter
	// Words counts the prose of every chapter (manuscript.CountWords
	// over the text a reader reads: no markup, comments or front matter).
	Words int
}

// Chapter is one manuscript file.
type Chapter struct {
	// Title comes from the manuscript's title rule (front matter title,
	// else the first level-1 heading, else the file name).
	Title string
	// Path is the chapter's project-relative path.
	Path   string
	Blocks []Block
	Words  int
}

// Kind says what a block is.
type Kind int

const (
	// Paragraph is a paragraph of prose.
	Paragraph Kind = iota
	// Quote is a paragraph inside a block quote.
	Quote
	// Item is a paragraph of a list item; Marker says its bullet or number.
	Item
	// SceneBreak separates two scenes: a ## scene heading or a *** line.
	SceneBreak
)

// Block is one paragraph-like piece of a chapter.
type Block struct {
	Kind Kind
	Runs []Run
	// Marker is an item's "•" or "3."; empty for the item's later
	// paragraphs.
	Marker string
	// Depth is how deep a quote or item is nested, from 1.
	Depth int
	// First marks the first paragraph of a chapter or scene, which a
	// book sets without an indent.
	First bool
}

// Run is text with one style. Text never holds a line break: Break
// marks a hard line break after the run.
type Run struct {
	Text         string
	Emph, Strong bool
	Break        bool
	// dash is the count of hyphens (2 or 3) of a run the reader left
	// for the dash convention (resolveDashes); 0 once resolved.
	dash int8
}

// Text is the block's text without styles, for counting and tests.
func (b Block) Text() string {
	n := 0
	for _, r := range b.Runs {
		n += len(r.Text) + 1
	}
	out := make([]byte, 0, n)
	for _, r := range b.Runs {
		out = append(out, r.Text...)
		if r.Break {
			out = append(out, '\n')
		}
	}
	return string(out)
}
