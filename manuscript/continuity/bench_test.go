package continuity

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/corpus"
	"github.com/quire-ink/quire/manuscript"
)

// benchBook is a generated book of 10,000 entries and two 5,000-word
// chapters, with story time laid over it: every character has eyes and
// hair, every tenth one dies in chapter 1, every style entry has a rule,
// and the second chapter carries front matter and a hundred sentences
// that describe, and give words to, named characters.
func benchBook(b *testing.B) (*Timeline, *manuscript.Unit) {
	b.Helper()
	dir := b.TempDir()
	opt := corpus.Options{Entries: 10_000, Chapters: 2, ChapterWords: 5_000, Seed: 16}
	c, err := corpus.Generate(context.Background(), dir, opt)
	require.NoError(b, err)
	colourNames := []string{"green", "brown", "blue", "grey", "black", "hazel"}
	index := map[string]int{}
	var chars []corpus.Entry
	for i, e := range c.Entries {
		index[e.ID] = i
		if e.Type == codex.TypeCharacter {
			chars = append(chars, e)
		}
	}
	edit := func(rel string, src []byte) []byte {
		i, ok := index[rel]
		if !ok {
			return src
		}
		e := c.Entries[i]
		var extra strings.Builder
		switch e.Type {
		case codex.TypeCharacter:
			fmt.Fprintf(&extra, "eyes: pale %s\nhair: %s\n", colourNames[i%len(colourNames)], colourNames[(i/7)%len(colourNames)])
			if i%10 == 3 {
				extra.WriteString("progressions:\n  - from: 1\n    status: dead\n    note: Lost at sea.\n")
			}
		case codex.TypeStyle:
			fmt.Fprintf(&extra, "rules:\n  - {avoid: %q, prefer: %q}\n  - term: %q\n",
				strings.ToLower(strings.Fields(e.Name)[0]), "quietly", strings.ToLower(strings.ReplaceAll(e.Name, " ", "-")))
		}
		return []byte(strings.Replace(string(src), "---\n", "---\n"+extra.String(), 1))
	}
	// Chapter 1 is day 5; chapter 2, day 3 (a timeline slip), has the
	// statements.
	for n, rel := range c.Chapters {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		body, err := os.ReadFile(p)
		require.NoError(b, err)
		var fm strings.Builder
		fmt.Fprintf(&fm, "---\ntitle: Chapter %d\nday: %d\npov: %s\nlocation: Nowhere Known\n---\n", n+1, 5-2*n, chars[n].Name)
		var more strings.Builder
		if n == 1 {
			for k := range 100 {
				ch := chars[(k*37)%len(chars)]
				switch k % 3 {
				case 0:
					fmt.Fprintf(&more, "%s's dark brown eyes narrowed. ", ch.Name)
				case 1:
					fmt.Fprintf(&more, "\"Not yet,\" said %s. ", ch.Name)
				default:
					fmt.Fprintf(&more, "%s climbed the stair, %s hair loose. ", ch.Name, colourNames[k%len(colourNames)])
				}
				if k%10 == 9 {
					more.WriteString("\n\n")
				}
			}
		}
		require.NoError(b, os.WriteFile(p, []byte(fm.String()+string(body)+"\n\n"+more.String()+"\n"), 0o644))
	}
	tl, snap := openBookEdited(b, dir, Options{}, edit)
	u, ok := snap.Unit(c.Chapters[1])
	require.True(b, ok)
	return tl, u
}

// BenchmarkCheckChapter is issue 16's measure: continuity and style
// diagnostics for one edited 5,000-word chapter at 10k entries (budget
// 10 ms p99), with the canon and timeline built once per codex change.
// "check" times Check alone (its buffers from a pool); "edit" adds
// reading the editor's new text into a unit, as the server does on each
// change.
//
//	go test -run '^$' -bench CheckChapter -benchmem ./manuscript/continuity/
func BenchmarkCheckChapter(b *testing.B) {
	tl, u := benchBook(b)
	words := u.Words
	diags := Check(tl, u)
	b.Logf("%d words, %d entries, %d diagnostics", words, tl.Canon().Catalog().Len(), len(diags))
	b.Run("check", func(b *testing.B) {
		measure(b, func() { Check(tl, u) })
	})
	// "kept" is "check" with the buffers kept between checks, as the
	// server keeps them per book.
	b.Run("kept", func(b *testing.B) {
		var s Scratch
		measure(b, func() { s.Check(tl, u) })
	})
	b.Run("edit", func(b *testing.B) {
		measure(b, func() { Check(tl, manuscript.NewUnit(u.Path, u.Text, 2)) })
	})
	b.Run("canon", func(b *testing.B) {
		cat := tl.Canon().Catalog()
		for b.Loop() {
			NewCanon(cat, Options{})
		}
	})
	// "spelling" is the name-spelling index a canon builds at its first
	// check: paid once per codex, by the first check after it changes.
	b.Run("spelling", func(b *testing.B) {
		cat := tl.Canon().Catalog()
		for b.Loop() {
			buildSpellIndex(cat)
		}
	})
}

// measure runs f b.N times and reports, besides ns/op, the 99th
// percentile of one run's wall time (p99-ns) and the CPU time per run
// (cpu-ns/op), which other processes on a shared machine do not inflate.
func measure(b *testing.B, f func()) {
	var runs []time.Duration
	cpu0 := cpuTime()
	for b.Loop() {
		t0 := time.Now()
		f()
		runs = append(runs, time.Since(t0))
	}
	cpu := cpuTime() - cpu0
	slices.Sort(runs)
	b.ReportMetric(float64(runs[len(runs)*99/100]), "p99-ns")
	if cpu > 0 {
		b.ReportMetric(float64(cpu)/float64(len(runs)), "cpu-ns/op")
	}
}
