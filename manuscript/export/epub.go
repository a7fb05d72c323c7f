package export

import (
	"bufio"
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"encoding/xml"
	"fmt"
	"io"
	"time"
)

// epubDir holds the publication's files inside the container.
const epubDir = "EPUB/"

// writeEPUB writes an EPUB 3: the mimetype first and stored, the
// container file, the package document with the book's metadata, a
// navigation document listing the chapters, a title page, one XHTML file
// per chapter and the stylesheet.
func writeEPUB(w io.Writer, b *Book, o Options) error {
	id := o.Settings.Identifier
	if id == "" {
		id = BookID(b.Title, b.Author)
	}
	modified := o.Modified
	if modified.IsZero() {
		modified = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	lang := b.Language
	var manifest, spine, toc bytes.Buffer
	files := []zipFile{
		{name: "META-INF/container.xml", data: []byte(xml.Header + `<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">` +
			`<rootfiles><rootfile full-path="` + epubDir + `package.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`)},
		{name: epubDir + "style.css", data: []byte(htmlStyle + epubStyle)},
	}
	var title bytes.Buffer
	title.WriteString(`<section epub:type="titlepage"><h1>` + esc(b.Title) + `</h1>`)
	if b.Author != "" {
		title.WriteString(`<p class="byline">by ` + esc(b.Author) + `</p>`)
	}
	title.WriteString(`</section>`)
	files = append(files, zipFile{name: epubDir + "title.xhtml", data: xhtml(lang, b.Title, title.Bytes())})
	manifest.WriteString(`<item id="title" href="title.xhtml" media-type="application/xhtml+xml"/>`)
	spine.WriteString(`<itemref idref="title"/>`)
	for i, ch := range b.Chapters {
		name := fmt.Sprintf("chapter-%03d.xhtml", i+1)
		var body bytes.Buffer
		bw := bufio.NewWriter(&body)
		bw.WriteString(`<section epub:type="chapter" role="doc-chapter"><h2>` + esc(ch.Title) + "</h2>\n")
		writeHTMLBlocks(bw, ch.Blocks, o.Preset, "<br/>")
		bw.WriteString(`</section>`)
		_ = bw.Flush()
		files = append(files, zipFile{name: epubDir + name, data: xhtml(lang, ch.Title, body.Bytes())})
		fmt.Fprintf(&manifest, `<item id="c%03d" href="%s" media-type="application/xhtml+xml"/>`, i+1, name)
		fmt.Fprintf(&spine, `<itemref idref="c%03d"/>`, i+1)
		fmt.Fprintf(&toc, `<li><a href="%s">%s</a></li>`, name, esc(ch.Title))
	}
	// The contents list the chapters alone: a reading app numbers an
	// ol's items unless told not to, and a title page among them made
	// "2. Chapter 1" of the first chapter. The title page and the start
	// of the text are landmarks, which reading apps offer apart.
	nav := `<nav epub:type="toc" id="toc" role="doc-toc"><h1>Contents</h1><ol>` + toc.String() + `</ol></nav>` + "\n" +
		`<nav epub:type="landmarks" id="landmarks" hidden=""><h2>Landmarks</h2><ol>` +
		`<li><a epub:type="titlepage" href="title.xhtml">Title page</a></li>` +
		`<li><a epub:type="bodymatter" href="chapter-001.xhtml">Start of the text</a></li></ol></nav>`
	files = append(files, zipFile{name: epubDir + "nav.xhtml", data: xhtml(lang, "Contents", []byte(nav))})
	creator := ""
	if b.Author != "" {
		creator = `<dc:creator>` + esc(b.Author) + `</dc:creator>`
	}
	opf := xml.Header + `<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="book-id" xml:lang="` + esc(lang) + `">` +
		`<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">` +
		`<dc:identifier id="book-id">` + esc(id) + `</dc:identifier>` +
		`<dc:title>` + esc(b.Title) + `</dc:title>` + creator +
		`<dc:language>` + esc(lang) + `</dc:language>` +
		`<meta property="dcterms:modified">` + modified.UTC().Format("2006-01-02T15:04:05Z") + `</meta>` +
		`</metadata><manifest>` +
		`<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>` +
		`<item id="css" href="style.css" media-type="text/css"/>` + manifest.String() +
		`</manifest><spine>` + spine.String() + `</spine></package>`
	files = append(files, zipFile{name: epubDir + "package.opf", data: []byte(opf)})
	return writeZip(w, []zipFile{{name: "mimetype", data: []byte("application/epub+zip"), store: true}}, files)
}

// epubStyle is what the EPUB's stylesheet adds to htmlStyle: the
// contents unnumbered, since chapter titles carry their own numbers.
const epubStyle = `nav ol { list-style-type: none; padding-left: 0; }
nav li { margin: 0.4em 0; }
`

// xhtml is a content document around body.
func xhtml(lang, title string, body []byte) []byte {
	var b bytes.Buffer
	b.WriteString(xml.Header + "<!DOCTYPE html>\n" +
		`<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="` + esc(lang) + `" lang="` + esc(lang) + `">` + "\n" +
		`<head><meta charset="utf-8"/><title>` + esc(title) + `</title><link rel="stylesheet" type="text/css" href="style.css"/></head>` + "\n<body>\n")
	b.Write(body)
	b.WriteString("\n</body>\n</html>\n")
	return b.Bytes()
}

// bookNamespace is the UUID namespace of quire's book identifiers (a
// version-5 UUID of the URL namespace and "https://quire.ink/book").
var bookNamespace = uuid5([16]byte{0x6b, 0xa7, 0xb8, 0x11, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8}, "https://quire.ink/book")

// BookID is the EPUB identifier of a book that names none: a
// version-5 UUID of its title and author, so every build of the book
// carries the same one and a reading app keeps the reader's place.
func BookID(title, author string) string {
	u := uuid5(bookNamespace, title+"\x00"+author)
	h := hex.EncodeToString(u[:])
	return "urn:uuid:" + h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// uuid5 is RFC 9562's name-based UUID with SHA-1.
func uuid5(ns [16]byte, name string) [16]byte {
	h := sha1.New()
	h.Write(ns[:])
	h.Write([]byte(name))
	var u [16]byte
	copy(u[:], h.Sum(nil))
	u[6] = u[6]&0x0f | 0x50
	u[8] = u[8]&0x3f | 0x80
	return u
}
