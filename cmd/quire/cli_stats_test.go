package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex/count"
	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/manuscript/goals"
)

// statsJSON runs `quire stats --json` on book.
func statsJSON(t *testing.T, book, cache string) goals.Summary {
	t.Helper()
	out, stderr, err := run(t, "stats", "--project", book, cache, "--json")
	require.NoError(t, err, stderr)
	var s goals.Summary
	require.NoError(t, json.Unmarshal([]byte(out), &s), out)
	return s
}

func appendTo(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString(text)
	require.NoError(t, err)
	require.NoError(t, f.Close())
}

// Each chapter's count is the counting rule's count of its file; the
// book's is their sum; targets come from front matter and quire.yaml.
func TestStatsCountsAndTargets(t *testing.T) {
	book, cache := sampleProject(t)
	first := filepath.Join(book, "manuscript", "01-thirteen-strokes.md")
	text, err := os.ReadFile(first)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(first, []byte("---\ntarget: 800\n---\n"+strings.TrimPrefix(string(text), "---\n")), 0o600))
	appendTo(t, filepath.Join(book, "quire.yaml"), "goals:\n  target: 90000\n  deadline: 2999-12-31\n  days: [mon, tue, wed, thu, fri]\n  daily: 1000\n")
	before := tree(t, book)

	s := statsJSON(t, book, cache)
	require.Len(t, s.Chapters, 5)
	sum := 0
	for _, c := range s.Chapters {
		data, err := os.ReadFile(filepath.Join(book, filepath.FromSlash(c.Path)))
		require.NoError(t, err)
		assert.Equal(t, manuscript.ChapterWords(string(data)), c.Words, c.Path)
		sum += c.Words
	}
	assert.Equal(t, sum, s.Words)
	assert.Equal(t, 800, s.Chapters[0].Target)
	assert.Zero(t, s.Chapters[1].Target)
	assert.Equal(t, 90000, s.Target)
	assert.Equal(t, 1000, s.Daily)
	assert.Equal(t, "2999-12-31", s.Deadline)
	assert.Equal(t, []string{"monday", "tuesday", "wednesday", "thursday", "friday"}, s.WritingDays)
	require.NotNil(t, s.Quota)
	assert.Equal(t, 90000-sum, s.Quota.Left)
	assert.Contains(t, s.Quota.Message, "words a day, Monday to Friday, to reach 90,000 by 31 December 2999")

	out, _, err := run(t, "stats", "--project", book, cache)
	require.NoError(t, err)
	assert.Contains(t, out, "Thirteen Strokes")
	assert.Contains(t, out, count.Number(s.Chapters[0].Words))
	assert.Contains(t, out, "800 ✓")
	assert.Contains(t, out, "Book "+count.Number(sum)+" of 90,000, in 5 chapters.")
	assert.Contains(t, out, "to reach 90,000 by 31 December 2999.")
	assert.Equal(t, before, tree(t, book), "quire stats writes nothing into the book")
}

// Words written between two runs are today's; a deletion lowers the net
// and leaves the words added.
func TestStatsKeepsTodaysWork(t *testing.T) {
	book, cache := sampleProject(t)
	start := statsJSON(t, book, cache)
	assert.Zero(t, start.Today.Gross)
	chapter := filepath.Join(book, "manuscript", "02-the-tally-does-not-lie.md")
	original, err := os.ReadFile(chapter)
	require.NoError(t, err)
	appendTo(t, chapter, "\n"+strings.Repeat("salt ", 50)+"\n")
	after := statsJSON(t, book, cache)
	assert.Equal(t, start.Words+50, after.Words)
	assert.Equal(t, 50, after.Today.Gross)
	assert.Equal(t, 50, after.Today.Net)
	// The same text seen again adds nothing.
	assert.Equal(t, 50, statsJSON(t, book, cache).Today.Gross)

	require.NoError(t, os.WriteFile(chapter, []byte(string(original)+"\n"+strings.Repeat("salt ", 20)+"\n"), 0o600))
	cut := statsJSON(t, book, cache)
	assert.Equal(t, 50, cut.Today.Gross, "a deletion does not take back words written")
	assert.Equal(t, 20, cut.Today.Net)
	assert.Equal(t, start.Words, cut.Today.First)
	require.NotEmpty(t, cut.Days)
	assert.Equal(t, cut.Today, cut.Days[len(cut.Days)-1])
}

func TestStatsReportsABadGoal(t *testing.T) {
	book, cache := sampleProject(t)
	appendTo(t, filepath.Join(book, "quire.yaml"), "goals:\n  daily: lots\n  target: 50000\n")
	out, stderr, err := run(t, "stats", "--project", book, cache, "--json")
	require.NoError(t, err)
	assert.Contains(t, stderr, "quire.yaml: line 15: goals: daily must be a whole number")
	var s goals.Summary
	require.NoError(t, json.Unmarshal([]byte(out), &s))
	assert.Equal(t, 50000, s.Target, "the good goal stands")
	assert.Zero(t, s.Daily)
}
