package export

import (
	"encoding/xml"
	"fmt"
	"strings"
)

// docxStyles is word/styles.xml for a preset on a page. The manuscript
// is 12 pt Times New Roman, double spaced, every paragraph indented half
// an inch; the reader's book is 11 pt, single spaced, with the first
// paragraph of a chapter or scene flush.
func docxStyles(p Preset, pg page, lang string) []byte {
	font, size, line, indent := "Times New Roman", 24, 480, 720
	firstIndent := indent
	if p == Reader {
		size, line, indent, firstIndent = 22, 240, 360, 0
	}
	width := pg.w - 2*inch
	// A chapter starts about a third of the way down its page.
	chapterDrop := (pg.h - 2*inch) / 3
	titleDrop := (pg.h - 2*inch) / 3
	if p == Manuscript {
		// Below the contact block: the title sits near the middle.
		titleDrop = (pg.h-2*inch)/2 - 6*size*10
	}
	style := func(id, name, based, ppr, rpr string) string {
		s := `<w:style w:type="paragraph" w:styleId="` + id + `"><w:name w:val="` + name + `"/>`
		if based != "" {
			s += `<w:basedOn w:val="` + based + `"/><w:next w:val="Normal"/>`
		}
		s += `<w:qFormat/><w:pPr>` + ppr + `</w:pPr>`
		if rpr != "" {
			s += `<w:rPr>` + rpr + `</w:rPr>`
		}
		return s + `</w:style>`
	}
	centred := `<w:jc w:val="center"/><w:ind w:firstLine="0"/>`
	styles := xml.Header + `<w:styles xmlns:w="` + nsW + `">` +
		fmt.Sprintf(`<w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="%[1]s" w:hAnsi="%[1]s" w:eastAsia="%[1]s" w:cs="%[1]s"/><w:sz w:val="%[2]d"/><w:szCs w:val="%[2]d"/><w:lang w:val="%[4]s"/></w:rPr></w:rPrDefault>`+
			`<w:pPrDefault><w:pPr><w:spacing w:before="0" w:after="0" w:line="%[3]d" w:lineRule="auto"/></w:pPr></w:pPrDefault></w:docDefaults>`, font, size, line, esc(docxLang(lang))) +
		`<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:qFormat/><w:pPr>` +
		fmt.Sprintf(`<w:spacing w:before="0" w:after="0" w:line="%d" w:lineRule="auto"/><w:ind w:firstLine="%d"/><w:widowControl/>`, line, indent) +
		`</w:pPr></w:style>` +
		style("FirstParagraph", "First Paragraph", "Normal", fmt.Sprintf(`<w:ind w:firstLine="%d"/>`, firstIndent), "") +
		style("Heading1", "heading 1", "Normal", fmt.Sprintf(`<w:keepNext/><w:pageBreakBefore/><w:spacing w:before="%d" w:after="%d"/>`, chapterDrop, line)+centred+`<w:outlineLvl w:val="0"/>`, "") +
		style("Title", "Title", "Normal", fmt.Sprintf(`<w:spacing w:before="%d" w:after="0"/>`, titleDrop)+centred, "") +
		style("Byline", "Byline", "Normal", centred, "") +
		style("Contact", "Contact", "Normal", fmt.Sprintf(`<w:tabs><w:tab w:val="right" w:pos="%d"/></w:tabs><w:spacing w:line="240" w:lineRule="auto"/><w:ind w:firstLine="0"/>`, width), "") +
		style("SceneBreak", "Scene Break", "Normal", `<w:keepNext/>`+centred, "") +
		style("End", "End", "Normal", fmt.Sprintf(`<w:spacing w:before="%d"/>`, line)+centred, "") +
		style("Quote", "Quote", "Normal", `<w:ind w:left="720" w:right="720" w:firstLine="0"/>`, "") +
		style("ListParagraph", "List Paragraph", "Normal", `<w:tabs><w:tab w:val="left" w:pos="720"/></w:tabs><w:ind w:left="720" w:hanging="360"/>`, "") +
		`<w:style w:type="paragraph" w:styleId="Header"><w:name w:val="header"/><w:basedOn w:val="Normal"/><w:pPr><w:jc w:val="right"/><w:spacing w:line="240" w:lineRule="auto"/><w:ind w:firstLine="0"/></w:pPr></w:style>` +
		`<w:style w:type="character" w:default="1" w:styleId="DefaultParagraphFont"><w:name w:val="Default Paragraph Font"/><w:uiPriority w:val="1"/><w:semiHidden/></w:style>` +
		`<w:style w:type="character" w:styleId="Emphasis"><w:name w:val="Emphasis"/><w:basedOn w:val="DefaultParagraphFont"/><w:qFormat/><w:rPr><w:i/><w:iCs/></w:rPr></w:style>` +
		`<w:style w:type="character" w:styleId="Strong"><w:name w:val="Strong"/><w:basedOn w:val="DefaultParagraphFont"/><w:qFormat/><w:rPr><w:b/><w:bCs/></w:rPr></w:style>` +
		`</w:styles>`
	return []byte(styles)
}

// docxLang is the language Word proofs the text in: the book's tag, and
// American English for a bare "en", as the manuscript's letter paper
// assumes.
func docxLang(tag string) string {
	if tag == "" || strings.EqualFold(tag, "en") {
		return "en-US"
	}
	return tag
}
