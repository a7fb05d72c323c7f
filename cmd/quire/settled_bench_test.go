package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex/benchtest"
)

// The memory a writer's session keeps once the start's work is done,
// and what typing then costs: after a start at 10,000 entries and 200
// chapters has built its search index, wait settleWait, read the
// resident memory, then type settleEdits times into the open chapter
// (each edit followed by a hover on the chapter, as a writer's next
// move) and read it again,
// with the process's CPU time over the edits and the hovers' latency.
//
//	go test -run '^$' -bench 'SettledMemory' -benchtime 3x ./cmd/quire/
func BenchmarkSettledMemoryCold(b *testing.B) { benchSettled(b, startCold) }

func BenchmarkSettledMemoryWarm(b *testing.B) { benchSettled(b, startWarm) }

const (
	// settleWait is longer than the memory limit takes to be fitted
	// after the start's work (memory_limit.go).
	settleWait  = 2 * time.Second
	settleEdits = 300
	// editGap is a fast typist's pace, and time for each edit's
	// debounced work.
	editGap = 20 * time.Millisecond
)

func benchSettled(b *testing.B, kind startKind) {
	root, chapter, name, cache := startBenchBook(b, kind)
	var settled, edited, cpu []float64
	var lat []time.Duration
	b.ResetTimer()
	for i := range b.N {
		home := cache
		if kind != startWarm {
			home = filepath.Join(cache, strconv.Itoa(i))
		}
		run := firstHoverRun{Command: serveCommand(home), Root: root, Chapter: chapter, Name: name,
			AfterLoad: func(ctx context.Context, s session) error {
				time.Sleep(settleWait)
				settled = append(settled, float64(benchtest.ProcStatus(s.Pid)["VmRSS"])/(1<<20))
				before, err := processCPU(s.Pid)
				if err != nil {
					return err
				}
				// Each edit types " x" at the end of the chapter, sent as
				// editors with incremental sync send it.
				lines := strings.Split(s.Text, "\n")
				end := protocol.Position{Line: uint32(len(lines) - 1), Character: uint32(len(utf16.Encode([]rune(lines[len(lines)-1]))))}
				pos := protocol.Position{Line: uint32(len(lines) / 2)}
				for v := range settleEdits {
					if err := s.Conn.Notify(ctx, protocol.MethodTextDocumentDidChange, protocol.DidChangeTextDocumentParams{
						TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: s.Doc}, Version: int32(v + 2)},
						ContentChanges: []protocol.TextDocumentContentChangeEvent{{Range: protocol.Range{Start: end, End: end}, Text: " x"}},
					}); err != nil {
						return err
					}
					end.Character += 2
					time.Sleep(editGap)
					t := time.Now()
					var h *protocol.Hover
					if _, err := s.Conn.Call(ctx, protocol.MethodTextDocumentHover, protocol.HoverParams{
						TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: s.Doc}, Position: pos},
					}, &h); err != nil && !strings.Contains(err.Error(), "unexpected end of JSON input") {
						return fmt.Errorf("hover after edit %d: %w", v, err)
					}
					lat = append(lat, time.Since(t))
				}
				after, err := processCPU(s.Pid)
				if err != nil {
					return err
				}
				cpu = append(cpu, float64(after-before)/float64(time.Millisecond)/settleEdits)
				edited = append(edited, float64(benchtest.ProcStatus(s.Pid)["VmRSS"])/(1<<20))
				return nil
			}}
		if _, err := measureFirstHover(context.Background(), run); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	median := func(v []float64) float64 {
		v = slices.Sorted(slices.Values(v))
		return v[len(v)/2]
	}
	b.ReportMetric(median(settled), "settled-rss-MB")
	b.ReportMetric(median(edited), "edited-rss-MB")
	b.ReportMetric(median(cpu), "cpu-ms/edit")
	benchtest.ReportLatenciesAs(b, "hover-after-edit-", lat)
}

// processCPU is the CPU time a process has used, user and system, from
// /proc (Linux; the benchmark's other figures are read there too).
func processCPU(pid int) (time.Duration, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The fields after the command's name, which is in parentheses and
	// may hold spaces: utime and stime are the 14th and 15th fields.
	rest := string(data[strings.LastIndexByte(string(data), ')')+2:])
	f := strings.Fields(rest)
	if len(f) < 13 {
		return 0, fmt.Errorf("/proc/%d/stat: %d fields", pid, len(f))
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("/proc/%d/stat: %q %q", pid, f[11], f[12])
	}
	// Linux counts them in USER_HZ, 100 a second on every architecture
	// Go supports.
	return time.Duration(utime+stime) * (time.Second / 100), nil
}
