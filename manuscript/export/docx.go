package export

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
)

// A DOCX is a zip of WordprocessingML parts. The look lives in
// styles.xml as real Word styles (Normal, Heading 1, Title, Scene Break,
// …), so an editor can restyle the whole manuscript at once; the
// document's paragraphs only name their style.

const (
	nsW = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
	nsR = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
	// twips per inch: Word measures in twentieths of a point.
	inch = 1440
)

// page is a paper size in twips.
type page struct{ w, h int }

// pageOf is the paper the settings name: US Letter (8.5 × 11 in, what
// US agents and shunn.net's format assume) or A4.
func pageOf(paper string) page {
	if paper == "a4" {
		return page{11906, 16838}
	}
	return page{12240, 15840}
}

func writeDOCX(w io.Writer, b *Book, o Options) error {
	pg := pageOf(o.Settings.Paper)
	manuscript := o.Preset == Manuscript
	doc := docxDocument(b, o, pg)
	files := []zipFile{
		{name: "_rels/.rels", data: []byte(xml.Header + `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
			`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>` +
			`<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/>` +
			`</Relationships>`)},
		{name: "docProps/core.xml", data: []byte(xml.Header + `<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/">` +
			`<dc:title>` + esc(b.Title) + `</dc:title><dc:creator>` + esc(b.Author) + `</dc:creator><dc:language>` + esc(b.Language) + `</dc:language></cp:coreProperties>`)},
		{name: "word/document.xml", data: doc},
		{name: "word/styles.xml", data: docxStyles(o.Preset, pg, b.Language)},
		{name: "word/settings.xml", data: []byte(xml.Header + `<w:settings xmlns:w="` + nsW + `"><w:defaultTabStop w:val="720"/><w:compat><w:compatSetting w:name="compatibilityMode" w:uri="http://schemas.microsoft.com/office/word" w:val="15"/></w:compat></w:settings>`)},
	}
	rels := `<Relationship Id="rIdStyles" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>` +
		`<Relationship Id="rIdSettings" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/settings" Target="settings.xml"/>`
	types := `<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>` +
		`<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/>` +
		`<Override PartName="/word/settings.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.settings+xml"/>` +
		`<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>`
	if manuscript {
		header := fmt.Sprintf(`<w:p><w:pPr><w:pStyle w:val="Header"/></w:pPr><w:r><w:t xml:space="preserve">%s / %s / </w:t></w:r>`+
			`<w:fldSimple w:instr=" PAGE "><w:r><w:t>2</w:t></w:r></w:fldSimple></w:p>`, esc(o.Settings.HeaderName()), esc(headerTitle(b.Title)))
		files = append(files,
			zipFile{name: "word/header1.xml", data: []byte(xml.Header + `<w:hdr xmlns:w="` + nsW + `" xmlns:r="` + nsR + `">` + header + `</w:hdr>`)},
			// Page one, the title page, has an empty header of its own.
			zipFile{name: "word/header2.xml", data: []byte(xml.Header + `<w:hdr xmlns:w="` + nsW + `" xmlns:r="` + nsR + `"><w:p><w:pPr><w:pStyle w:val="Header"/></w:pPr></w:p></w:hdr>`)})
		rels += `<Relationship Id="rIdHeader1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/header" Target="header1.xml"/>` +
			`<Relationship Id="rIdHeader2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/header" Target="header2.xml"/>`
		types += `<Override PartName="/word/header1.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml"/>` +
			`<Override PartName="/word/header2.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml"/>`
	}
	files = append(files, zipFile{name: "word/_rels/document.xml.rels", data: []byte(xml.Header +
		`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` + rels + `</Relationships>`)})
	contentTypes := zipFile{name: "[Content_Types].xml", data: []byte(xml.Header +
		`<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
		`<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
		`<Default Extension="xml" ContentType="application/xml"/>` + types + `</Types>`)}
	return writeZip(w, []zipFile{contentTypes}, files)
}

// headerTitle is the running header's title: a long one is cut to its
// first few words, as the format asks for a key word or two.
func headerTitle(title string) string {
	f := strings.Fields(title)
	if len(f) > 5 {
		f = f[:5]
	}
	return strings.ToUpper(strings.Join(f, " "))
}

// docxDocument is word/document.xml.
func docxDocument(b *Book, o Options, pg page) []byte {
	var d bytes.Buffer
	d.WriteString(xml.Header + `<w:document xmlns:w="` + nsW + `" xmlns:r="` + nsR + `"><w:body>`)
	para := func(style, inner string) {
		d.WriteString(`<w:p><w:pPr><w:pStyle w:val="` + style + `"/></w:pPr>` + inner + `</w:p>`)
	}
	text := func(s string) string { return `<w:r><w:t xml:space="preserve">` + esc(s) + `</w:t></w:r>` }
	if o.Preset == Manuscript {
		// Page one: the contact block at the top left, the rounded word
		// count at the top right of its first line, the title and byline
		// half way down.
		s := o.Settings
		para("Contact", text(s.Author)+`<w:r><w:tab/></w:r>`+text(RoundedWords(b.Words)))
		for _, line := range s.Contact {
			para("Contact", text(line))
		}
		para("Title", text(b.Title))
		para("Byline", text("by "+s.Author))
	} else {
		para("Title", text(b.Title))
		if b.Author != "" {
			para("Byline", text("by "+b.Author))
		}
	}
	for _, ch := range b.Chapters {
		// Heading 1 starts a new page (the style says so), a third down.
		para("Heading1", text(ch.Title))
		for _, bl := range ch.Blocks {
			switch bl.Kind {
			case SceneBreak:
				para("SceneBreak", text(o.Preset.sceneMark()))
			case Quote:
				para("Quote", docxRuns(bl.Runs))
			case Item:
				inner := docxRuns(bl.Runs)
				if bl.Marker != "" {
					inner = text(bl.Marker) + `<w:r><w:tab/></w:r>` + inner
				}
				ind := ""
				if bl.Depth > 1 {
					// Nesting is the one indent a style cannot know.
					ind = fmt.Sprintf(`<w:ind w:left="%d" w:hanging="360"/>`, 720*bl.Depth)
				}
				d.WriteString(`<w:p><w:pPr><w:pStyle w:val="ListParagraph"/>` + ind + `</w:pPr>` + inner + `</w:p>`)
			default:
				style := "Normal"
				if bl.First {
					style = "FirstParagraph"
				}
				para(style, docxRuns(bl.Runs))
			}
		}
	}
	if o.Preset == Manuscript {
		para("End", text("END"))
	}
	sect := fmt.Sprintf(`<w:pgSz w:w="%d" w:h="%d"/><w:pgMar w:top="%d" w:right="%d" w:bottom="%d" w:left="%d" w:header="720" w:footer="720" w:gutter="0"/>`,
		pg.w, pg.h, inch, inch, inch, inch)
	if o.Preset == Manuscript {
		sect = `<w:headerReference w:type="default" r:id="rIdHeader1"/><w:headerReference w:type="first" r:id="rIdHeader2"/>` + sect + `<w:titlePg/>`
	}
	d.WriteString(`<w:sectPr>` + sect + `</w:sectPr></w:body></w:document>`)
	return d.Bytes()
}

// docxRuns writes runs with the Emphasis and Strong character styles.
func docxRuns(runs []Run) string {
	var sb strings.Builder
	for _, r := range runs {
		sb.WriteString(`<w:r>`)
		switch {
		case r.Strong && r.Emph:
			sb.WriteString(`<w:rPr><w:rStyle w:val="Strong"/><w:i/></w:rPr>`)
		case r.Strong:
			sb.WriteString(`<w:rPr><w:rStyle w:val="Strong"/></w:rPr>`)
		case r.Emph:
			sb.WriteString(`<w:rPr><w:rStyle w:val="Emphasis"/></w:rPr>`)
		}
		if r.Text != "" {
			sb.WriteString(`<w:t xml:space="preserve">` + esc(r.Text) + `</w:t>`)
		}
		if r.Break {
			sb.WriteString(`<w:br/>`)
		}
		sb.WriteString(`</w:r>`)
	}
	return sb.String()
}

// esc is s escaped for XML text and attributes; characters XML cannot
// hold become U+FFFD.
func esc(s string) string {
	var sb strings.Builder
	_ = xml.EscapeText(&sb, []byte(s))
	return sb.String()
}
