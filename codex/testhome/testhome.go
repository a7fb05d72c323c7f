// Package testhome gives each test binary of quire a home of its own:
// every folder quire's settings, trust grants, caches and logs are found
// through points into one temporary folder, on every system, and the run
// fails when the writer's own quire folders changed meanwhile.
//
// XDG_* variables alone are not enough: Go reads them on Linux only. On
// Windows os.UserConfigDir is %AppData% and os.UserCacheDir
// %LocalAppData%, on macOS both live under $HOME/Library, so a test that
// only set XDG_CONFIG_HOME once wrote its trust grants into a real
// %AppData%\quire\trust.json.
//
// Each package's TestMain calls Run:
//
//	func TestMain(m *testing.M) { os.Exit(testhome.Run(m)) }
package testhome

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// Vars are the environment variables through which Go finds the user's
// home, config and cache folders on some system (os.UserHomeDir,
// os.UserConfigDir, os.UserCacheDir), plus the XDG folders other tools
// quire starts read.
var Vars = []string{
	"HOME", "USERPROFILE", "APPDATA", "LOCALAPPDATA",
	"XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME",
}

// BenchCacheEnv names the folder benchmarks keep their generated corpora
// in across runs (codex/corpus.Cached): Run sets it to the writer's real
// cache folder before moving that away, since writing a large corpus
// takes seconds and none of it is the writer's.
const BenchCacheEnv = "QUIRE_BENCH_CACHE"

// Run runs m with Vars pointing at a new temporary folder, removes that
// folder, and returns m's exit code, or 1 when the writer's real quire
// config or cache folder changed during the run (which Run prints).
func Run(m *testing.M) int {
	real := realFolders()
	before := snapshot(real)
	if os.Getenv(BenchCacheEnv) == "" {
		if dir, err := os.UserCacheDir(); err == nil {
			os.Setenv(BenchCacheEnv, filepath.Join(dir, "quire-bench"))
		}
	}
	keepGoFolders()
	home, err := os.MkdirTemp("", "quire-test-home-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "testhome:", err)
		return 1
	}
	if err := Isolate(home); err != nil {
		fmt.Fprintln(os.Stderr, "testhome:", err)
		return 1
	}
	code := m.Run()
	_ = os.RemoveAll(home)
	if changed := diff(before, snapshot(real)); len(changed) > 0 {
		fmt.Fprintf(os.Stderr, "testhome: the tests changed the real quire folders, which they must never touch:\n")
		for _, c := range changed {
			fmt.Fprintln(os.Stderr, "  ", c)
		}
		return 1
	}
	return code
}

// keepGoFolders pins the go tool's own folders, which it finds through
// the same variables, to where they are now: a test that runs go (the
// server's stdio tests build quire) then uses the real module and build
// caches instead of downloading and compiling everything again.
func keepGoFolders() {
	home, _ := os.UserHomeDir()
	cache, _ := os.UserCacheDir()
	config, _ := os.UserConfigDir()
	for v, dir := range map[string]string{
		"GOPATH":  filepath.Join(home, "go"),
		"GOCACHE": filepath.Join(cache, "go-build"),
		"GOENV":   filepath.Join(config, "go", "env"),
	} {
		if os.Getenv(v) == "" && dir != "" && filepath.IsAbs(dir) {
			os.Setenv(v, dir)
		}
	}
}

// Isolate points Vars at folders under home, made here.
func Isolate(home string) error {
	for _, v := range Vars {
		dir := filepath.Join(home, v)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		if err := os.Setenv(v, dir); err != nil {
			return err
		}
	}
	// quire build writes to the writer's Documents folder; the home
	// above has none, and this variable must not name the real one.
	return os.Unsetenv("XDG_DOCUMENTS_DIR")
}

// realFolders are the writer's quire config and cache folders as this
// process finds them before Isolate.
func realFolders() []string {
	var out []string
	if dir, err := os.UserConfigDir(); err == nil {
		out = append(out, filepath.Join(dir, "quire"))
	}
	if dir, err := os.UserCacheDir(); err == nil {
		out = append(out, filepath.Join(dir, "quire"))
	}
	return out
}

// snapshot is each folder's entries and their files' sizes and times,
// two levels deep: trust.json and config.yaml in the config folder, and
// a book's cache folder with its top files in the cache folder. Deeper
// changes start there.
func snapshot(folders []string) map[string]string {
	out := map[string]string{}
	for _, root := range folders {
		_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			rel, _ := filepath.Rel(root, path)
			if d.IsDir() && rel != "." && depth(rel) >= 2 {
				return filepath.SkipDir
			}
			info, err := d.Info()
			if err != nil {
				return nil
			}
			stamp := "folder"
			if !d.IsDir() {
				stamp = fmt.Sprintf("%d bytes, %s", info.Size(), info.ModTime().Format(time.RFC3339Nano))
			}
			out[path] = stamp
			return nil
		})
	}
	return out
}

func depth(rel string) int {
	n := 1
	for _, c := range rel {
		if c == filepath.Separator {
			n++
		}
	}
	return n
}

// diff says what differs between two snapshots, sorted.
func diff(before, after map[string]string) []string {
	var out []string
	for path, was := range before {
		now, ok := after[path]
		switch {
		case !ok:
			out = append(out, "removed "+path)
		case now != was:
			out = append(out, "changed "+path)
		}
	}
	for path := range after {
		if _, ok := before[path]; !ok {
			out = append(out, "created "+path)
		}
	}
	slices.Sort(out)
	return out
}
