package main

import (
	"context"
	"fmt"
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
		run := firstHoverRun{Command: serveCommand(startHome(cache, kind, i)), Root: root, Chapter: chapter, Name: name,
			AfterLoad: func(ctx context.Context, s session) error {
				time.Sleep(settleWait)
				settled = append(settled, float64(benchtest.ProcStatus(s.Pid)["VmRSS"])/(1<<20))
				before, err := benchtest.ProcCPU(s.Pid)
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
					if _, err := hoverAt(ctx, s.Conn, s.Doc, pos); err != nil {
						return fmt.Errorf("hover after edit %d: %w", v, err)
					}
					lat = append(lat, time.Since(t))
				}
				after, err := benchtest.ProcCPU(s.Pid)
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
	b.ReportMetric(medianOf(settled), "settled-rss-MB")
	b.ReportMetric(medianOf(edited), "edited-rss-MB")
	b.ReportMetric(medianOf(cpu), "cpu-ms/edit")
	benchtest.ReportLatenciesAs(b, "hover-after-edit-", lat)
}
