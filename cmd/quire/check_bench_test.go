package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quire-ink/quire/codex/corpus"
)

// BenchmarkCheck times `quire check` over the synthetic c10k book
// (10,000 codex entries, chapters of 5,000 words), in-process, with the
// codex index already in its cache folder as in a hook run on a book the
// writer works on. The chapter counts show how the check grows with the
// manuscript; 200 chapters is the 1.1-million-word corpus the issue
// measures against (≤ 2 s on 2 cores).
func BenchmarkCheck(b *testing.B) {
	for _, chapters := range []int{50, 100, 200, 400} {
		b.Run(fmt.Sprintf("chapters=%d", chapters), func(b *testing.B) {
			root, err := corpus.Cached(context.Background(), corpus.Options{Entries: 10000, Chapters: chapters, ChapterWords: 5000, Seed: 1})
			if err != nil {
				b.Fatal(err)
			}
			args := []string{"check", "--project", root, "--cache-dir=" + filepath.Join(b.TempDir(), "cache")}
			check := func() {
				cmd := newRootCommand(strings.NewReader(""), io.Discard, io.Discard)
				cmd.SetArgs(args)
				if err := cmd.ExecuteContext(context.Background()); err != nil {
					b.Fatal(err)
				}
			}
			check() // the cold index, built once
			for b.Loop() {
				check()
			}
		})
	}
}
