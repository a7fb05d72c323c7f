package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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

// TestBuildManuscriptNeedsTheWriter: without build: author and contact
// the manuscript preset says what to add; the reader's preset builds.
func TestBuildManuscriptNeedsTheWriter(t *testing.T) {
	book, cache := sampleProject(t)
	require.NoError(t, os.WriteFile(filepath.Join(book, "quire.yaml"), []byte("title: The Thirteenth Bell\nbuild:\n  surname: Halloway\n  paper: legal\n"), 0o644))
	_, _, err := run(t, "build", "--project", book, cache, "-o", filepath.Join(t.TempDir(), "m.docx"))
	require.ErrorIs(t, err, export.ErrSettings)
	for _, want := range []string{`quire.yaml: line 4: build: paper is letter or a4, not "legal"`, "line 3: build: author is not set", "line 3: build: contact is not set"} {
		assert.Contains(t, err.Error(), want)
	}
	require.NoError(t, os.WriteFile(filepath.Join(book, "quire.yaml"), []byte("title: The Thirteenth Bell\n"), 0o644))
	res := buildJSON(t, book, cache, "--preset", "reader", "-o", filepath.Join(t.TempDir(), "r.docx"))
	assert.Equal(t, export.Reader, res.Preset)

	_, _, err = run(t, "build", "--project", book, cache, "--format", "pdf")
	assert.ErrorContains(t, err, `unknown format "pdf"`)
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
