package progress

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// clock is a settable clock for midnight tests.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func at(s string) time.Time {
	t, err := time.Parse("2006-01-02 15:04", s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestGrossAndNetAfterADeletion(t *testing.T) {
	c := &clock{at("2026-11-27 09:00")}
	s := New(Options{Path: filepath.Join(t.TempDir(), FileName), Now: c.now})
	s.Observe(map[string]int{"manuscript/01.md": 1000, "manuscript/02.md": 500})
	s.Observe(map[string]int{"manuscript/01.md": 1300, "manuscript/02.md": 500})
	// A paragraph of 200 words deleted: the net falls, the gross keeps
	// the 300 written.
	s.Observe(map[string]int{"manuscript/01.md": 1100, "manuscript/02.md": 500})
	s.Observe(map[string]int{"manuscript/01.md": 1100, "manuscript/02.md": 550})
	require.NoError(t, s.Flush(context.Background()))
	d := s.History().Day("2026-11-27")
	assert.Equal(t, Day{Date: "2026-11-27", First: 1500, Last: 1650, Net: 150, Gross: 350}, d)
}

func TestFirstSightIsABaseline(t *testing.T) {
	c := &clock{at("2026-11-27 09:00")}
	s := New(Options{Path: filepath.Join(t.TempDir(), FileName), Now: c.now})
	s.Observe(map[string]int{"a.md": 80000})
	require.NoError(t, s.Flush(context.Background()))
	assert.Equal(t, Day{Date: "2026-11-27", First: 80000, Last: 80000}, s.History().Day("2026-11-27"))
	// A chapter renamed is not words written: the new name is a
	// baseline, the old one gone.
	s.Observe(map[string]int{"b.md": 80000})
	assert.Equal(t, Day{Date: "2026-11-27", First: 80000, Last: 80000}, s.History().Day("2026-11-27"))
}

// Two quire processes one after the other, the second past midnight:
// yesterday keeps its words, today starts from yesterday's last count,
// and nothing is counted twice.
func TestHistoryAcrossProcessesAndMidnight(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	c := &clock{at("2026-11-26 22:00")}
	first := New(Options{Path: path, Now: c.now})
	first.Observe(map[string]int{"01.md": 2000})
	c.t = at("2026-11-26 23:50")
	first.Observe(map[string]int{"01.md": 2600})
	c.t = at("2026-11-27 00:10")
	// Typed after midnight in the same process: today's.
	first.Observe(map[string]int{"01.md": 2700})
	require.NoError(t, first.Close(context.Background()))
	assert.Equal(t, 700, first.Session(), "the first process saw 700 words added, across midnight")

	c.t = at("2026-11-27 08:00")
	second := New(Options{Path: path, Now: c.now})
	// The second process sees the file as the first left it: no rise.
	second.Observe(map[string]int{"01.md": 2700})
	second.Observe(map[string]int{"01.md": 3000})
	require.NoError(t, second.Close(context.Background()))
	assert.Equal(t, 300, second.Session(), "a session is one process's life")

	h := New(Options{Path: path, Now: c.now}).History()
	assert.Equal(t, []Day{
		{Date: "2026-11-26", First: 2000, Last: 2600, Net: 600, Gross: 600},
		{Date: "2026-11-27", First: 2600, Last: 3000, Net: 400, Gross: 400},
	}, h.Days)
	assert.Equal(t, map[string]int{"01.md": 3000}, h.Chapters)
}

// The editor's unsaved text, then the save, then a `quire stats` run
// seeing the same text from disk: one rise, counted once.
func TestSightsOfTheSameTextAreNotCountedTwice(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	c := &clock{at("2026-11-27 10:00")}
	serve := New(Options{Path: path, Now: c.now})
	serve.Observe(map[string]int{"01.md": 100})
	serve.Observe(map[string]int{"01.md": 400}) // unsaved text
	require.NoError(t, serve.Flush(context.Background()))
	stats := New(Options{Path: path, Now: c.now})
	stats.Observe(map[string]int{"01.md": 400}) // the saved file
	require.NoError(t, stats.Flush(context.Background()))
	serve.Observe(map[string]int{"01.md": 400}) // the save, seen by the server
	require.NoError(t, serve.Flush(context.Background()))
	assert.Equal(t, Day{Date: "2026-11-27", First: 100, Last: 400, Net: 300, Gross: 300}, stats.History().Day("2026-11-27"))
}

func TestObserveWritesInTheBackground(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	s := New(Options{Path: path, Debounce: 10 * time.Millisecond})
	s.Observe(map[string]int{"01.md": 10})
	// Waited for by what another reader sees, not by the file's being
	// there: under Wine a read right as the file appeared found nothing
	// (CI's Windows run, once).
	total := 0
	require.Eventually(t, func() bool {
		total = New(Options{Path: path}).History().Total()
		return total == 10
	}, 5*time.Second, 5*time.Millisecond, "the history another reader sees holds %d words", total)
}

// After Close, a late sight arms no write: nothing outlives the owner.
func TestNoWriteAfterClose(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	s := New(Options{Path: path, Debounce: time.Millisecond})
	require.NoError(t, s.Close(context.Background()))
	s.Observe(map[string]int{"a.md": 10})
	time.Sleep(50 * time.Millisecond)
	assert.NoFileExists(t, path)
	assert.Equal(t, 10, s.History().Total(), "the sight is kept in memory")
}

func TestDamagedFileStartsAfresh(t *testing.T) {
	for name, content := range map[string]string{
		"not JSON":       "{\"version\": 1, \"days\": [",
		"other version":  `{"version": 99, "days": [], "chapters": {"a.md": 5}}`,
		"wrong shapes":   `{"version": 1, "days": {"x": 1}, "chapters": []}`,
		"binary garbage": "\x00\xff\xfe",
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), FileName)
			require.NoError(t, os.WriteFile(path, []byte(content), 0o600))
			var logs bytes.Buffer
			c := &clock{at("2026-11-27 10:00")}
			s := New(Options{Path: path, Now: c.now, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
			s.Observe(map[string]int{"a.md": 50})
			require.NoError(t, s.Flush(context.Background()))
			assert.Contains(t, logs.String(), "starting afresh")
			assert.Equal(t, Day{Date: "2026-11-27", First: 50, Last: 50}, New(Options{Path: path}).History().Day("2026-11-27"))
		})
	}
}

func TestHandEditedFileIsKeptInBounds(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	require.NoError(t, os.WriteFile(path, []byte(`{"version": 1, "days": [
		{"date": "2026-11-02", "first": 5, "last": 9, "gross": 4},
		{"date": "2026-11-01", "first": 1, "last": 2, "gross": 1},
		{"date": "soon", "first": 1, "last": 2},
		{"date": "2026-11-03", "first": -7, "last": 3, "gross": -1}],
		"chapters": {"a.md": -5}}`), 0o600))
	h := New(Options{Path: path}).History()
	assert.Equal(t, []Day{{Date: "2026-11-02", First: 5, Last: 9, Net: 4, Gross: 4}, {Date: "2026-11-03", First: 0, Last: 3, Net: 3}}, h.Days)
	assert.Equal(t, map[string]int{"a.md": 0}, h.Chapters)
}

func TestDaysAreBounded(t *testing.T) {
	c := &clock{at("2025-01-01 10:00")}
	s := New(Options{Path: filepath.Join(t.TempDir(), FileName), Now: c.now})
	for i := range MaxDays + 50 {
		s.Observe(map[string]int{"a.md": i})
		c.t = c.t.AddDate(0, 0, 1)
	}
	require.NoError(t, s.Flush(context.Background()))
	h := s.History()
	require.Len(t, h.Days, MaxDays)
	assert.Equal(t, DateOf(c.t.AddDate(0, 0, -1)), h.Days[len(h.Days)-1].Date)
}

// Seeing the same counts again writes nothing: a server's exit after a
// quiet spell leaves the file alone.
func TestSameSightWritesNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	c := &clock{at("2026-11-27 10:00")}
	s := New(Options{Path: path, Now: c.now})
	s.Observe(map[string]int{"a.md": 10})
	require.NoError(t, s.Flush(context.Background()))
	// What the file said is kept here; with the file gone, a write would
	// make it again.
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	other := New(Options{Path: path, Now: c.now})
	require.NoError(t, os.Remove(path))
	require.NoError(t, os.WriteFile(path, data, 0o600))
	info, err := os.Stat(path)
	require.NoError(t, err)
	other.Observe(map[string]int{"a.md": 10})
	require.NoError(t, other.Flush(context.Background()))
	after, err := os.Stat(path)
	require.NoError(t, err)
	assert.True(t, os.SameFile(info, after), "the file was not replaced")
	other.Observe(map[string]int{"a.md": 12})
	require.NoError(t, other.Flush(context.Background()))
	after, err = os.Stat(path)
	require.NoError(t, err)
	assert.False(t, os.SameFile(info, after), "a change replaces the file")
}

// A removed cache folder is not made again for the history.
func TestRemovedFolderIsNotMadeAgain(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "book-cache")
	s := New(Options{Path: filepath.Join(dir, FileName)})
	s.Observe(map[string]int{"a.md": 10})
	require.Error(t, s.Flush(context.Background()))
	assert.NoDirExists(t, dir)
}

// A write that fails keeps its sights: the next write lands them.
func TestFailedWriteKeepsTheSights(t *testing.T) {
	dir := t.TempDir()
	blocker := filepath.Join(dir, "blocker")
	require.NoError(t, os.WriteFile(blocker, nil, 0o600))
	c := &clock{at("2026-11-27 10:00")}
	s := New(Options{Path: filepath.Join(blocker, FileName), Now: c.now})
	s.Observe(map[string]int{"a.md": 10})
	s.Observe(map[string]int{"a.md": 30})
	require.Error(t, s.Flush(context.Background()), "a file where the folder should be")
	s.Observe(map[string]int{"a.md": 35})
	assert.Equal(t, Day{Date: "2026-11-27", First: 10, Last: 35, Net: 25, Gross: 25}, s.History().Day("2026-11-27"))
}
