package dialogue

import (
	"compress/gzip"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
)

// prideAndPrejudice is the whole novel (121,561 words), which the name
// benchmark keeps, with a cast a writer might give it.
func prideAndPrejudice(tb testing.TB) (string, []*codex.Entry) {
	tb.Helper()
	f, err := os.Open("../namebench/testdata/pride-and-prejudice.txt.gz")
	require.NoError(tb, err)
	defer f.Close()
	zr, err := gzip.NewReader(f)
	require.NoError(tb, err)
	b, err := io.ReadAll(zr)
	require.NoError(tb, err)
	var entries []*codex.Entry
	for i, fm := range []string{
		"name: Elizabeth Bennet\naliases: [Elizabeth, Lizzy, Eliza, Miss Elizabeth Bennet]\ngender: female",
		"name: Jane Bennet\naliases: [Jane, Miss Bennet]\ngender: female",
		"name: Fitzwilliam Darcy\naliases: [Darcy, Mr. Darcy]\ngender: male",
		"name: Charles Bingley\naliases: [Bingley, Mr. Bingley]\ngender: male",
		"name: Mr. Bennet\ngender: male",
		"name: Mrs. Bennet\ngender: female",
		"name: Lydia Bennet\naliases: [Lydia]\ngender: female",
		"name: Kitty Bennet\naliases: [Kitty, Catherine]\ngender: female",
		"name: Mary Bennet\naliases: [Mary]\ngender: female",
		"name: George Wickham\naliases: [Wickham, Mr. Wickham]\ngender: male",
		"name: William Collins\naliases: [Collins, Mr. Collins]\ngender: male",
		"name: Charlotte Lucas\naliases: [Charlotte]\ngender: female",
		"name: Lady Catherine de Bourgh\naliases: [Lady Catherine]\ngender: female",
		"name: Caroline Bingley\naliases: [Miss Bingley]\ngender: female",
		"name: Mrs. Gardiner\ngender: female",
		"name: Mr. Gardiner\ngender: male",
	} {
		e, _ := codex.Parse("codex/characters/c"+string(rune('a'+i))+".md", []byte("---\n"+fm+"\n---\n"), codex.TypeCharacter)
		entries = append(entries, e)
	}
	return string(b), entries
}

// BenchmarkAnalyzeNovel attributes the whole of Pride and Prejudice as
// one text, its mentions found beforehand (the server has them from its
// mention index): the budget is 150 ms for 120,000 words.
func BenchmarkAnalyzeNovel(b *testing.B) {
	text, entries := prideAndPrejudice(b)
	ch := Chapter{Text: text, Body: codex.Range{End: len(text)}, Mentions: manuscript.NewMatcherOf(entries).ScanAll(text)}
	cast := NewCast(entries)
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for range b.N {
		Analyze(ch, cast, Options{})
	}
}

// BenchmarkAnalyzeChapter attributes a 5,000-word stretch of the novel,
// a long chapter's worth.
func BenchmarkAnalyzeChapter(b *testing.B) {
	text, entries := prideAndPrejudice(b)
	text = chapterOf(text, 5000)
	ch := Chapter{Text: text, Body: codex.Range{End: len(text)}, Mentions: manuscript.NewMatcherOf(entries).ScanAll(text)}
	cast := NewCast(entries)
	b.ResetTimer()
	for range b.N {
		Analyze(ch, cast, Options{})
	}
}

// chapterOf is the first n words of the novel's dialogue-heavy middle,
// cut at a paragraph.
func chapterOf(text string, n int) string {
	start := len(text)/3 + strings.Index(text[len(text)/3:], "\n\n") + 2
	words := 0
	for i := start; i < len(text); i++ {
		if text[i] == ' ' || text[i] == '\n' {
			words++
		}
		if words >= n && strings.HasPrefix(text[i:], "\n\n") {
			return text[start:i]
		}
	}
	return text[start:]
}

// BenchmarkAttributeAfterEdit is what an edit of a 5,000-word chapter
// costs the server's dialogue: its speech found and attributed again,
// whole (the server keeps the result per version of the chapter), with
// the names the mention index found. Percentiles over the edits.
func BenchmarkAttributeAfterEdit(b *testing.B) {
	text, entries := prideAndPrejudice(b)
	text = chapterOf(text, 5000)
	m := manuscript.NewMatcherOf(entries)
	cast := NewCast(entries)
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		// An edit: a word typed into the middle of the chapter. Its
		// names are scanned by the mention index, which the server keeps
		// for every version; attribution reads them from there.
		b.StopTimer()
		at := len(text) / 2
		edited := text[:at] + strconv.Itoa(i%10) + text[at:]
		mentions := m.Scan(edited)
		b.StartTimer()
		start := time.Now()
		Analyze(Chapter{Text: edited, Body: codex.Range{End: len(edited)}, Mentions: mentions}, cast, Options{})
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(lat)
	at := func(q float64) float64 {
		return float64(lat[min(len(lat)-1, int(q*float64(len(lat))))]) / float64(time.Microsecond)
	}
	b.ReportMetric(at(0.50), "p50-µs")
	b.ReportMetric(at(0.99), "p99-µs")
}
