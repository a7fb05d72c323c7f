package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex/benchtest"
	"github.com/quire-ink/quire/codex/corpus"
	"github.com/quire-ink/quire/editors/editortest"
)

// The first hover as an editor sees it, measured from process start:
// spawn `quire serve`, initialize, open a chapter, and hover a name until
// the card shows its canon, then until it shows the chapter counts too;
// then wait until search is ready (the loading progress ends) and read
// the process's peak resident memory. measureFirstHover is the one
// measurement; the benchmarks below and the scale figures reuse it.

// firstHoverRun says what to measure.
type firstHoverRun struct {
	// Command is `quire serve`, its environment set (XDG_CACHE_HOME: an
	// empty folder for a cold start, a used one for a warm start).
	Command *exec.Cmd
	// Root is the book's folder, Chapter a project-relative chapter in
	// which Name is mentioned.
	Root, Chapter, Name string
	// KillAfter, when set, ends the server as an editor that kills it on
	// exit, a crash or a power cut would: once the card shows the
	// counts, KillAfter runs, then the process gets SIGKILL (no
	// shutdown, no waiting for search), and its error is the run's.
	KillAfter func(ctx context.Context) error
	// Hovers, when positive, is how many hovers follow the first whole
	// card at once, back to back over Positions in turn: what a writer
	// moving the mouse meets while the start's background work runs.
	Hovers    int
	Positions []protocol.Position
	// AfterLoad, when set, runs once search is ready and the peak read,
	// before the server is shut down: the writer's session after the
	// start (settled_bench_test.go).
	AfterLoad func(ctx context.Context, s session) error
}

// session is a measured server once its start is over: its connection,
// its process and the chapter open in it.
type session struct {
	Conn jsonrpc2.Conn
	Pid  int
	Doc  protocol.DocumentURI
	Text string
}

// firstHoverTimes are measured from the moment the process is started.
type firstHoverTimes struct {
	// Canon is when a hover on the name first showed its canon card.
	Canon time.Duration
	// Counts is when the card first showed the chapters that mention it.
	Counts time.Duration
	// SearchReady is when the loading progress ended: the search index
	// is built.
	SearchReady time.Duration
	// PeakRSS is the process's peak resident memory in bytes until then
	// (Linux; zero elsewhere).
	PeakRSS int64
	// PeakAnon and PeakFile split the highest resident memory sampled
	// (every 20 ms, so at most PeakRSS): the process's own memory, the
	// heap above all, and the pages of files it maps, the binary's and
	// the search index's. A peak that is mostly file pages is not the
	// heap's to lower.
	PeakAnon, PeakFile int64
	// Start is when the process was started, the time the others count
	// from (and the server's log lines, for startPhases).
	Start time.Time
	// Hovers are the latencies of the hovers that followed the first
	// whole card (firstHoverRun.Hovers), HoversAt when each was sent.
	Hovers, HoversAt []time.Duration
	// Ended is how the process ended (killed, after KillAfter); nil if
	// it did not end.
	Ended *os.ProcessState
}

// fileURI is the file: URI of a local path, on Windows too
// (file:///C:/…, not file://C:%5C…).
func fileURI(path string) string {
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// measureFirstHover runs one start of the server and measures it.
func measureFirstHover(ctx context.Context, run firstHoverRun) (firstHoverTimes, error) {
	var out firstHoverTimes
	text, err := os.ReadFile(filepath.Join(run.Root, filepath.FromSlash(run.Chapter)))
	if err != nil {
		return out, err
	}
	pos, ok := positionOf(string(text), run.Name)
	if !ok {
		return out, fmt.Errorf("%s does not mention %q", run.Chapter, run.Name)
	}
	cmd, stream, start, stop, err := startServe(run.Command)
	if err != nil {
		return out, err
	}
	defer stop()
	out.Start = start
	sampled := sampleMemory(cmd.Process.Pid, 20*time.Millisecond)
	defer sampled()
	stdin := stream.WriteCloser
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	conn, loadEnded := serveConn(ctx, stream, 1)
	defer conn.Close()

	root := protocol.DocumentURI(fileURI(run.Root))
	if _, err := conn.Call(ctx, protocol.MethodInitialize, protocol.InitializeParams{
		RootURI:          root,
		WorkspaceFolders: []protocol.WorkspaceFolder{{URI: string(root), Name: "book"}},
		Capabilities:     protocol.ClientCapabilities{Window: &protocol.WindowClientCapabilities{WorkDoneProgress: true}},
	}, nil); err != nil {
		return out, fmt.Errorf("initialize: %w", err)
	}
	if err := conn.Notify(ctx, protocol.MethodInitialized, protocol.InitializedParams{}); err != nil {
		return out, err
	}
	doc := protocol.DocumentURI(fileURI(filepath.Join(run.Root, filepath.FromSlash(run.Chapter))))
	if err := conn.Notify(ctx, protocol.MethodTextDocumentDidOpen, protocol.DidOpenTextDocumentParams{
		TextDocument: protocol.TextDocumentItem{URI: doc, LanguageID: "markdown", Version: 1, Text: string(text)},
	}); err != nil {
		return out, err
	}
	for out.Counts == 0 {
		h, err := hoverAt(ctx, conn, doc, pos)
		if err != nil {
			return out, fmt.Errorf("hover: %w", err)
		}
		card := ""
		if h != nil {
			card = h.Contents.Value
		}
		if strings.Contains(card, "**") {
			if out.Canon == 0 {
				out.Canon = time.Since(start)
			}
			if !strings.Contains(card, "Counting") {
				out.Counts = time.Since(start)
			}
		}
		if out.Counts == 0 {
			time.Sleep(2 * time.Millisecond)
		}
	}
	for i := range run.Hovers {
		pos := run.Positions[i%len(run.Positions)]
		t := time.Now()
		out.HoversAt = append(out.HoversAt, t.Sub(start))
		if _, err := hoverAt(ctx, conn, doc, pos); err != nil {
			return out, fmt.Errorf("hover %d: %w", i, err)
		}
		out.Hovers = append(out.Hovers, time.Since(t))
	}
	if run.KillAfter != nil {
		err := run.KillAfter(ctx)
		if kerr := cmd.Process.Kill(); err == nil && kerr != nil {
			err = fmt.Errorf("kill quire serve: %w", kerr)
		}
		_ = cmd.Wait()
		out.Ended = cmd.ProcessState
		return out, err
	}
	select {
	case <-loadEnded:
		out.SearchReady = time.Since(start)
	case <-ctx.Done():
		return out, fmt.Errorf("the book never finished loading: %w", ctx.Err())
	}
	out.PeakRSS = peakRSS(cmd.Process.Pid)
	out.PeakAnon, out.PeakFile = sampled()
	if run.AfterLoad != nil {
		if err := run.AfterLoad(ctx, session{Conn: conn, Pid: cmd.Process.Pid, Doc: doc, Text: string(text)}); err != nil {
			return out, err
		}
	}
	_, _ = conn.Call(ctx, protocol.MethodShutdown, nil, nil)
	_ = conn.Notify(ctx, protocol.MethodExit, nil)
	_ = stdin.Close()
	err = cmd.Wait()
	out.Ended = cmd.ProcessState
	if err != nil {
		return out, fmt.Errorf("quire serve: %w", err)
	}
	return out, nil
}

// hoverAt asks conn for the hover at pos in doc: nil, and no error, where
// the server answers null (no card there).
func hoverAt(ctx context.Context, conn jsonrpc2.Conn, doc protocol.DocumentURI, pos protocol.Position) (*protocol.Hover, error) {
	var h *protocol.Hover
	_, err := conn.Call(ctx, protocol.MethodTextDocumentHover, protocol.HoverParams{
		TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: doc}, Position: pos},
	}, &h)
	if err != nil && strings.Contains(err.Error(), "unexpected end of JSON input") {
		return nil, nil
	}
	return h, err
}

// startServe starts `quire serve` as template says (its program,
// arguments, environment, folder and stderr; the template itself is never
// started) with its stdout and stdin as one stream, at start; stop kills
// it unless it has ended. Under Wine, a start that fails before quire
// runs is made once more (editortest.Start says why), so cmd is the
// process that runs.
func startServe(template *exec.Cmd) (cmd *exec.Cmd, stream pipeRWC, start time.Time, stop func(), err error) {
	cmd, err = editortest.Start(log.Printf, func() (*exec.Cmd, error) {
		c := exec.Command(template.Path, template.Args[1:]...)
		c.Env, c.Dir, c.Stderr = template.Env, template.Dir, template.Stderr
		stdin, err := c.StdinPipe()
		if err != nil {
			return nil, err
		}
		stdout, err := c.StdoutPipe()
		if err != nil {
			return nil, err
		}
		stream, start = pipeRWC{stdout, stdin}, time.Now()
		return c, nil
	})
	if err != nil {
		return nil, stream, start, nil, err
	}
	return cmd, stream, start, func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	}, nil
}

// serveConn is a client connection to the server on stream; loaded is
// closed once the loading progress of books books has ended (their
// search ready).
func serveConn(ctx context.Context, stream io.ReadWriteCloser, books int) (conn jsonrpc2.Conn, loaded <-chan struct{}) {
	conn = jsonrpc2.NewConn(jsonrpc2.NewStream(stream))
	done := make(chan struct{})
	var mu sync.Mutex
	ends := 0
	conn.Go(ctx, func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		if req.Method() == protocol.MethodProgress {
			var p struct {
				Token json.RawMessage `json:"token"`
				Value struct {
					Kind string `json:"kind"`
				} `json:"value"`
			}
			if json.Unmarshal(req.Params(), &p) == nil && p.Value.Kind == "end" && strings.Contains(string(p.Token), "load") {
				mu.Lock()
				if ends++; ends == books {
					close(done)
				}
				mu.Unlock()
			}
		}
		return reply(ctx, nil, nil)
	})
	return conn, done
}

// pipeRWC joins a child's stdout and stdin into one stream.
type pipeRWC struct {
	io.ReadCloser
	io.WriteCloser
}

func (p pipeRWC) Close() error {
	return errorsJoin(p.ReadCloser.Close(), p.WriteCloser.Close())
}

func errorsJoin(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// positionOf is the LSP position (UTF-16) of the middle of the first
// mention of name in text, as a whole word.
func positionOf(text, name string) (protocol.Position, bool) {
	for from := 0; ; {
		i := strings.Index(text[from:], name)
		if i < 0 {
			return protocol.Position{}, false
		}
		i += from
		end := i + len(name)
		before, _ := utf8.DecodeLastRuneInString(text[:i])
		after, _ := utf8.DecodeRuneInString(text[end:])
		if !isLetter(before) && !isLetter(after) {
			mid := i + len(name)/2
			lineStart := strings.LastIndexByte(text[:mid], '\n') + 1
			line := strings.Count(text[:lineStart], "\n")
			char := len(utf16.Encode([]rune(text[lineStart:mid])))
			return protocol.Position{Line: uint32(line), Character: uint32(char)}, true
		}
		from = end
	}
}

func isLetter(r rune) bool {
	return r != utf8.RuneError && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > utf8.RuneSelf)
}

// peakRSS is a process's peak resident memory (VmHWM) in bytes.
func peakRSS(pid int) int64 { return benchtest.ProcStatus(pid)["VmHWM"] }

// sampleMemory reads a process's resident memory every period until the
// returned func is first called, which returns its anonymous and file
// pages when the whole was highest. The peak itself (VmHWM) can fall
// between two samples; its split is as near as the samples come.
func sampleMemory(pid int, period time.Duration) (stop func() (anon, file int64)) {
	done := make(chan struct{})
	var high, anon, file int64
	var once sync.Once
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		tick := time.NewTicker(period)
		defer tick.Stop()
		for {
			if st := benchtest.ProcStatus(pid); st["VmRSS"] > high {
				high, anon, file = st["VmRSS"], st["RssAnon"], st["RssFile"]
			}
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	return func() (int64, int64) {
		once.Do(func() { close(done) })
		<-finished
		return anon, file
	}
}

// serveCommand is `quire serve` with its cache under cacheHome: this
// test binary run as quire, or the binary QUIRE_BENCH_BIN names (to
// measure another build the same way).
func serveCommand(cacheHome string) *exec.Cmd {
	bin, env := os.Args[0], []string{asQuire + "=1"}
	if b := os.Getenv("QUIRE_BENCH_BIN"); b != "" {
		bin, env = b, nil
	}
	cmd := exec.Command(bin, "serve")
	cmd.Env = append(append(os.Environ(), env...), "XDG_CACHE_HOME="+cacheHome, "XDG_DATA_HOME="+filepath.Join(cacheHome, "data"), "LOCALAPPDATA="+cacheHome)
	cmd.Stderr = io.Discard
	// QUIRE_BENCH_STDERR names a file for the server's stderr, to read
	// its logs or GODEBUG=gctrace=1 output after a run.
	if path := os.Getenv("QUIRE_BENCH_STDERR"); path != "" {
		if f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644); err == nil {
			cmd.Stderr = f
		}
	}
	return cmd
}

// corpusMention is a chapter of the corpus and a codex name it mentions.
func corpusMention(opt corpus.Options, root string) (chapter, name string, err error) {
	chapters, err := filepath.Glob(filepath.Join(root, "manuscript", "*.md"))
	if err != nil || len(chapters) == 0 {
		return "", "", fmt.Errorf("no chapters in %s", root)
	}
	slices.Sort(chapters)
	text, err := os.ReadFile(chapters[0])
	if err != nil {
		return "", "", err
	}
	rel, _ := filepath.Rel(root, chapters[0])
	// The longest names first: a short name may be part of a longer one.
	entries := slices.Clone(corpus.Plan(opt).Entries)
	slices.SortStableFunc(entries, func(a, b corpus.Entry) int { return len(b.Name) - len(a.Name) })
	for _, e := range entries {
		if _, ok := positionOf(string(text), e.Name); ok {
			return filepath.ToSlash(rel), e.Name, nil
		}
	}
	return "", "", fmt.Errorf("%s mentions no codex name", rel)
}

// BenchmarkColdStartHover is a cold start (no cache) of `quire serve`
// on the 10k-entry, 1M-word corpus; BenchmarkWarmStartHover the same with
// the cache a previous start left; BenchmarkKilledThenStartHover the
// same with the cache left by a cold start killed with SIGKILL one
// second after its first hover (an editor that kills its server on
// exit, a crash), which issue 27 wants within 1.3x of the warm figure.
// Each reports the times from process start and the peak RSS:
//
//	go test -run '^$' -bench 'StartHover' -benchtime 5x ./cmd/quire/
func BenchmarkColdStartHover(b *testing.B) { benchFirstHover(b, startCold, 0) }

func BenchmarkWarmStartHover(b *testing.B) { benchFirstHover(b, startWarm, 0) }

func BenchmarkKilledThenStartHover(b *testing.B) { benchFirstHover(b, startAfterKill, 0) }

// BenchmarkHoversFromStart is a warm start, then a thousand hovers back
// to back from the first whole card on, over the opened chapter's
// mentions and words, while the start's background work (the check of
// the codex behind the first answers, the status, the snapshots) runs:
// their p50, p99 and slowest.
//
//	QUIRE_HOVER_ENTRIES=1000 go test -run '^$' -bench HoversFromStart -benchtime 5x ./cmd/quire/
func BenchmarkHoversFromStart(b *testing.B) { benchFirstHover(b, startWarm, 1000) }

// startKind is the cache a measured start finds.
type startKind int

const (
	startCold      startKind = iota // none
	startWarm                       // left by a start that ran to its end
	startAfterKill                  // left by a cold start killed after its first hover
)

// killDelay is how long after its first hover the cold start before a
// startAfterKill is killed.
const killDelay = time.Second

// benchFirstHover measures starts of kind, with hovers hovers after the
// first whole card. Every start runs with -v, and the benchmark logs the
// start's phases from the server's debug lines (startPhases): the median
// time since the process started at which each was logged.
func benchFirstHover(b *testing.B, kind startKind, hovers int) {
	root, chapter, name, cache := startBenchBook(b, kind)
	text, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(chapter)))
	if err != nil {
		b.Fatal(err)
	}
	positions := hoverPositions(string(text), name)
	var runs []firstHoverTimes
	var phases []map[string]time.Duration
	var lat []time.Duration
	b.ResetTimer()
	for i := range b.N {
		home := startHome(cache, kind, i)
		if kind == startAfterKill {
			b.StopTimer()
			_, err := measureFirstHover(context.Background(), firstHoverRun{Command: serveCommand(home), Root: root, Chapter: chapter, Name: name,
				KillAfter: func(ctx context.Context) error {
					select {
					case <-time.After(killDelay):
						return nil
					case <-ctx.Done():
						return ctx.Err()
					}
				},
			})
			if err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
		cmd := serveCommand(home)
		logPath := filepath.Join(b.TempDir(), "serve.log")
		f, err := os.Create(logPath)
		if err != nil {
			b.Fatal(err)
		}
		cmd.Args = append(cmd.Args, "-v")
		cmd.Stderr = f
		t, err := measureFirstHover(context.Background(), firstHoverRun{Command: cmd, Root: root, Chapter: chapter, Name: name, Hovers: hovers, Positions: positions})
		f.Close()
		if err != nil {
			b.Fatal(err)
		}
		log, err := os.ReadFile(logPath)
		if err != nil {
			b.Fatal(err)
		}
		// QUIRE_SCALE_LOG=FILE keeps each start's debug log, as in
		// BenchmarkScale.
		if keep := os.Getenv("QUIRE_SCALE_LOG"); keep != "" {
			if err := appendLog(keep, t.Start, log); err != nil {
				b.Fatal(err)
			}
		}
		phases = append(phases, startPhases(log, t.Start))
		b.Logf("run %d: canon %v counts %v", i, t.Canon.Round(time.Millisecond), t.Counts.Round(time.Millisecond))
		runs = append(runs, t)
		lat = append(lat, t.Hovers...)
		if slow := slowHovers(t, 5); slow != "" {
			b.Logf("run %d: the slowest hovers, and when they were sent: %s", i, slow)
		}
	}
	b.StopTimer()
	median := func(f func(firstHoverTimes) float64) float64 {
		v := make([]float64, len(runs))
		for i, r := range runs {
			v[i] = f(r)
		}
		return medianOf(v)
	}
	b.ReportMetric(median(func(t firstHoverTimes) float64 { return t.Canon.Seconds() * 1000 }), "canon-ms")
	b.ReportMetric(median(func(t firstHoverTimes) float64 { return t.Counts.Seconds() * 1000 }), "counts-ms")
	b.ReportMetric(median(func(t firstHoverTimes) float64 { return t.SearchReady.Seconds() * 1000 }), "search-ms")
	b.ReportMetric(median(func(t firstHoverTimes) float64 { return float64(t.PeakRSS) / (1 << 20) }), "peak-rss-MB")
	b.ReportMetric(median(func(t firstHoverTimes) float64 { return float64(t.PeakAnon) / (1 << 20) }), "peak-anon-MB")
	b.ReportMetric(median(func(t firstHoverTimes) float64 { return float64(t.PeakFile) / (1 << 20) }), "peak-file-MB")
	if len(lat) > 0 {
		slices.Sort(lat)
		at := func(q float64) float64 {
			return float64(lat[min(len(lat)-1, int(q*float64(len(lat))))]) / float64(time.Millisecond)
		}
		b.ReportMetric(at(0.50), "hover-p50-ms")
		b.ReportMetric(at(0.99), "hover-p99-ms")
		b.ReportMetric(float64(lat[len(lat)-1])/float64(time.Millisecond), "hover-max-ms")
	}
	b.Logf("the start by phase, median ms since the process started (%d runs), with the first whole card:\n%s", len(runs), phaseTable(phases, median(func(t firstHoverTimes) float64 { return t.Counts.Seconds() * 1000 })))
}

// slowHovers says the n slowest of a run's hovers after the first card
// and when each was sent, since the start.
func slowHovers(t firstHoverTimes, n int) string {
	idx := make([]int, len(t.Hovers))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return cmpFloat(float64(t.Hovers[b]), float64(t.Hovers[a])) })
	var parts []string
	for _, i := range idx[:min(n, len(idx))] {
		parts = append(parts, fmt.Sprintf("%.1f ms at %d ms", float64(t.Hovers[i])/float64(time.Millisecond), t.HoversAt[i].Milliseconds()))
	}
	return strings.Join(parts, ", ")
}

// hoverPositions are where the hovers after the first card go: every
// mention of name in text, and the start of every 25th word, so that
// most hovers find a name and some find none.
func hoverPositions(text, name string) []protocol.Position {
	var out []protocol.Position
	lines := strings.Split(text, "\n")
	for l, line := range lines {
		for from := 0; ; {
			i := strings.Index(line[from:], name)
			if i < 0 {
				break
			}
			mid := from + i + len(name)/2
			out = append(out, protocol.Position{Line: uint32(l), Character: uint32(len(utf16.Encode([]rune(line[:mid]))))})
			from += i + len(name)
		}
	}
	words := 0
	for l, line := range lines {
		inWord := false
		for i, r := range line {
			start := isLetter(r) && !inWord
			inWord = isLetter(r)
			if start {
				if words%25 == 0 {
					out = append(out, protocol.Position{Line: uint32(l), Character: uint32(len(utf16.Encode([]rune(line[:i]))))})
				}
				words++
			}
		}
	}
	return out
}

// startPhases reads a server's debug log (-v): for each message, how
// long after start its first line was written. The log's clock has
// milliseconds.
func startPhases(log []byte, start time.Time) map[string]time.Duration {
	out := map[string]time.Duration{}
	for _, line := range strings.Split(string(log), "\n") {
		ts, rest, ok := strings.Cut(strings.TrimPrefix(line, "time="), " ")
		if !ok || !strings.HasPrefix(line, "time=") {
			continue
		}
		at, err := time.Parse(time.RFC3339Nano, ts)
		if err != nil {
			continue
		}
		_, msg, ok := strings.Cut(rest, "msg=")
		if !ok {
			continue
		}
		if strings.HasPrefix(msg, `"`) {
			if end := strings.Index(msg[1:], `"`); end >= 0 {
				msg = msg[1 : end+1]
			}
		} else if sp := strings.IndexByte(msg, ' '); sp >= 0 {
			msg = msg[:sp]
		}
		if _, seen := out[msg]; !seen {
			out[msg] = at.Sub(start)
		}
	}
	return out
}

// phaseTable is the median of each phase over the runs that logged it,
// in the order of those medians, the first whole card among them.
func phaseTable(runs []map[string]time.Duration, cardMs float64) string {
	byMsg := map[string][]float64{}
	for _, r := range runs {
		for msg, d := range r {
			byMsg[msg] = append(byMsg[msg], float64(d)/float64(time.Millisecond))
		}
	}
	type row struct {
		msg string
		ms  float64
		n   int
	}
	rows := []row{{"(the first whole hover card)", cardMs, len(runs)}}
	for msg, v := range byMsg {
		slices.Sort(v)
		rows = append(rows, row{msg, v[len(v)/2], len(v)})
	}
	slices.SortFunc(rows, func(a, b row) int {
		if a.ms != b.ms {
			return cmpFloat(a.ms, b.ms)
		}
		return strings.Compare(a.msg, b.msg)
	})
	var w strings.Builder
	for _, r := range rows {
		fmt.Fprintf(&w, "  %7.0f ms  %s", r.ms, r.msg)
		if r.n < len(runs) {
			fmt.Fprintf(&w, " (%d of %d runs)", r.n, len(runs))
		}
		w.WriteString("\n")
	}
	return w.String()
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// appendLog adds a start's log to the file at path, after a line that
// says when the start began.
func appendLog(path string, start time.Time, log []byte) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	fmt.Fprintf(f, "--- start %s\n", start.Format(time.StampMicro))
	_, err = f.Write(log)
	return errors.Join(err, f.Close())
}

// The measurement itself works: on the sample book the card shows canon,
// then counts, then search is ready, in that order.
func TestMeasureFirstHoverOnTheSampleBook(t *testing.T) {
	book, _ := sampleProject(t)
	text, err := os.ReadFile(filepath.Join(book, "manuscript", "01-thirteen-strokes.md"))
	require.NoError(t, err)
	require.True(t, bytes.Contains(text, []byte("Moss Kettering")), "the sample's first chapter mentions Moss Kettering")
	got, err := measureFirstHover(context.Background(), firstHoverRun{
		Command: serveCommand(t.TempDir()), Root: book, Chapter: "manuscript/01-thirteen-strokes.md", Name: "Moss Kettering",
	})
	require.NoError(t, err)
	assert.Positive(t, got.Canon)
	assert.GreaterOrEqual(t, got.Counts, got.Canon)
	assert.GreaterOrEqual(t, got.SearchReady, got.Canon)
	if runtime.GOOS == "linux" { // VmHWM; Wine shows Linux's /proc too
		assert.Positive(t, got.PeakRSS)
		assert.Positive(t, got.PeakAnon)
		assert.Positive(t, got.PeakFile)
		assert.LessOrEqual(t, got.PeakAnon+got.PeakFile, got.PeakRSS, "a sample's pages are at most the peak")
	}
}
