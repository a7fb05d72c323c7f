package export

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"encoding/xml"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/manuscript"
)

// smallBook is two chapters with every block the model has.
func smallBook(t *testing.T) *Book {
	t.Helper()
	b, err := Read(t.Context(), []*manuscript.Unit{
		manuscript.NewUnit("manuscript/01-storm.md", "---\ntitle: The Storm & After\n---\nShe *ran* 5 < 6 &amp; 7.\n\n> Quoted **hard**.\n\n***\n\n1. one\n2. two\n", 0),
		manuscript.NewUnit("manuscript/02-calm.md", "# Calm\n\n\"Still,\" she said.\n", 0),
	}, ReadOptions{})
	require.NoError(t, err)
	return b
}

func testSettings() Settings {
	return Settings{Title: "A <Test> Book", Author: "Wren Halloway", Contact: []string{"14 Row", "wren@example.com"}, Language: "en", Paper: "letter"}
}

func TestWriteIsDeterministic(t *testing.T) {
	for _, f := range Formats() {
		for _, p := range Presets() {
			t.Run(string(f)+"/"+string(p), func(t *testing.T) {
				var one, two bytes.Buffer
				o := Options{Format: f, Preset: p, Settings: testSettings()}
				require.NoError(t, Write(&one, smallBook(t), o))
				require.NoError(t, Write(&two, smallBook(t), o))
				assert.Equal(t, one.Bytes(), two.Bytes())
			})
		}
	}
}

// parts are the files of a zip, by name, in order.
func parts(t *testing.T, data []byte) (names []string, files map[string]string) {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	require.NoError(t, err)
	files = map[string]string{}
	for _, f := range zr.File {
		rc, err := f.Open()
		require.NoError(t, err)
		b, err := io.ReadAll(rc)
		require.NoError(t, err)
		names = append(names, f.Name)
		files[f.Name] = string(b)
		assert.Equal(t, uint16(dosDate), f.ModifiedDate, f.Name)
		if strings.HasSuffix(f.Name, ".xml") || strings.HasSuffix(f.Name, ".xhtml") || strings.HasSuffix(f.Name, ".opf") || strings.HasSuffix(f.Name, ".rels") {
			wellFormed(t, f.Name, b)
		}
	}
	return names, files
}

func wellFormed(t *testing.T, name string, b []byte) {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(b))
	d.Strict = true
	d.Entity = xml.HTMLEntity
	for {
		_, err := d.Token()
		if err == io.EOF {
			return
		}
		require.NoError(t, err, "%s is not well-formed XML", name)
	}
}

func TestDOCXParts(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, Write(&buf, smallBook(t), Options{Format: DOCX, Preset: Manuscript, Settings: testSettings()}))
	names, files := parts(t, buf.Bytes())
	assert.Equal(t, "[Content_Types].xml", names[0])
	styles := files["word/styles.xml"]
	for _, s := range []string{`w:styleId="Normal"`, `<w:name w:val="heading 1"/>`, `<w:name w:val="Scene Break"/>`, `<w:pageBreakBefore/>`, `w:line="480"`, `Times New Roman`} {
		assert.Contains(t, styles, s)
	}
	doc := files["word/document.xml"]
	assert.Contains(t, doc, `<w:pgSz w:w="12240" w:h="15840"/>`)
	assert.Contains(t, doc, `w:top="1440" w:right="1440" w:bottom="1440" w:left="1440"`)
	assert.Contains(t, doc, "The Storm &amp; After")
	assert.Contains(t, doc, "5 &lt; 6 &amp; 7.")
	assert.Contains(t, doc, "about 100 words")
	assert.Contains(t, doc, ">END<")
	assert.Contains(t, files["word/header1.xml"], "Halloway / A &lt;TEST&gt; BOOK / ")
	assert.Contains(t, files["word/header1.xml"], `w:instr=" PAGE "`)
	// Paragraphs name a style; none carries its own font or spacing.
	assert.NotContains(t, doc, "<w:rFonts")
	assert.NotContains(t, doc, "<w:spacing")

	buf.Reset()
	s := testSettings()
	s.Paper = "a4"
	require.NoError(t, Write(&buf, smallBook(t), Options{Format: DOCX, Preset: Reader, Settings: s}))
	_, files = parts(t, buf.Bytes())
	assert.Contains(t, files["word/document.xml"], `<w:pgSz w:w="11906" w:h="16838"/>`)
	assert.NotContains(t, files, "word/header1.xml", "the reader's book has no running header")
	assert.NotContains(t, files["word/document.xml"], ">END<")
}

func TestEPUBContainer(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, Write(&buf, smallBook(t), Options{Format: EPUB, Preset: Reader, Settings: testSettings()}))
	data := buf.Bytes()
	// The OCF's rule: "mimetype" first, stored, no extra field, so that
	// its content sits at byte 38.
	require.Equal(t, "PK\x03\x04", string(data[:4]))
	assert.Equal(t, uint16(0), binary.LittleEndian.Uint16(data[8:]), "stored")
	assert.Equal(t, uint16(0), binary.LittleEndian.Uint16(data[28:]), "no extra field")
	assert.Equal(t, "mimetypeapplication/epub+zip", string(data[30:58]))
	names, files := parts(t, data)
	assert.Equal(t, []string{"mimetype", "EPUB/chapter-001.xhtml", "EPUB/chapter-002.xhtml", "EPUB/nav.xhtml", "EPUB/package.opf", "EPUB/style.css", "EPUB/title.xhtml", "META-INF/container.xml"}, names)
	opf := files["EPUB/package.opf"]
	assert.Contains(t, opf, BookID("A <Test> Book", "Wren Halloway"))
	assert.Contains(t, opf, "<dc:creator>Wren Halloway</dc:creator>")
	assert.Contains(t, opf, `<meta property="dcterms:modified">2000-01-01T00:00:00Z</meta>`)
	nav := files["EPUB/nav.xhtml"]
	assert.Contains(t, nav, `<ol><li><a href="chapter-001.xhtml">The Storm &amp; After</a></li><li><a href="chapter-002.xhtml">Calm</a></li></ol></nav>`,
		"the contents list the chapters alone, the first chapter first")
	assert.Contains(t, nav, `<nav epub:type="landmarks" id="landmarks" hidden="">`)
	assert.Contains(t, nav, `<a epub:type="titlepage" href="title.xhtml">`, "the title page is a landmark")
	assert.Contains(t, files["EPUB/style.css"], "nav ol { list-style-type: none;", "reading apps number no chapter")
	assert.Contains(t, files["EPUB/chapter-001.xhtml"], "<blockquote>")
	assert.Contains(t, files["EPUB/chapter-001.xhtml"], "<ol>")
}

func TestBookID(t *testing.T) {
	id := BookID("The Thirteenth Bell", "Wren Halloway")
	assert.Regexp(t, `^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`, id)
	assert.Equal(t, id, BookID("The Thirteenth Bell", "Wren Halloway"), "the same book, the same identifier")
	assert.NotEqual(t, id, BookID("The Fourteenth Bell", "Wren Halloway"))
}

func TestHTMLNestsListsAndKeepsCode(t *testing.T) {
	b, err := Read(t.Context(), []*manuscript.Unit{manuscript.NewUnit("manuscript/01-a.md",
		"1. one\n   - a\n   - b\n\n   more of one\n2. two\n\n> q1\n> > q2\n\n    code <b> *x*\n    line2\n", 0)}, ReadOptions{})
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, Write(&buf, b, Options{Format: HTML, Preset: Reader, Settings: testSettings()}))
	assert.Contains(t, buf.String(), "<ol>\n<li><p>one</p><ul>\n<li><p>a</p></li>\n<li><p>b</p></li>\n</ul>\n<p>more of one</p></li>\n<li><p>two</p></li>\n</ol>\n"+
		"<blockquote>\n<p>q1</p>\n<p>q2</p>\n</blockquote>\n<p>code &lt;b&gt; *x*<br>line2</p>\n")
}
