package corpus

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// formatVersion names what Generate writes; bump it when the output
// changes, so cached corpora are written afresh.
const formatVersion = 2

// BenchRoot is the folder benchmark corpora are kept in:
// $QUIRE_BENCH_CACHE, else quire-bench in the user cache folder. Every
// corpus goes through it: under the tests' TestMain the user cache
// folder is a temporary one, and a corpus kept there is written again on
// every run (or, written by another package's benchmark, never found).
func BenchRoot() (string, error) {
	if root := os.Getenv("QUIRE_BENCH_CACHE"); root != "" {
		return root, nil
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("find cache folder: %w", err)
	}
	return filepath.Join(base, "quire-bench"), nil
}

// Cached returns the folder of a corpus with these options kept in the
// user cache folder (never inside a project), writing it on first use.
// Benchmarks share corpora through it: writing a large one takes seconds.
// $QUIRE_BENCH_CACHE names the folder instead: the tests' TestMain
// (codex/testhome) moves the user cache folder into a temporary one and
// keeps the real one here, so corpora outlive a run.
func Cached(ctx context.Context, opt Options) (string, error) {
	opt = opt.withDefaults()
	root, err := BenchRoot()
	if err != nil {
		return "", err
	}
	name := fmt.Sprintf("corpus-%d-%dx%d-s%d-v%d", opt.Entries, opt.Chapters, opt.ChapterWords, opt.Seed, formatVersion)
	dir := filepath.Join(root, name)
	if _, err := os.Stat(dir); err == nil {
		return dir, nil
	}
	// Written aside and renamed, so an interrupted run leaves no half
	// corpus under the final name.
	tmp := dir + ".tmp" + strconv.Itoa(os.Getpid())
	_ = os.RemoveAll(tmp)
	if _, err := Generate(ctx, tmp, opt); err != nil {
		return "", fmt.Errorf("write corpus %s: %w", name, err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		return "", fmt.Errorf("keep corpus %s: %w", name, err)
	}
	return dir, nil
}
