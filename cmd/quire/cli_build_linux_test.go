package main

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/manuscript/export"
)

// The programs that will open what quire build writes check it:
// Debian's epubcheck validates the EPUBs, LibreOffice (soffice) turns
// the DOCX into a PDF and poppler-utils read the PDF back. make
// buildcheck installs them; with QUIRE_REQUIRE_BUILDCHECK=1 (make test)
// or CI set, a missing one fails the test instead of skipping it.

// buildTool is the path of a program the checks run.
func buildTool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err == nil {
		return p
	}
	if os.Getenv("QUIRE_REQUIRE_BUILDCHECK") == "1" || os.Getenv("CI") != "" {
		t.Fatalf("%s is missing (make buildcheck installs it): %v", name, err)
	}
	t.Skipf("%s is missing (make buildcheck installs it; QUIRE_REQUIRE_BUILDCHECK=1 or CI makes this a failure)", name)
	return ""
}

// runTool runs a program and returns its stdout, failing with its output.
func runTool(t *testing.T, timeout time.Duration, name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var out, errOut bytes.Buffer
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	require.NoError(t, cmd.Run(), "%s %s:\n%s\n%s", name, strings.Join(args, " "), out.String(), errOut.String())
	return out.String()
}

// epubcheck validates an EPUB and fails on any error or warning.
// Debian installs epubcheck as the jar itself, run with java.
func epubcheck(t *testing.T, epub string) {
	t.Helper()
	jar, err := filepath.EvalSymlinks(buildTool(t, "epubcheck"))
	require.NoError(t, err)
	out := runTool(t, 3*time.Minute, buildTool(t, "java"), "-jar", jar, epub)
	assert.Contains(t, out, "No errors or warnings detected.", out)
	assert.Contains(t, out, "0 fatals / 0 errors / 0 warnings", out)
}

// TestBuildEPUBPassesEPUBCheck: the sample book (with a chapter of odd
// shapes) and a generated book of 100 chapters are valid EPUB 3 with no
// warning.
func TestBuildEPUBPassesEPUBCheck(t *testing.T) {
	buildTool(t, "epubcheck")
	book, cache := sampleProject(t)
	// A chapter with every shape the model has: quotes, nested lists, an
	// item of two paragraphs, a hard break, code, raw HTML, a comment.
	require.NoError(t, os.WriteFile(filepath.Join(book, "manuscript", "06-odds-and-ends.md"), []byte(
		"---\ntitle: Odds & <Ends>\n---\n> A *quote*,\n> > nested.\n\n1. one\n   - a\n   - b\n\n   more of one\n2. two  \n   broken\n\n"+
			"    code <b>\n\n<div>raw</div>\n\nText <!-- note --> & [[Moss Kettering|Moss]] \\* \"done\"...\n"), 0o644))
	res := buildJSON(t, book, cache, "--format", "epub", "-o", filepath.Join(t.TempDir(), "sample.epub"))
	assert.Equal(t, 6, res.Chapters)
	epubcheck(t, res.Path)

	big := filepath.Join(t.TempDir(), "big")
	_, _, err := run(t, "gen-corpus", big, "--entries", "20", "--chapters", "100", "--chapter-words", "400")
	require.NoError(t, err)
	res = buildJSON(t, big, cache, "--format", "epub", "-o", filepath.Join(t.TempDir(), "big.epub"))
	assert.Equal(t, 100, res.Chapters)
	epubcheck(t, res.Path)
}

// word is one word of a PDF page as pdftotext -bbox places it, in
// points from the page's top left.
type word struct {
	x0, y0, x1, y1 float64
	text           string
}

var (
	pageRE = regexp.MustCompile(`<page width="([\d.]+)" height="([\d.]+)">`)
	wordRE = regexp.MustCompile(`<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>`)
)

// pages reads pdftotext -bbox's words of each page.
func pages(t *testing.T, pdf string) (w, h float64, out [][]word) {
	t.Helper()
	html := runTool(t, time.Minute, buildTool(t, "pdftotext"), "-bbox", pdf, "-")
	for i, page := range strings.Split(html, "</page>") {
		m := pageRE.FindStringSubmatch(page)
		if m == nil {
			continue
		}
		if i == 0 {
			w, _ = strconv.ParseFloat(m[1], 64)
			h, _ = strconv.ParseFloat(m[2], 64)
		}
		var words []word
		for _, m := range wordRE.FindAllStringSubmatch(page, -1) {
			f := func(s string) float64 { v, _ := strconv.ParseFloat(s, 64); return v }
			words = append(words, word{f(m[1]), f(m[2]), f(m[3]), f(m[4]), m[5]})
		}
		out = append(out, words)
	}
	return w, h, out
}

// line is the words of a page on the line of the word at index i.
func lineText(words []word, i int) string {
	var parts []string
	for _, w := range words {
		if math.Abs(w.y0-words[i].y0) < 2 {
			parts = append(parts, w.text)
		}
	}
	return strings.Join(parts, " ")
}

// TestBuildDOCXIsAStandardManuscript opens the sample book's DOCX in
// LibreOffice, prints it to PDF and reads the PDF back: US Letter, text
// inside one-inch margins, Times New Roman (or Liberation Serif, its
// metric-compatible stand-in, which is what Debian's LibreOffice
// embeds), the contact block with the rounded word count on page one,
// the running header with page numbers from page two, each chapter at
// the top of a new page, the scene breaks' # centred, END at the end,
// and no front matter, comment or [[ in the text. PNGs of page one and
// of chapter 2's opening stay in QUIRE_ARTEFACTS (or a temporary
// folder), named in the log.
func TestBuildDOCXIsAStandardManuscript(t *testing.T) {
	soffice := buildTool(t, "soffice")
	book, cache := sampleProject(t)
	// A scene that links, and a note to self, in the last chapter.
	last := filepath.Join(book, "manuscript", "05-salt-debt.md")
	text, err := os.ReadFile(last)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(last, append(text, []byte("\n* * *\n\n<!-- cut this? -->\n[[Moss Kettering|Moss]] rang the bell at last, and [[Gannet Light]] answered.\n")...), 0o644))

	dir := t.TempDir()
	res := buildJSON(t, book, cache, "-o", filepath.Join(dir, "manuscript.docx"))
	require.Equal(t, export.Manuscript, res.Preset)
	home := t.TempDir() // LibreOffice's profile, away from the writer's
	runTool(t, 3*time.Minute, soffice, "-env:UserInstallation=file://"+home, "--headless", "--convert-to", "pdf", "--outdir", dir, res.Path)
	pdf := filepath.Join(dir, "manuscript.pdf")

	info := runTool(t, time.Minute, buildTool(t, "pdfinfo"), pdf)
	assert.Regexp(t, `Page size:\s+612 x 792 pts \(letter\)`, info)
	fonts := runTool(t, time.Minute, buildTool(t, "pdffonts"), pdf)
	assert.Regexp(t, `(TimesNewRoman|LiberationSerif)`, fonts, "a Times New Roman or its metric-compatible stand-in")
	assert.NotRegexp(t, `(?i)(DejaVu|Courier|Sans)`, fonts, "no other font")

	w, h, pp := pages(t, pdf)
	require.Equal(t, 612.0, w)
	require.Equal(t, 792.0, h)
	require.Greater(t, len(pp), 10)
	all := runTool(t, time.Minute, buildTool(t, "pdftotext"), "-layout", pdf, "-")
	for _, leak := range []string{"[[", "<!--", "cut this", "pov:", "day: 1", "sample note"} {
		assert.NotContains(t, all, leak)
	}
	assert.Contains(t, all, "Moss rang the bell at last, and Gannet Light answered.")

	// Page one: the writer's name and the rounded count on one line at
	// the top, the contact block under it; no running header.
	one := pp[0]
	require.NotEmpty(t, one)
	assert.Equal(t, "Wren Halloway "+export.RoundedWords(res.Words), lineText(one, 0))
	assert.Contains(t, runTool(t, time.Minute, buildTool(t, "pdftotext"), "-layout", "-f", "1", "-l", "1", pdf, "-"), "14 Chandler's Row")
	assert.InDelta(t, 72, one[0].x0, 1.5, "left margin, one inch")
	assert.InDelta(t, 72, one[0].y0, 6, "top margin, one inch")
	var countRight float64
	for _, wd := range one {
		if math.Abs(wd.y0-one[0].y0) < 2 {
			countRight = max(countRight, wd.x1)
		}
	}
	assert.InDelta(t, 540, countRight, 2, "the word count ends at the right margin")

	// Every later page: the header "Halloway / THE THIRTEENTH BELL / n"
	// at the top right; text inside the margins.
	chapterPages := map[string]int{}
	titles := []string{"Thirteen Strokes", "The Tally Does Not Lie", "Slack Water", "The Vault Beneath the Light", "Salt-Debt"}
	var scenes int
	for i, page := range pp[1:] {
		n := i + 2
		require.NotEmpty(t, page, "page %d", n)
		assert.Equal(t, fmt.Sprintf("Halloway / THE THIRTEENTH BELL / %d", n), lineText(page, 0), "page %d's header", n)
		for j, wd := range page {
			assert.GreaterOrEqual(t, wd.x0, 71.5, "page %d: %q inside the left margin", n, wd.text)
			assert.LessOrEqual(t, wd.x1, 541.0, "page %d: %q inside the right margin", n, wd.text)
			assert.LessOrEqual(t, wd.y1, 721.0, "page %d: %q above the bottom margin", n, wd.text)
			if wd.text == "#" && lineText(page, j) == "#" {
				scenes++
				assert.InDelta(t, 306, (wd.x0+wd.x1)/2, 3, "page %d: the scene break is centred", n)
			}
		}
		// The first line under the header names the chapter when one
		// starts here, a third of the way down.
		var body []word
		for _, wd := range page {
			if wd.y0 > page[0].y1+2 {
				body = append(body, wd)
			}
		}
		if len(body) > 0 {
			first := lineText(body, 0)
			for _, title := range titles {
				if first == title {
					chapterPages[title] = n
					assert.Greater(t, body[0].y0, 72+(792-144)/4.0, "chapter %q starts low on its page", title)
				}
			}
		}
	}
	assert.Len(t, chapterPages, len(titles), "each chapter starts a new page: %v", chapterPages)
	assert.Greater(t, scenes, 4, "scene breaks drawn as #")
	lastPage := pp[len(pp)-1]
	assert.Equal(t, "END", lastPage[len(lastPage)-1].text)
	// Double spaced: 12 pt type on a 24 pt line (LibreOffice's "double"
	// is twice the font's own line height, 27.6 pt for Liberation Serif).
	assert.InDelta(t, 27.6, linePitch(pp[3]), 1.5, "double spacing")

	// PNGs of page one and chapter 2's first page for a person to look at.
	art := os.Getenv("QUIRE_ARTEFACTS")
	if art == "" {
		art = t.TempDir()
	}
	art = filepath.Join(art, "build")
	require.NoError(t, os.MkdirAll(art, 0o755))
	pdftoppm := buildTool(t, "pdftoppm")
	runTool(t, time.Minute, pdftoppm, "-png", "-r", "60", "-f", "1", "-l", "1", "-singlefile", pdf, filepath.Join(art, "manuscript-page-one"))
	p := chapterPages["The Tally Does Not Lie"]
	runTool(t, time.Minute, pdftoppm, "-png", "-r", "60", "-f", strconv.Itoa(p), "-l", strconv.Itoa(p), "-singlefile", pdf, filepath.Join(art, "manuscript-chapter-two"))
	for _, png := range []string{"manuscript-page-one.png", "manuscript-chapter-two.png"} {
		info, err := os.Stat(filepath.Join(art, png))
		require.NoError(t, err)
		assert.Greater(t, info.Size(), int64(5_000))
	}
	t.Logf("page one and chapter two's opening as PNG in %s", art)

	// The reader's book: no contact block, header or END; single spaced.
	res = buildJSON(t, book, cache, "--preset", "reader", "-o", filepath.Join(dir, "reader.docx"))
	runTool(t, 3*time.Minute, soffice, "-env:UserInstallation=file://"+home, "--headless", "--convert-to", "pdf", "--outdir", dir, res.Path)
	_, _, rp := pages(t, filepath.Join(dir, "reader.pdf"))
	require.Greater(t, len(rp), 3)
	assert.Equal(t, "The Thirteenth Bell", lineText(rp[0], 0))
	assert.Equal(t, "Thirteen Strokes", lineText(rp[1], 0), "no running header")
	assert.InDelta(t, 12.65, linePitch(rp[2]), 1, "single spacing")
	reader := runTool(t, time.Minute, buildTool(t, "pdftotext"), "-layout", filepath.Join(dir, "reader.pdf"), "-")
	assert.NotContains(t, reader, "Chandler's Row")
	assert.NotContains(t, reader, "END")
	assert.Regexp(t, `(?m)^\s+\* ?\* ?\*$`, reader, "the reader's scene break")
}

// linePitch is the commonest distance between two lines of a page.
func linePitch(words []word) float64 {
	var ys []float64
	for _, w := range words {
		if len(ys) == 0 || w.y0-ys[len(ys)-1] > 2 {
			ys = append(ys, w.y0)
		}
	}
	count := map[float64]int{}
	best, bestN := 0.0, 0
	for i := 1; i < len(ys); i++ {
		d := math.Round((ys[i]-ys[i-1])*10) / 10
		if count[d]++; count[d] > bestN {
			best, bestN = d, count[d]
		}
	}
	return best
}
