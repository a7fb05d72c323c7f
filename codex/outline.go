package codex

// Outline is the structure of any Markdown file, entry or not: the
// manuscript reads chapters with the same parser the codex uses, so a
// heading is a heading in both.
type Outline struct {
	// FrontMatter covers the YAML block and its fences; empty when the file
	// has none.
	FrontMatter Range
	// Body is what follows the front matter.
	Body Range
	// Sections are the headings in order, each with the bytes it governs.
	Sections []Section
	// FirstHeading is the text of the first level-1 heading.
	FirstHeading string
	// Code covers code spans and blocks.
	Code []Range
}

// OutlineOf reads the structure of src. Ranges are byte offsets into src.
func OutlineOf(src []byte) Outline {
	fm := splitFrontMatter(src)
	o := outlineOf(src, fm.Body, false)
	out := Outline{Body: fm.Body, Sections: o.Sections, FirstHeading: o.FirstHeading, Code: o.Code}
	if fm.Present {
		out.FrontMatter = Range{fm.Open.Start, fm.Body.Start}
	}
	return out
}
