package main

import (
	"archive/zip"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex/settings"
	"github.com/quire-ink/quire/codex/testhome"
	"github.com/quire-ink/quire/manuscript/export"
)

var updateBuild = flag.Bool("update-build", false, "rewrite the golden files in testdata/build")

// buildJSON runs quire build --json with args in book and reads its report.
func buildJSON(t *testing.T, book, cache string, args ...string) export.Result {
	t.Helper()
	out, stderr, err := run(t, append([]string{"build", "--json", "--project", book, cache}, args...)...)
	require.NoError(t, err, stderr)
	var res export.Result
	require.NoError(t, json.Unmarshal([]byte(out), &res), out)
	return res
}

// TestBuildGolden builds the sample book as one Markdown and one HTML
// file and holds them to testdata/build (go test -run TestBuildGolden
// -update-build ./cmd/quire rewrites them).
func TestBuildGolden(t *testing.T) {
	book, cache := sampleProject(t)
	for _, format := range []string{"md", "html"} {
		t.Run(format, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "sample."+format)
			res := buildJSON(t, book, cache, "--format", format, "-o", out)
			assert.Equal(t, 5, res.Chapters)
			assert.Equal(t, export.Reader, res.Preset)
			got, err := os.ReadFile(out)
			require.NoError(t, err)
			golden := filepath.Join("testdata", "build", "sample."+format)
			if *updateBuild {
				require.NoError(t, os.WriteFile(golden, got, 0o644))
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err)
			assert.Equal(t, string(want), string(got))
			for _, leak := range []string{"<!--", "[[", "pov:", "location: Harbor Tally", "sample note"} {
				assert.NotContains(t, string(got), leak)
			}
		})
	}
}

// TestBuildWritesOutsideTheBook: with no -o the file goes to the cache
// folder and the book is untouched; -o may name a file in the book,
// because the writer chose it.
func TestBuildWritesOutsideTheBook(t *testing.T) {
	book, cache := sampleProject(t)
	before := tree(t, book)
	res := buildJSON(t, book, cache, "--format", "epub")
	assert.Equal(t, "the-thirteenth-bell.epub", filepath.Base(res.Path))
	assert.True(t, strings.HasPrefix(res.Path, strings.TrimPrefix(cache, "--cache-dir=")), res.Path)
	assert.Equal(t, before, tree(t, book))

	inBook := filepath.Join(book, "out", "draft.md")
	res = buildJSON(t, book, cache, "--format", "md", "-o", inBook)
	assert.Equal(t, inBook, res.Path)
	assert.FileExists(t, inBook)
}

// TestBuildIsDeterministic: the same book builds the same bytes.
func TestBuildIsDeterministic(t *testing.T) {
	book, cache := sampleProject(t)
	for _, format := range []string{"docx", "epub"} {
		dir := t.TempDir()
		one := buildJSON(t, book, cache, "--format", format, "-o", filepath.Join(dir, "one."+format))
		two := buildJSON(t, book, cache, "--format", format, "-o", filepath.Join(dir, "two."+format))
		a, err := os.ReadFile(one.Path)
		require.NoError(t, err)
		b, err := os.ReadFile(two.Path)
		require.NoError(t, err)
		assert.Equal(t, a, b, format)
	}
}

// TestBuildChapters builds the chapters named, in reading order.
func TestBuildChapters(t *testing.T) {
	book, cache := sampleProject(t)
	out := filepath.Join(t.TempDir(), "two.md")
	res := buildJSON(t, book, cache, "--format", "md", "-o", out, "3", "manuscript/01-thirteen-strokes.md")
	assert.Equal(t, 2, res.Chapters)
	got, err := os.ReadFile(out)
	require.NoError(t, err)
	one, three := strings.Index(string(got), "## Thirteen Strokes"), strings.Index(string(got), "## Slack Water")
	assert.True(t, one >= 0 && three > one, "chapter 1 before chapter 3:\n%s", got)

	_, _, err = run(t, "build", "--project", book, cache, "--format", "md", "-o", out, "no such chapter")
	require.Error(t, err)
}

// TestBuildManuscriptWithoutTheWriter: a bad build: value stops the
// build at its line; without build: author and contact the manuscript
// is built all the same, with placeholders plain to see and a warning
// naming each setting; the reader's preset needs neither.
func TestBuildManuscriptWithoutTheWriter(t *testing.T) {
	book, cache := sampleProject(t)
	require.NoError(t, os.WriteFile(filepath.Join(book, "quire.yaml"), []byte("title: The Thirteenth Bell\nbuild:\n  surname: Halloway\n  paper: legal\n"), 0o644))
	_, _, err := run(t, "build", "--project", book, cache, "-o", filepath.Join(t.TempDir(), "m.docx"))
	require.ErrorIs(t, err, export.ErrSettings)
	assert.Contains(t, err.Error(), `quire.yaml: line 4: build: paper is letter or a4, not "legal"`)

	require.NoError(t, os.WriteFile(filepath.Join(book, "quire.yaml"), []byte("title: The Thirteenth Bell\nbuild:\n  surname: Halloway\n"), 0o644))
	out, stderr, err := run(t, "build", "--project", book, cache, "-o", filepath.Join(t.TempDir(), "m.docx"))
	require.NoError(t, err, stderr)
	path := strings.TrimSpace(out)
	assert.Contains(t, stderr, `quire: warning: quire.yaml: line 3: build: author is not set, so the manuscript shows "Your Name"`)
	assert.Contains(t, stderr, "quire: warning: quire.yaml: line 3: build: contact is not set")
	doc := zipText(t, path, "word/document.xml")
	assert.Contains(t, doc, ">Your Name<")
	assert.Contains(t, doc, ">Your email<")

	require.NoError(t, os.WriteFile(filepath.Join(book, "quire.yaml"), []byte("title: The Thirteenth Bell\n"), 0o644))
	res := buildJSON(t, book, cache, "--preset", "reader", "-o", filepath.Join(t.TempDir(), "r.docx"))
	assert.Equal(t, export.Reader, res.Preset)
	assert.Empty(t, res.Warnings)

	_, _, err = run(t, "build", "--project", book, cache, "--format", "pdf")
	assert.ErrorContains(t, err, `unknown format "pdf"`)
}

// TestBuildWarnsOfParagraphsALine: a chapter pasted from a word
// processor, its paragraphs a line each with no blank line between, is
// built all the same, and the build says it ran them together and where.
func TestBuildWarnsOfParagraphsALine(t *testing.T) {
	book, cache := sampleProject(t)
	long := strings.Repeat("Teodora counted the hulls as the tide turned under the harbor light. ", 3)
	pasted := filepath.Join(book, "manuscript", "04-pasted.md")
	require.NoError(t, os.WriteFile(pasted, []byte("# Pasted\n\n"+long+"\n"+long+"\n"+long+"\n"), 0o644))
	_, stderr, err := run(t, "build", "--project", book, cache, "--format", "md", "-o", filepath.Join(t.TempDir(), "b.md"))
	require.NoError(t, err, stderr)
	assert.Contains(t, stderr, "quire: warning: 1 chapter sets its paragraphs one to a line with no blank line between them (manuscript/04-pasted.md), so they run together in this build.")

	require.NoError(t, os.WriteFile(pasted, []byte("# Pasted\n\n"+long+"\n\n"+long+"\n\n"+long+"\n"), 0o644))
	_, stderr, err = run(t, "build", "--project", book, cache, "--format", "md", "-o", filepath.Join(t.TempDir(), "c.md"))
	require.NoError(t, err, stderr)
	assert.NotContains(t, stderr, "one to a line")
}

// TestInitThenBuild: a book fresh from quire init builds its standard
// manuscript at once. Its quire.yaml has build: author and contact to
// fill in, empty; the build warns of each, the file is in the
// Documents folder, and its path is the last line printed.
func TestInitThenBuild(t *testing.T) {
	home := testhome.HomeDir(t)
	docs := filepath.Join(home, "Documents")
	require.NoError(t, os.MkdirAll(docs, 0o755))

	book := filepath.Join(t.TempDir(), "salt-ledger")
	_, _, err := run(t, "init", book)
	require.NoError(t, err)
	yaml, err := os.ReadFile(filepath.Join(book, "quire.yaml"))
	require.NoError(t, err)
	assert.Contains(t, string(yaml), "build:")
	assert.Contains(t, string(yaml), "\n  author: \"\"")
	assert.Contains(t, string(yaml), "\n  contact: \"\"")

	out, stderr, err := run(t, "build", "--project", book, "--cache-dir="+t.TempDir())
	require.NoError(t, err, stderr)
	assert.Contains(t, stderr, "build: author is not set")
	assert.Contains(t, stderr, "build: contact is not set")
	assert.Contains(t, stderr, "quire: built the manuscript (DOCX, manuscript preset, 1 chapter, about 100 words):")
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	want := filepath.Join(docs, "quire", "salt-ledger", "untitled.docx")
	assert.Equal(t, want, lines[len(lines)-1], "the path, last")
	assert.FileExists(t, want)
}

// TestCheckListsBuildSettingsProblems: quire check warns of a bad build:
// value at its line; the book is not in error for it.
func TestCheckListsBuildSettingsProblems(t *testing.T) {
	book, cache := sampleProject(t)
	path := filepath.Join(book, "quire.yaml")
	old, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, []byte(strings.Replace(string(old), "build:\n", "build:\n  font: Courier\n", 1)), 0o644))
	out, _, _ := run(t, "check", "--project", book, cache, "quire.yaml")
	line := strings.Count(string(old[:strings.Index(string(old), "build:\n")]), "\n") + 2
	assert.Contains(t, out, fmt.Sprintf(`quire.yaml:%d:3: warning: build: has no setting "font"`, line))
}

// TestBuildRefusesAManuscriptWithHoles: a chapter quire cannot read
// (here UTF-16, which looks binary) stops a build of the whole book with
// the file and what to do; the chapters named still build.
func TestBuildRefusesAManuscriptWithHoles(t *testing.T) {
	book, cache := sampleProject(t)
	var wide []byte
	for _, r := range "# Wide\n\nMoss rang.\n" {
		wide = append(wide, byte(r), 0)
	}
	require.NoError(t, os.WriteFile(filepath.Join(book, "manuscript", "06-wide.md"), wide, 0o644))
	_, _, err := run(t, "build", "--project", book, cache, "--format", "md", "-o", filepath.Join(t.TempDir(), "all.md"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "the book's manuscript is not whole")
	assert.Contains(t, err.Error(), "manuscript/06-wide.md: ")
	res := buildJSON(t, book, cache, "--format", "md", "-o", filepath.Join(t.TempDir(), "one.md"), "1")
	assert.Equal(t, 1, res.Chapters)
}

// zipText is the text of one file of the zip at path.
func zipText(t *testing.T, path, name string) string {
	t.Helper()
	zr, err := zip.OpenReader(path)
	require.NoError(t, err)
	defer zr.Close()
	for _, f := range zr.File {
		if f.Name == name {
			rc, err := f.Open()
			require.NoError(t, err)
			defer rc.Close()
			b, err := io.ReadAll(rc)
			require.NoError(t, err)
			return string(b)
		}
	}
	t.Fatalf("%s holds no %s", path, name)
	return ""
}

// TestBuildDashes: a writer's -- is an em dash in the DOCX, the EPUB,
// the Markdown and the HTML by default, and build: dashes chooses
// pandoc's convention or the spaced en dash; --- is an em dash and a --
// between digits an en dash in each.
func TestBuildDashes(t *testing.T) {
	book, cache := sampleProject(t)
	require.NoError(t, os.WriteFile(filepath.Join(book, "manuscript", "06-dashes.md"), []byte(
		"# Dashes\n\nHe asked in various ways--with barefaced questions. Three---hyphens, pages 10--12.\n"), 0o644))
	settingsPath := filepath.Join(book, "quire.yaml")
	original, err := os.ReadFile(settingsPath)
	require.NoError(t, err)
	tests := []struct {
		dashes, want string
	}{
		{"", "He asked in various ways—with barefaced questions. Three—hyphens, pages 10–12."},
		{"em", "He asked in various ways—with barefaced questions. Three—hyphens, pages 10–12."},
		{"pandoc", "He asked in various ways–with barefaced questions. Three—hyphens, pages 10–12."},
		{"spaced", "He asked in various ways – with barefaced questions. Three—hyphens, pages 10–12."},
	}
	for _, tt := range tests {
		name := tt.dashes
		if name == "" {
			name = "default"
		}
		t.Run(name, func(t *testing.T) {
			text := string(original)
			if tt.dashes != "" {
				text += "  dashes: " + tt.dashes + "\n"
			}
			require.NoError(t, os.WriteFile(settingsPath, []byte(text), 0o644))
			dir := t.TempDir()
			docx := buildJSON(t, book, cache, "-o", filepath.Join(dir, "m.docx"), "6")
			assert.Contains(t, zipText(t, docx.Path, "word/document.xml"), ">"+tt.want+"<")
			epub := buildJSON(t, book, cache, "--format", "epub", "-o", filepath.Join(dir, "m.epub"), "6")
			assert.Contains(t, zipText(t, epub.Path, "EPUB/chapter-001.xhtml"), `<p class="first">`+tt.want+"</p>")
			for _, format := range []string{"md", "html"} {
				res := buildJSON(t, book, cache, "--format", format, "-o", filepath.Join(dir, "m."+format), "6")
				got, err := os.ReadFile(res.Path)
				require.NoError(t, err)
				assert.Contains(t, string(got), tt.want, format)
			}
		})
	}
}

// TestBuildOutputFolder: where a build goes when -o names no file.
// build: output in the writer's config.yaml is honoured as it stands; a
// book's own, inside the book, too; a book's own outside the book only
// once the writer trusts the book (until then the file goes to the
// default folder, and a warning says why); the default is
// quire/<book folder> in the Documents folder, never inside the book.
func TestBuildOutputFolder(t *testing.T) {
	home := testhome.HomeDir(t)
	userConfig, err := settings.UserConfigPath()
	require.NoError(t, err)
	t.Cleanup(func() { os.Remove(userConfig) })
	docs := filepath.Join(home, "Documents")
	require.NoError(t, os.MkdirAll(docs, 0o755))
	book, cache := sampleProject(t)
	settingsPath := filepath.Join(book, "quire.yaml")
	original, err := os.ReadFile(settingsPath)
	require.NoError(t, err)
	build := func(t *testing.T) (path, stderr string) {
		t.Helper()
		out, stderr, err := run(t, "build", "--project", book, cache, "--format", "epub")
		require.NoError(t, err, stderr)
		lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
		path = lines[len(lines)-1]
		assert.FileExists(t, path)
		return path, stderr
	}

	path, _ := build(t)
	assert.Equal(t, filepath.Join(docs, "quire", "book", "the-thirteenth-bell.epub"), path, "the default: the Documents folder")

	require.NoError(t, os.MkdirAll(filepath.Dir(userConfig), 0o755))
	require.NoError(t, os.WriteFile(userConfig, []byte("build:\n  output: ~/Manuscripts\n"), 0o644))
	path, _ = build(t)
	assert.Equal(t, filepath.Join(home, "Manuscripts", "the-thirteenth-bell.epub"), path, "the writer's config.yaml")

	require.NoError(t, os.WriteFile(settingsPath, append(original, "  output: drafts/out\n"...), 0o644))
	path, _ = build(t)
	assert.Equal(t, filepath.Join(book, "drafts", "out", "the-thirteenth-bell.epub"), path, "the book's own folder, inside the book")

	outside := filepath.Join(t.TempDir(), "submissions")
	require.NoError(t, os.WriteFile(settingsPath, append(original, []byte("  output: "+outside+"\n")...), 0o644))
	path, stderr := build(t)
	assert.Equal(t, filepath.Join(home, "Manuscripts", "the-thirteenth-bell.epub"), path, "a book's folder outside the book waits for trust")
	assert.Contains(t, stderr, "quire: warning: quire.yaml's build: output ("+outside+") is a folder outside the book, which quire writes to only once you trust the book (quire trust ")
	out, _, err := run(t, "trust", book)
	require.NoError(t, err)
	assert.Contains(t, out, "write the manuscripts quire build makes into the folder "+outside+" (build.output)")
	path, stderr = build(t)
	assert.Equal(t, filepath.Join(outside, "the-thirteenth-bell.epub"), path, "trusted")
	assert.NotContains(t, stderr, "warning")

	// A book that holds the Documents folder (a book in the home folder
	// itself): the default would be inside the book, so quire's cache
	// folder it is.
	require.NoError(t, os.Remove(userConfig))
	home2 := testhome.HomeDir(t)
	_, _, err = run(t, "init", "--sample", home2)
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Join(home2, "Documents"), 0o755))
	res := buildJSON(t, home2, cache, "--format", "epub")
	assert.True(t, strings.HasPrefix(res.Path, strings.TrimPrefix(cache, "--cache-dir=")), res.Path)
}

// TestBuildTakesTheLanguageOfTheProse: a book in Russian (the opening
// of Anna Karenina) whose quire.yaml does not say its language is built
// as Russian, and the build says so; a language the settings give is
// kept as given; the sample book, in English, is built as English with
// nothing said.
func TestBuildTakesTheLanguageOfTheProse(t *testing.T) {
	book := filepath.Join(t.TempDir(), "karenina")
	require.NoError(t, os.MkdirAll(filepath.Join(book, "manuscript"), 0o755))
	opening := "# 1\n\nВсе счастливые семьи похожи друг на друга, каждая несчастливая семья несчастлива по-своему.\n\n" +
		"Все смешалось в доме Облонских. Жена узнала, что муж был в связи с бывшею в их доме француженкою-гувернанткой, и объявила мужу, что не может жить с ним в одном доме. " +
		"Положение это продолжалось уже третий день и мучительно чувствовалось и самими супругами, и всеми членами семьи, и домочадцами.\n"
	require.NoError(t, os.WriteFile(filepath.Join(book, "manuscript", "01.md"), []byte(opening), 0o644))
	cache := "--cache-dir=" + filepath.Join(t.TempDir(), "cache")
	// lang is the language an EPUB's package and a DOCX's styles give.
	lang := func(file, format string) string {
		z, err := zip.OpenReader(file)
		require.NoError(t, err)
		defer z.Close()
		name, re := "EPUB/package.opf", `<dc:language>([^<]*)<`
		if format == "docx" {
			name, re = "word/styles.xml", `<w:lang w:val="([^"]*)"`
		}
		f, err := z.Open(name)
		require.NoError(t, err)
		data, err := io.ReadAll(f)
		require.NoError(t, err)
		m := regexp.MustCompile(re).FindSubmatch(data)
		require.NotNil(t, m, "%s of %s", name, file)
		return string(m[1])
	}
	for _, format := range []string{"epub", "docx"} {
		out := filepath.Join(t.TempDir(), "k."+format)
		res := buildJSON(t, book, cache, "--format", format, "-o", out)
		assert.Contains(t, res.Warnings, `The book does not say its language (build: language in quire.yaml); its prose reads as Russian, so the file is marked "ru". Set build: language to choose another.`)
		assert.Equal(t, "ru", lang(out, format))
	}

	require.NoError(t, os.WriteFile(filepath.Join(book, "quire.yaml"), []byte("build:\n  language: en-GB\n"), 0o644))
	out := filepath.Join(t.TempDir(), "k.docx")
	res := buildJSON(t, book, cache, "--format", "docx", "-o", out)
	assert.Equal(t, "en-GB", lang(out, "docx"), "the setting, not the guess")
	for _, w := range res.Warnings {
		assert.NotContains(t, w, "language")
	}

	sample, sampleCache := sampleProject(t)
	out = filepath.Join(t.TempDir(), "s.docx")
	res = buildJSON(t, sample, sampleCache, "--format", "docx", "-o", out)
	assert.Equal(t, "en-US", lang(out, "docx"))
	for _, w := range res.Warnings {
		assert.NotContains(t, w, "language")
	}
}
