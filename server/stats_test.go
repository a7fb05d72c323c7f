package server

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/server/wire"
)

// testClock is a clock a test turns past midnight while servers read it.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *testClock) set(s string) {
	t, err := time.Parse("2006-01-02 15:04", s)
	if err != nil {
		panic(err)
	}
	c.mu.Lock()
	c.t = t
	c.mu.Unlock()
}

const (
	statsChapter1 = "---\npov: Mara\ntarget: 10\n---\n# The Harbour\n\nMara waited by water.\n"
	statsChapter2 = "# The Storm\n\nRain fell on [[Mara Vell|her]] all night.\n"
)

func statsBook(t *testing.T) string {
	return writeProject(t, map[string]string{
		"quire.yaml":                 "goals:\n  target: 100\n  deadline: 2026-12-04\n  days: [mon, tue, wed, thu, fri]\n  daily: 20\n",
		"codex/characters/mara.md":   "---\ntype: character\nname: Mara Vell\n---\n# Mara Vell\n",
		"manuscript/01-harbour.md":   statsChapter1,
		"manuscript/02-the-storm.md": statsChapter2,
	})
}

func (c *testClient) stats(rel string) wire.Stats {
	c.t.Helper()
	var st wire.Stats
	params := wire.BookParams{}
	if rel != "" {
		params.URI = c.uri(rel)
	}
	c.call(wire.MethodStats, params, &st)
	return st
}

// quire/stats counts the chapters by the one rule, the editor's unsaved
// text included, and says today's work and the goals.
func TestStatsRequest(t *testing.T) {
	clock := &testClock{}
	clock.set("2026-11-27 10:00") // a Friday
	c := startServer(t, Options{now: clock.now})
	c.initialize(statsBook(t))

	st := c.stats("manuscript/01-harbour.md")
	one, two := manuscript.ChapterWords(statsChapter1), manuscript.ChapterWords(statsChapter2)
	require.Equal(t, 6, one)
	require.Equal(t, 8, two, "a wiki link counts its label")
	assert.Equal(t, one+two, st.Words)
	require.Len(t, st.Chapters, 2)
	assert.Equal(t, wire.StatsChapter{Path: "manuscript/01-harbour.md", Title: "The Harbour", Position: 1, Label: "1", Words: 6, Target: 10, Lens: "6 words · target 10"}, st.Chapters[0])
	require.NotNil(t, st.Chapter)
	assert.Equal(t, "The Harbour", st.Chapter.Title)
	assert.Equal(t, wire.StatsDay{Date: "2026-11-27", First: 14, Last: 14}, st.Today)
	assert.Equal(t, "Ch. 1 · 6 words · target 10 · today +0 of 20 · book 14 of 100", st.Status)

	// Typed, not saved: today's words and the chapter's.
	c.open("manuscript/01-harbour.md", statsChapter1)
	c.replaceText("manuscript/01-harbour.md", 2, statsChapter1+"\nThe tide came in slow and grey.\n")
	st = c.stats("manuscript/01-harbour.md")
	assert.Equal(t, 13, st.Chapter.Words)
	assert.Equal(t, 21, st.Words)
	assert.Equal(t, wire.StatsDay{Date: "2026-11-27", First: 14, Last: 21, Net: 7, Gross: 7}, st.Today)
	assert.Equal(t, "Ch. 1 · 13 words · target 10 ✓ · today +7 of 20 · book 21 of 100", st.Status)
	assert.Equal(t, 7, st.Session, "this server's words")
	assert.Contains(t, st.Message, "\nThis session: +7.\n")
	// Friday 27th, Monday 30th to Friday 4th: six writing days for 79 words.
	require.NotNil(t, st.Quota)
	assert.Equal(t, wire.StatsQuota{Left: 79, WritingDays: 6, PerDay: 14, Message: "14 words a day, Monday to Friday, to reach 100 by 4 December 2026."}, *st.Quota)

	// A deletion lowers the net, not the words written.
	c.replaceText("manuscript/01-harbour.md", 3, statsChapter1+"\nThe tide.\n")
	st = c.stats("")
	assert.Equal(t, wire.StatsDay{Date: "2026-11-27", First: 14, Last: 16, Net: 2, Gross: 7}, st.Today)
	assert.Nil(t, st.Chapter, "no document, no chapter")
	assert.Equal(t, "today +7 of 20 (net +2) · book 16 of 100", st.Status)
}

// A day's work survives the server's exit; the next server, after
// midnight, starts today where yesterday ended.
func TestStatsHistoryAcrossTwoServersAndMidnight(t *testing.T) {
	root := statsBook(t)
	cache := t.TempDir()
	clock := &testClock{}
	clock.set("2026-11-26 23:00")

	first := startServer(t, Options{CacheDir: cache, now: clock.now})
	first.initialize(root)
	first.open("manuscript/02-the-storm.md", statsChapter2)
	first.replaceText("manuscript/02-the-storm.md", 2, statsChapter2+"\nThe wind dropped at last.\n")
	assert.Equal(t, 5, first.stats("").Today.Gross)
	clock.set("2026-11-27 00:05")
	first.replaceText("manuscript/02-the-storm.md", 3, statsChapter2+"\nThe wind dropped at last. Dawn.\n")
	st := first.stats("")
	assert.Equal(t, wire.StatsDay{Date: "2026-11-27", First: 19, Last: 20, Net: 1, Gross: 1}, st.Today, "after midnight: today's")
	assert.Equal(t, 0, first.shutdown())

	clock.set("2026-11-27 09:00")
	second := startServer(t, Options{CacheDir: cache, now: clock.now})
	second.initialize(root)
	// The editor closed without saving: the book on disk is shorter
	// than the unsaved text was, which lowers the net only.
	st = second.stats("")
	assert.Equal(t, []wire.StatsDay{
		{Date: "2026-11-26", First: 14, Last: 19, Net: 5, Gross: 5},
		{Date: "2026-11-27", First: 19, Last: 14, Net: -5, Gross: 1},
	}, st.Days)
	assert.Equal(t, 2, st.Streak)
	second.open("manuscript/02-the-storm.md", statsChapter2)
	second.replaceText("manuscript/02-the-storm.md", 2, statsChapter2+"\nThe wind dropped at last. Dawn.\n")
	st = second.stats("")
	assert.Equal(t, wire.StatsDay{Date: "2026-11-27", First: 19, Last: 20, Net: 1, Gross: 7}, st.Today)
	assert.Equal(t, 6, st.Session, "a session is one server's life: the first one's words are not this one's")
}

func TestCodeLensAtTheChapterTitle(t *testing.T) {
	c := startServer(t, Options{})
	c.initialize(statsBook(t))
	lenses := func(rel string) []protocol.CodeLens {
		var out []protocol.CodeLens
		c.call(protocol.MethodTextDocumentCodeLens, protocol.CodeLensParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.uri(rel)}}, &out)
		return out
	}
	got := lenses("manuscript/01-harbour.md")
	require.Len(t, got, 1)
	assert.Equal(t, uint32(4), got[0].Range.Start.Line, "on the # heading after the front matter")
	assert.Equal(t, "6 words · target 10", got[0].Command.Title)
	assert.Equal(t, wire.CommandWordCounts, got[0].Command.Command)

	c.open("manuscript/02-the-storm.md", statsChapter2)
	c.replaceText("manuscript/02-the-storm.md", 2, "Before.\n\n"+statsChapter2)
	got = lenses("manuscript/02-the-storm.md")
	require.Len(t, got, 1)
	assert.Equal(t, uint32(2), got[0].Range.Start.Line)
	assert.Equal(t, "9 words", got[0].Command.Title, "the editor's text")

	assert.Empty(t, lenses("codex/characters/mara.md"), "a codex entry is no chapter")
	assert.Empty(t, lenses("quire.yaml"))
}

func TestWordCountsActionShowsTheSummary(t *testing.T) {
	clock := &testClock{}
	clock.set("2026-11-27 10:00")
	c := startServer(t, Options{now: clock.now})
	c.initialize(statsBook(t))
	find := func(rel string) *actionCommand {
		var actions []codeAction
		c.call(protocol.MethodTextDocumentCodeAction, protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.uri(rel)}}, &actions)
		for _, a := range actions {
			if a.Title == wordCountsActionTitle {
				return a.Command
			}
		}
		return nil
	}
	assert.Nil(t, find("codex/characters/mara.md"), "only in chapters")
	cmd := find("manuscript/01-harbour.md")
	require.NotNil(t, cmd)
	var st wire.Stats
	c.call(protocol.MethodWorkspaceExecuteCommand, map[string]any{"command": cmd.Command, "arguments": cmd.Arguments}, &st)
	msg := c.waitMessage("The Harbour")
	assert.Equal(t, strings.ReplaceAll(st.Message, "\n", " \n"), msg, "a space before each line break, for Helix")
	assert.Equal(t, strings.Join([]string{
		"The Harbour: 6 words · target 10.",
		"Book 14 of 100, in 2 chapters.",
		"Today +0 of 20.",
		"15 words a day, Monday to Friday, to reach 100 by 4 December 2026.",
	}, "\n"), st.Message)
}

func TestBadGoalsAreProblemsOfQuireYAML(t *testing.T) {
	c := startServer(t, Options{})
	root := writeProject(t, map[string]string{
		"quire.yaml":         "title: X\ngoals:\n  daily: lots\n  target: 5000\n",
		"manuscript/01-a.md": "# One\n\nWords.\n",
	})
	c.initialize(root)
	c.open("quire.yaml", "title: X\ngoals:\n  daily: lots\n  target: 5000\n")
	ds := c.waitDiagnostics(c.uri("quire.yaml"), "the bad daily goal", func(ds []protocol.Diagnostic) bool { return len(ds) > 0 })
	require.Len(t, ds, 1, "%v", ds)
	assert.Equal(t, uint32(2), ds[0].Range.Start.Line)
	assert.Contains(t, ds[0].Message, "goals: daily must be a whole number")
	assert.Equal(t, protocol.DiagnosticSeverityWarning, ds[0].Severity)
	assert.Equal(t, 5000, c.stats("").Target, "the good goal stands")
}
