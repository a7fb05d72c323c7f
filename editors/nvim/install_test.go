package nvim_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/editors/editortest"
)

// TestNeovimInstall runs :Quire install in a headless Neovim against the
// archives the release tool builds, served over HTTP on loopback, with no
// quire on PATH: a copy with a wrong checksum is refused and installs
// nothing; the real one is unpacked under stdpath("data") and setup()
// without `cmd` runs it.
func TestNeovimInstall(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		editortest.Unavailable(t, "QUIRE_REQUIRE_NVIM", "nvim is not on PATH")
	}
	for _, tool := range []string{"curl", "tar", "sha256sum"} {
		if _, err := exec.LookPath(tool); err != nil {
			editortest.Unavailable(t, "QUIRE_REQUIRE_NVIM", "%s is not on PATH", tool)
		}
	}
	plugin, err := filepath.Abs(".")
	require.NoError(t, err)
	root := filepath.Join(plugin, "..", "..")
	tmp := t.TempDir()

	// The real release tool, for this machine's system only.
	dist := filepath.Join(tmp, "dist")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	for _, args := range [][]string{
		{"run", "./cmd/release", "build", "-o", dist, "-targets", runtime.GOOS + "/" + runtime.GOARCH},
		{"run", "./cmd/release", "checksums", dist},
	} {
		cmd := exec.CommandContext(ctx, goCommand(), args...)
		cmd.Dir = root
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "go %s: %s", strings.Join(args, " "), out)
	}
	// The same files, but checksums.txt lists another sum.
	bad := filepath.Join(tmp, "bad")
	require.NoError(t, os.MkdirAll(bad, 0o755))
	entries, err := os.ReadDir(dist)
	require.NoError(t, err)
	for _, e := range entries {
		if e.Type().IsRegular() {
			data, err := os.ReadFile(filepath.Join(dist, e.Name()))
			require.NoError(t, err)
			if e.Name() == "checksums.txt" {
				data = regexp.MustCompile(`(?m)^[0-9a-f]{8}`).ReplaceAll(data, []byte("00000000"))
			}
			require.NoError(t, os.WriteFile(filepath.Join(bad, e.Name()), data, 0o644))
		}
	}
	mux := http.NewServeMux()
	mux.Handle("/good/", http.StripPrefix("/good/", http.FileServer(http.Dir(dist))))
	mux.Handle("/bad/", http.StripPrefix("/bad/", http.FileServer(http.Dir(bad))))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)

	bin := editortest.QuireBinary(t, tmp)
	book := editortest.SampleBook(t, bin, filepath.Join(tmp, "book"))

	// A PATH with Neovim's helpers but no quire.
	pathDirs := map[string]bool{}
	for _, tool := range []string{"curl", "tar", "sha256sum", "nvim"} {
		p, _ := exec.LookPath(tool)
		pathDirs[filepath.Dir(p)] = true
	}
	var path []string
	for d := range pathDirs {
		if _, err := os.Stat(filepath.Join(d, "quire")); err == nil {
			t.Fatalf("%s holds a quire; the test needs a PATH without one", d)
		}
		path = append(path, d)
	}

	result := filepath.Join(tmp, "result.txt")
	cache := filepath.Join(tmp, "cache")
	reportOf := func(run *editortest.BatchRun) string {
		return "result file:\n" + run.Result + "\nnvim stdout:\n" + run.Stdout + "\nnvim stderr:\n" + run.Stderr
	}
	run := editortest.Batch{Name: "nvim",
		// -u NORC: no user config, but plugins load, as plugin/quire.lua
		// must without setup().
		Args: []string{nvim, "--headless", "-u", "NORC", "-i", "NONE",
			"--cmd", "set rtp^=" + plugin,
			"-c", "luafile " + filepath.Join(plugin, "test", "install.lua")},
		Dir: book, TmpXDG: tmp, Cache: cache, Result: result,
		Timeout: 90 * time.Second,
		Env: []string{
			"PATH=" + strings.Join(path, string(os.PathListSeparator)),
			"QUIRE_RESULT=" + result,
			"QUIRE_BOOK=" + book,
			"QUIRE_RELEASE_URL=" + srv.URL + "/good",
			"QUIRE_BAD_RELEASE_URL=" + srv.URL + "/bad",
		}}.Run(t, reportOf)
	require.NoError(t, run.Err, reportOf(run))
	for _, step := range []string{"paths", "command", "bad-checksum", "install", "runs-installed"} {
		require.Contains(t, run.Lines, "ok "+step, reportOf(run))
	}
	require.Equal(t, "PASS", run.Lines[len(run.Lines)-1], reportOf(run))
}

// TestPluginCarriesTheServerVersion holds the plugin's release number to
// the server's: :Quire install downloads the release it names.
func TestPluginCarriesTheServerVersion(t *testing.T) {
	lua, err := os.ReadFile(filepath.Join("lua", "quire", "install.lua"))
	require.NoError(t, err)
	goSrc, err := os.ReadFile(filepath.Join("..", "..", "cmd", "quire", "version.go"))
	require.NoError(t, err)
	want := regexp.MustCompile(`const version = "([^"]+)"`).FindSubmatch(goSrc)
	require.NotNil(t, want)
	got := regexp.MustCompile(`M\.version = "([^"]+)"`).FindSubmatch(lua)
	require.NotNil(t, got)
	require.Equal(t, string(want[1]), string(got[1]))
}

func goCommand() string {
	if g := os.Getenv("GO"); g != "" {
		return g
	}
	return "go"
}
