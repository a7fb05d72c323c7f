package outline

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quire-ink/quire/codex/benchtest"
	"github.com/quire-ink/quire/codex/corpus"
	"github.com/quire-ink/quire/manuscript"
	mbook "github.com/quire-ink/quire/manuscript/book"
)

// seriesCorpus is the series of the targets, planned: 10,000
// entries and 800 chapters of 5,000 words, each of three scenes with a
// synopsis and a status, four million words in all. It is written once
// to the user cache folder and reused.
func seriesCorpus(b *testing.B) string {
	b.Helper()
	cache, err := corpus.BenchRoot()
	if err != nil {
		b.Fatal(err)
	}
	dir := filepath.Join(cache, "outline-series-10000-800x5000x3-s1-v1")
	if _, err := os.Stat(filepath.Join(dir, "manuscript")); err == nil {
		return dir
	}
	tmp := dir + ".tmp"
	_ = os.RemoveAll(tmp)
	opt := corpus.Options{Entries: 10_000, Chapters: 800, ChapterWords: 5_000, Scenes: 3, Seed: 1, Outline: true}
	if _, err := corpus.Generate(context.Background(), tmp, opt); err != nil {
		b.Fatal(err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		b.Fatal(err)
	}
	return dir
}

// BenchmarkOutlineSeries is the outline of the whole planned series, as
// quire/outline and `quire outline` build it from an open book: the
// cards of 800 chapters and 2,400 scenes, with who appears in each (the
// mention index's scan, made when the book opened); speakers=1 adds who
// speaks, which attributes the dialogue of four million words. Each
// iteration reads a fresh snapshot of the same book, as a request after
// an edit does, so nothing is kept from the last one but what units
// keep of themselves (their scenes, split once: first-build-ms is the
// first outline, which splits them all).
func BenchmarkOutlineSeries(b *testing.B) {
	dir := seriesCorpus(b)
	book, err := mbook.Open(context.Background(), dir, mbook.Options{Cache: mbook.CacheOptions{Dir: b.TempDir()}})
	if err != nil {
		b.Fatal(err)
	}
	defer book.Close()
	snap, cat := book.Manuscript.Snapshot(), book.Store.Catalog()
	// The first outline after the book opened splits every chapter into
	// scenes; the units keep their split for every later one.
	start := time.Now()
	if _, err := Build(context.Background(), snap, cat, Options{}); err != nil {
		b.Fatal(err)
	}
	first := time.Since(start)
	for _, speakers := range []bool{false, true} {
		name := "speakers=0"
		if speakers {
			name = "speakers=1"
		}
		b.Run(name, func(b *testing.B) {
			var o *Outline
			for b.Loop() {
				o, err = Build(context.Background(), snap, cat, Options{Speakers: speakers})
				if err != nil {
					b.Fatal(err)
				}
			}
			if o.Chapters != 800 || o.Scenes != 2400 {
				b.Fatalf("%d chapters, %d scenes", o.Chapters, o.Scenes)
			}
			b.ReportMetric(float64(o.Words), "words")
			b.ReportMetric(float64(first.Microseconds())/1000, "first-build-ms")
		})
	}
}

// BenchmarkSceneSplitAfterEdit is a 5,000-word chapter of three scenes
// with notes split again after each keystroke, as the server does for
// the outline, the diagnostics and the symbols of the edited text: its
// p50 and p99 over 2,000 edits.
func BenchmarkSceneSplitAfterEdit(b *testing.B) {
	dir := b.TempDir()
	c, err := corpus.Generate(context.Background(), dir, corpus.Options{Entries: 200, Chapters: 1, ChapterWords: 5_000, Scenes: 3, Seed: 2, Outline: true})
	if err != nil {
		b.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(c.Chapters[0])))
	if err != nil {
		b.Fatal(err)
	}
	text := string(data)
	at := strings.Index(text, "## Scene 2")
	var lat []time.Duration
	for b.Loop() {
		lat = lat[:0]
		for i := range 2000 {
			edited := text[:at-2] + strings.Repeat("x", i%7+1) + text[at-2:]
			u := manuscript.NewUnit(c.Chapters[0], edited, int32(i))
			start := time.Now()
			scenes := u.Scenes(manuscript.SceneRules{})
			_ = u.SceneProblems(manuscript.SceneRules{})
			lat = append(lat, time.Since(start))
			if len(scenes) != 3 {
				b.Fatalf("%d scenes", len(scenes))
			}
		}
	}
	benchtest.ReportLatencies(b, lat)
}
