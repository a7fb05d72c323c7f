package main

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// staleWithin is how soon after its start a warm `quire serve` shows
// what changed on disk while it was not running (issue 44): it answers
// from what the last session left and checks the files behind its first
// answers.
const staleWithin = time.Second

// staleTries is how many times the staleness test sets up and times a
// session before it fails: a run is retried only when it misses
// staleWithin, because the CI machine runs other packages' tests beside
// it (under Wine, every process shares one wineserver), and a moment of
// that load is not quire's cost. The best of the tries is what quire
// costs; every try is logged.
const staleTries = 3

// A warm start answers first and checks after, and nothing stale is
// shown for long: an entry changed on disk, a style rule added, and a
// chapter not open in the editor rewritten by a sync tool that kept its
// size and time, all while quire was not running, are in the hover card
// and the open chapter's diagnostics within a second of the start.
func TestAStartShowsWhatChangedWhileQuireWasNotRunning(t *testing.T) {
	// The best try: the one whose last change was shown soonest.
	var worst string
	best := time.Duration(math.MaxInt64)
	for try := 1; try <= staleTries; try++ {
		what, late := "", time.Duration(0)
		for w, at := range staleRun(t) {
			t.Logf("try %d: %s: %v after the start", try, w, at.Round(time.Millisecond))
			if at > late {
				what, late = w, at
			}
		}
		if late < best {
			worst, best = what, late
		}
		if late <= staleWithin {
			return
		}
	}
	require.LessOrEqual(t, best, staleWithin, "%s shown %v after the start in the best of %d tries", worst, best, staleTries)
}

// staleRun makes a book, leaves its cache warm with a first session,
// changes it on disk, and times the second session's hover card and
// diagnostics until each change is shown.
func staleRun(t *testing.T) map[string]time.Duration {
	t.Helper()
	book, _ := sampleProject(t)
	cacheHome := t.TempDir()
	const chapter, name = "manuscript/01-thirteen-strokes.md", "Moss Kettering"
	ctx := context.Background()

	// A first session leaves the cache warm.
	_, err := measureFirstHover(ctx, firstHoverRun{Command: serveCommand(cacheHome), Root: book, Chapter: chapter, Name: name})
	require.NoError(t, err)
	require.NoError(t, cacheFilesSaved(ctx, cacheHome, "chapters.bin", "state.bin"))

	// While quire is not running: the entry's summary changes,
	replaceIn(t, book, "codex/characters/moss-kettering.md", "Fifteen-year-old apprentice", "Sixteen-year-old apprentice")
	// the glossary comes to forbid a word of the open chapter,
	replaceIn(t, book, "codex/style/brinmouth-glossary.md", `  - {term: "tidewright"}`, "  - {avoid: \"stove\", prefer: \"range\"}\n  - {term: \"tidewright\"}")
	// and a sync tool rewrites another chapter, keeping its size and
	// time: one "Moss Kettering" there becomes "Mass Kettering".
	other := filepath.Join(book, "manuscript", "03-slack-water.md")
	info, err := os.Stat(other)
	require.NoError(t, err)
	replaceIn(t, book, "manuscript/03-slack-water.md", "Moss Kettering, who had been sulking", "Mass Kettering, who had been sulking")
	require.NoError(t, os.Chtimes(other, info.ModTime(), info.ModTime()))

	return staleSession(t, cacheHome, book, chapter, name, map[string]func(card string, diags []protocol.Diagnostic) bool{
		"the entry's new summary in the card": func(card string, _ []protocol.Diagnostic) bool {
			return strings.Contains(card, "Sixteen-year-old")
		},
		"the other chapter's new count in the card": func(card string, _ []protocol.Diagnostic) bool {
			return strings.Contains(card, "Slack Water (5)")
		},
		"the new style rule's diagnostic": func(_ string, diags []protocol.Diagnostic) bool {
			for _, d := range diags {
				if strings.Contains(d.Message, `"stove"`) {
					return true
				}
			}
			return false
		},
	})
}

// replaceIn replaces old with new in the book's file rel, once.
func replaceIn(t *testing.T, book, rel, old, new string) {
	t.Helper()
	path := filepath.Join(book, filepath.FromSlash(rel))
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Contains(t, string(data), old)
	require.NoError(t, os.WriteFile(path, []byte(strings.Replace(string(data), old, new, 1)), 0o644))
}

// staleSession starts `quire serve` warm, opens chapter, and hovers name
// until every want is met by the card and the chapter's diagnostics,
// each timed from the start of the process. It fails after 20 s.
func staleSession(t *testing.T, cacheHome, book, chapter, name string, wants map[string]func(card string, diags []protocol.Diagnostic) bool) map[string]time.Duration {
	t.Helper()
	text, err := os.ReadFile(filepath.Join(book, filepath.FromSlash(chapter)))
	require.NoError(t, err)
	pos, ok := positionOf(string(text), name)
	require.True(t, ok)
	cmd, stream, start, stop, err := startServe(serveCommand(cacheHome))
	require.NoError(t, err)
	defer stop()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	doc := protocol.DocumentURI(fileURI(filepath.Join(book, filepath.FromSlash(chapter))))
	var mu sync.Mutex
	var diags []protocol.Diagnostic
	conn := jsonrpc2.NewConn(jsonrpc2.NewStream(stream))
	conn.Go(ctx, func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		if req.Method() == protocol.MethodTextDocumentPublishDiagnostics {
			var p protocol.PublishDiagnosticsParams
			if json.Unmarshal(req.Params(), &p) == nil && p.URI == doc {
				mu.Lock()
				diags = p.Diagnostics
				mu.Unlock()
			}
		}
		return reply(ctx, nil, nil)
	})
	defer conn.Close()
	root := protocol.DocumentURI(fileURI(book))
	_, err = conn.Call(ctx, protocol.MethodInitialize, protocol.InitializeParams{
		RootURI: root, WorkspaceFolders: []protocol.WorkspaceFolder{{URI: string(root), Name: "book"}},
	}, nil)
	require.NoError(t, err)
	// How much of the time is the process's start (under Wine, most).
	t.Logf("initialize answered %v after the start", time.Since(start).Round(time.Millisecond))
	require.NoError(t, conn.Notify(ctx, protocol.MethodInitialized, protocol.InitializedParams{}))
	require.NoError(t, conn.Notify(ctx, protocol.MethodTextDocumentDidOpen, protocol.DidOpenTextDocumentParams{
		TextDocument: protocol.TextDocumentItem{URI: doc, LanguageID: "markdown", Version: 1, Text: string(text)},
	}))
	got := map[string]time.Duration{}
	card := ""
	deadline := time.Now().Add(10 * time.Second)
	for len(got) < len(wants) {
		if time.Now().After(deadline) {
			mu.Lock()
			t.Fatalf("not all shown within 10 s: %v\nthe card:\n%s\nthe diagnostics: %+v", got, card, diags)
		}
		h, err := hoverAt(ctx, conn, doc, pos)
		require.NoError(t, err, "hover; so far %v", got)
		if h != nil {
			card = h.Contents.Value
		}
		mu.Lock()
		d := diags
		mu.Unlock()
		for what, want := range wants {
			if _, seen := got[what]; !seen && want(card, d) {
				got[what] = time.Since(start)
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	_, _ = conn.Call(ctx, protocol.MethodShutdown, nil, nil)
	_ = conn.Notify(ctx, protocol.MethodExit, nil)
	_ = stream.WriteCloser.Close()
	_ = cmd.Wait()
	return got
}
