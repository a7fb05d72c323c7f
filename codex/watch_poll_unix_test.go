//go:build unix

package codex_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
)

const pollChildEnv = "QUIRE_TEST_WATCH_LIMIT_BOOK"

// When the system will not watch the project for want of file
// descriptors (macOS's kqueue takes one per file and folder, so a large
// codex meets the default limit), the store says so once and scans the
// project instead, and an entry saved then still reaches the catalog and
// the store's followers. The limit is real: a child process lowers its
// own open-file limit and uses up every descriptor before watching.
func TestWatchFallsBackToScanningAtTheDescriptorLimit(t *testing.T) {
	if book := os.Getenv(pollChildEnv); book != "" {
		watchAtTheLimit(t, book)
		return
	}
	book := t.TempDir()
	for rel, text := range map[string]string{
		"codex/characters/mara-vell.md": "---\nname: Mara Vell\n---\n# Mara Vell\n",
		"manuscript/01-one.md":          "# One\n\nMara Vell.\n",
	} {
		p := filepath.Join(book, filepath.FromSlash(rel))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestWatchFallsBackToScanningAtTheDescriptorLimit$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), pollChildEnv+"="+book)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	require.NoError(t, cmd.Run(), "%s", out.String())
	assert.Contains(t, out.String(), "SCANNING-OK", out.String())
}

func watchAtTheLimit(t *testing.T, book string) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	reasons := make(chan string, 4)
	s, err := codex.Open(ctx, book, codex.Options{CacheDir: t.TempDir(), PollInterval: 100 * time.Millisecond,
		OnWatchFallback: func(why string) { reasons <- why }})
	require.NoError(t, err)
	defer s.Close()

	var lim syscall.Rlimit
	require.NoError(t, syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim))
	lim.Cur = 256
	require.NoError(t, syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim))
	var hog []*os.File
	for {
		f, err := os.Open(os.DevNull)
		if err != nil {
			require.ErrorIs(t, err, syscall.EMFILE)
			break
		}
		hog = append(hog, f)
		require.Less(t, len(hog), 300, "the lowered limit did not hold")
	}

	changes := make(chan codex.Change, 16)
	watchDone := make(chan error, 1)
	go func() { watchDone <- s.Watch(ctx, func(ch codex.Change) { changes <- ch }) }()
	var why string
	select {
	case why = <-reasons:
	case err := <-watchDone:
		t.Fatalf("Watch ended without scanning: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("no word of the fallback")
	}
	assert.Contains(t, why, "too many open files")
	assert.Contains(t, why, "every 100ms")
	// Descriptors free again: the scans can read the files.
	for _, f := range hog {
		f.Close()
	}
	select {
	case <-s.Watching():
	case <-time.After(10 * time.Second):
		t.Fatal("the scanning store never said it was following the files")
	}

	entry := filepath.Join(book, "codex", "characters", "ilse-dorn.md")
	require.NoError(t, os.WriteFile(entry, []byte("---\nname: Ilse Dorn\n---\n# Ilse Dorn\n"), 0o644))
	deadline := time.After(10 * time.Second)
	for {
		select {
		case ch := <-changes:
			if slices.Contains(ch.Paths, "codex/characters/ilse-dorn.md") {
				assert.Contains(t, ch.Updated, "codex/characters/ilse-dorn.md")
				_, found := s.Catalog().Resolve("Ilse Dorn")
				assert.True(t, found, "the new entry is in the catalog")
				select {
				case r := <-reasons:
					t.Fatalf("told twice: %s", r)
				default:
				}
				t.Log("SCANNING-OK")
				return
			}
		case <-deadline:
			t.Fatal("the saved entry never reached the store")
		}
	}
}
