package snapshot

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BenchmarkRecord is the cost of keeping a version of a 5,000-word
// chapter with one paragraph changed: what each save costs, in the
// background (the target: 5 ms).
func BenchmarkRecord(b *testing.B) {
	now := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	s, err := Open(b.TempDir(), Options{Now: func() time.Time { return now }})
	if err != nil {
		b.Fatal(err)
	}
	paras := chapter(11, 5000)
	i := 0
	for b.Loop() {
		i++
		k := i % len(paras)
		paras[k] = fmt.Sprintf("%d %s", i, paras[k])
		now = now.Add(time.Minute)
		if _, err := s.Record("manuscript/01.md", strings.Join(paras, ""), ""); err != nil {
			b.Fatal(err)
		}
	}
}

// yearOfWriting writes, once per machine, the store of a 120,000-word
// book of 30 chapters after a year of daily writing: each day four
// saves of two chapters, a few paragraphs changed each time, pruned as
// the default rule keeps them.
func yearOfWriting(b *testing.B) string {
	b.Helper()
	dir := filepath.Join(os.TempDir(), "quire-bench-snapshots-year-v1")
	if _, err := os.Stat(filepath.Join(dir, "done")); err == nil {
		return dir
	}
	os.RemoveAll(dir)
	start := time.Date(2025, 11, 1, 9, 0, 0, 0, time.UTC)
	now := start
	s, err := Open(dir, Options{Now: func() time.Time { return now }})
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(12, 12))
	chapters := make([][]string, 30)
	for c := range chapters {
		chapters[c] = chapter(uint64(100+c), 4000)
		if _, err := s.Record(fmt.Sprintf("manuscript/%02d.md", c+1), strings.Join(chapters[c], ""), ""); err != nil {
			b.Fatal(err)
		}
	}
	for day := range 365 {
		for save := range 4 {
			now = start.Add(time.Duration(day)*24*time.Hour + time.Duration(save)*time.Hour)
			for range 2 {
				c := r.IntN(len(chapters))
				for range 3 {
					k := r.IntN(len(chapters[c]))
					chapters[c][k] = fmt.Sprintf("Day %d. %s", day, chapters[c][k])
				}
				if _, err := s.Record(fmt.Sprintf("manuscript/%02d.md", c+1), strings.Join(chapters[c], ""), ""); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	if _, err := s.Prune(DefaultPolicy); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "done"), nil, 0o600); err != nil {
		b.Fatal(err)
	}
	return dir
}

// BenchmarkYearListAndDiff opens the year's store, lists a chapter's
// versions and diffs one of them with the chapter's latest: what `quire
// snapshot list` then `diff` cost a writer (the issue's target: 100 ms).
func BenchmarkYearListAndDiff(b *testing.B) {
	dir := yearOfWriting(b)
	r := rand.New(rand.NewPCG(1, 2))
	for b.Loop() {
		s, err := Open(dir, Options{})
		if err != nil {
			b.Fatal(err)
		}
		path := fmt.Sprintf("manuscript/%02d.md", r.IntN(30)+1)
		vs, err := s.Versions(path)
		if err != nil || len(vs) < 2 {
			b.Fatalf("%s: %d versions, %v", path, len(vs), err)
		}
		old, err := s.Text(vs[r.IntN(len(vs)-1)])
		if err != nil {
			b.Fatal(err)
		}
		now, err := s.Text(vs[len(vs)-1])
		if err != nil {
			b.Fatal(err)
		}
		WordDiff(old, now)
	}
	st, _ := os.Stat(filepath.Join(dir, FileName))
	b.ReportMetric(float64(st.Size())/(1<<20), "store-MB")
}

// BenchmarkWordDiffShuffled compares a chapter of some 160,000 words
// with the same paragraphs in another order: the diff's worst case,
// kept to work linear in the chapter (bounded_diff.go).
func BenchmarkWordDiffShuffled(b *testing.B) {
	paras := novel(1, 2000)
	old := strings.Join(paras, "")
	r := rand.New(rand.NewPCG(3, 4))
	r.Shuffle(len(paras), func(i, j int) { paras[i], paras[j] = paras[j], paras[i] })
	now := strings.Join(paras, "")
	for b.Loop() {
		WordDiff(old, now)
	}
}
