package server

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/server/textdoc"
	"github.com/quire-ink/quire/server/wire"
)

// editDeadline is how long a burst of typing may take in all, with the
// race detector on a busy machine. Before edits were coalesced, the
// chapter test's 2,000 keystrokes took about 5 minutes (a full scan of
// the 3 MB chapter each), and 10,000 in an 11 MB chapter over 14.
const editDeadline = 3 * time.Minute

// scanCounter counts the texts handed to the book, by path.
type scanCounter struct {
	mu    sync.Mutex
	count map[string]int
}

func (s *scanCounter) synced(rel string, _ int32) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.count == nil {
		s.count = map[string]int{}
	}
	s.count[rel]++
}

func (s *scanCounter) of(rel string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.count[rel]
}

// diagnosticsSent counts the diagnostics the client got for uri.
func (c *testClient) diagnosticsSent(uri protocol.DocumentURI) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, r := range c.notes {
		var p protocol.PublishDiagnosticsParams
		if r.method == protocol.MethodTextDocumentPublishDiagnostics && json.Unmarshal(r.params, &p) == nil && p.URI == uri {
			n++
		}
	}
	return n
}

// typeText sends one didChange per character of typed, inserted at
// line, col onwards, with versions from first on; it returns the next
// version. It fails the test once the deadline has passed.
func typeText(t *testing.T, c *testClient, rel string, line, col uint32, typed string, first int32, deadline time.Time) int32 {
	t.Helper()
	v := first
	for i, ch := range typed {
		c.notifyServer(protocol.MethodTextDocumentDidChange, typeAt(c.uri(rel), v, line, col+uint32(i), string(ch)))
		v++
		if i%100 == 0 && time.Now().After(deadline) {
			t.Fatalf("%d of %d keystrokes sent when the deadline passed", i, len(typed))
		}
	}
	return v
}

// coalesced bounds the full scans (and publications) that keystrokes
// typed without pause, over the time typing, may cost. Coalescing
// scans once per pause of the diagnostics' debounce (100 ms) the server
// sees, and a busy machine makes pauses of its own: an idle one shows
// 5–10 for 2,000 keystrokes, Wine on a loaded 2-core CI machine showed
// 46 and, once, 159 in a typing that took over a minute. So the bound
// is one per debounce of the typing's time (at least 20, with the
// opening and the last request), and never more than one per four
// keystrokes: a scan per keystroke, the fault this guards against, is
// 2,000 however slow the machine.
func coalesced(keystrokes int, typing time.Duration) int {
	return min(keystrokes/4, max(20, int(typing/diagnosticPrepare)+3))
}

func TestRapidEditsInALargeChapterAreCoalesced(t *testing.T) {
	deadline := time.Now().Add(editDeadline)
	var scans scanCounter
	files := map[string]string{}
	for k, v := range bookFiles {
		files[k] = v
	}
	const rel = "manuscript/03-long.md"
	text := largeChapter(3 << 20)
	files[rel] = text
	c := startServer(t, Options{synced: scans.synced})
	c.initialize(writeProject(t, files))
	c.open(rel, text)
	uri := c.uri(rel)
	c.waitVersion(rel, 1)

	// 2,000 keystrokes at the start of a line in the middle: the last
	// nine type a name.
	lines := strings.Split(text, "\n")
	line := uint32(len(lines) / 2)
	typed := strings.Repeat("tide ", 398) + "Ilse Dorn "
	require.Len(t, typed, 2000)
	start := time.Now()
	last := typeText(t, c, rel, line, 0, typed, 2, deadline) - 1
	lines[line] = typed + lines[line]
	want := strings.Join(lines, "\n")

	// A request after the typing sees all of it: the name typed last is
	// found, in the text the manuscript holds.
	h := c.hoverAt(rel, line, 1992)
	require.NotNil(t, h, "hover on the name typed last")
	assert.Contains(t, h.Contents.Value, "**Ilse Dorn**")
	var sel manuscript.SelectionMeta
	c.call(wire.MethodCaptureSelection, wire.CaptureParams{URI: uri, Range: protocol.Range{
		Start: protocol.Position{Line: line}, End: protocol.Position{Line: line + 1},
	}}, &sel)
	assert.Equal(t, codex.HashText(lines[line]+"\n"), sel.Hash, "the edited line as typed")
	assert.Equal(t, manuscript.CountWords(want), sel.SourceWords, "the manuscript holds the final text")

	// The diagnostics of the last version come once the typing stops.
	c.waitVersion(rel, uint32(last))
	require.False(t, time.Now().After(deadline), "the typing and its diagnostics took longer than %v", editDeadline)
	bound := coalesced(len(typed), time.Since(start))

	// The chapter was scanned once on opening and a few times after (a
	// pause the debounce saw, the hover), not once a keystroke.
	t.Logf("%d full scans of the chapter in %v (bound %d)", scans.of(rel), time.Since(start).Round(time.Millisecond), bound)
	assert.LessOrEqual(t, scans.of(rel), bound, "full scans of the chapter for 2,000 keystrokes")
	assert.LessOrEqual(t, c.diagnosticsSent(uri), bound, "diagnostics published for 2,000 keystrokes")
}

func TestRapidEditsToACodexNameAreCoalesced(t *testing.T) {
	deadline := time.Now().Add(editDeadline)
	var scans scanCounter
	files := map[string]string{}
	for k, v := range bookFiles {
		files[k] = v
	}
	// A large book, so that finding the names in it again per keystroke
	// would show.
	files["manuscript/03-long.md"] = largeChapter(2<<20) + "The Lamplighter of the north quay waved.\n"
	const rel = "codex/characters/mara-vell.md"
	c := startServer(t, Options{synced: scans.synced})
	c.initialize(writeProject(t, files))
	c.open(rel, files[rel])
	c.waitVersion(rel, 1)

	// The writer adds an alias to Mara, one keystroke at a time: each
	// one changes her names.
	at := strings.Index(files[rel], "the Harbor Witch") + len("the Harbor Witch")
	lines := textdoc.NewLines(files[rel])
	p := lines.Position(at)
	typed := strings.Repeat(", M", 150) + ", the Lamplighter"
	start := time.Now()
	last := typeText(t, c, rel, p.Line, p.Character, typed, 2, deadline) - 1

	// Hover in the chapter finds her by the new alias: the names of the
	// last version are the book's.
	var h *protocol.Hover
	require.Eventually(t, func() bool {
		h = c.hoverAt("manuscript/03-long.md", uint32(strings.Count(files["manuscript/03-long.md"], "\n")-1), 6)
		return h != nil && strings.Contains(h.Contents.Value, "**Mara Vell**")
	}, time.Until(deadline), 20*time.Millisecond, "hover on the alias typed last")
	c.waitVersion(rel, uint32(last))
	bound := coalesced(len(typed), time.Since(start))
	assert.LessOrEqual(t, scans.of(rel), bound, "the entry taken for %d keystrokes", len(typed))
	assert.LessOrEqual(t, c.diagnosticsSent(c.uri(rel)), bound)
}
