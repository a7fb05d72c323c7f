package helix_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/editors/editortest"
)

// The three Helix tests start Helix the same way; what differs (the book,
// the chapter, the model, what is first on PATH) is a helixRun.

// helixTools are the tmux and hx a test runs, and hx's --version line; a
// missing tmux or an hx that does not start is Unavailable.
type helixTools struct {
	tmux, hx, version string
}

func findHelix(t *testing.T) helixTools {
	t.Helper()
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		editortest.Unavailable(t, "QUIRE_REQUIRE_HELIX", "tmux is not on PATH")
	}
	hx := helix(t)
	version, err := exec.Command(hx, "--version").CombinedOutput()
	if err != nil || !strings.HasPrefix(string(version), "helix ") {
		editortest.Unavailable(t, "QUIRE_REQUIRE_HELIX", "%s does not start: %v\n%s", hx, err, version)
	}
	return helixTools{tmux: tmux, hx: hx, version: string(version)}
}

// artefactsDir is where a test keeps the screen of each step:
// QUIRE_ARTEFACTS (or a folder in tmp), then sub when it is not empty.
func artefactsDir(t *testing.T, tmp, sub string) string {
	t.Helper()
	artefacts := os.Getenv("QUIRE_ARTEFACTS")
	if artefacts == "" {
		artefacts = filepath.Join(tmp, "artefacts")
	}
	if sub != "" {
		artefacts = filepath.Join(artefacts, sub)
	}
	require.NoError(t, os.MkdirAll(artefacts, 0o755))
	t.Logf("screens of each step in %s", artefacts)
	return artefacts
}

// helixRun is what one test's Helix is started with.
type helixRun struct {
	tools     helixTools
	tmp       string // the test's folder: HOME, XDG folders and tmux's socket go in it
	artefacts string
	bin       string // the quire binary, in languages.toml
	baseURL   string // the model's address, in languages.toml
	book      string // Helix starts in the book's folder
	chapter   string // relative to book
	extraPath []string
	// noProvider leaves the provider out of languages.toml, as a writer
	// who has configured none; extraEnv is added to Helix's environment.
	noProvider bool
	extraEnv   []string
	// speakerHints turns quire's speaker hints on in languages.toml.
	speakerHints bool
}

// startHelix starts Helix on run.chapter in a tmux server of its own, with
// a private HOME and XDG folders (the writer's own Helix config, cache and
// quire answers are never read or touched) holding this folder's
// config.toml and languages.toml. The cache is where it is by default
// (term.cache), so a test opens answers as the README says. At the end
// the tmux server is stopped and Helix's log kept as an artefact.
func startHelix(t *testing.T, run helixRun) *terminal {
	t.Helper()
	home := filepath.Join(run.tmp, "home")
	config := filepath.Join(run.tmp, "config")
	cache := filepath.Join(home, ".cache")
	require.NoError(t, os.MkdirAll(filepath.Join(config, "helix"), 0o755))
	require.NoError(t, os.MkdirAll(home, 0o755))
	shippedConfig, err := os.ReadFile("config.toml")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(config, "helix", "config.toml"), shippedConfig, 0o644))
	langs := languages(t, run.bin, run.baseURL, run.noProvider)
	if run.speakerHints {
		require.Contains(t, langs, "\nconfig = { ")
		langs = strings.Replace(langs, "\nconfig = { ", "\nconfig = { dialogue = { speakerHints = true }, ", 1)
	}
	require.NoError(t, os.WriteFile(filepath.Join(config, "helix", "languages.toml"), []byte(langs), 0o644))

	path := append(append([]string{}, run.extraPath...), os.Getenv("PATH"))
	env := []string{
		"PATH=" + strings.Join(path, string(os.PathListSeparator)),
		"HOME=" + home,
		"XDG_CONFIG_HOME=" + config,
		"XDG_CACHE_HOME=" + cache,
		"XDG_DATA_HOME=" + filepath.Join(run.tmp, "data"),
		"XDG_STATE_HOME=" + filepath.Join(run.tmp, "state"),
		"TERM=xterm-256color",
		"LANG=C.UTF-8",
		"TMUX_TMPDIR=" + run.tmp,
	}
	env = append(env, run.extraEnv...)
	if rt := os.Getenv("HELIX_RUNTIME"); rt != "" {
		env = append(env, "HELIX_RUNTIME="+rt)
	}
	term := &terminal{t: t, tmux: run.tools.tmux, socket: filepath.Join(run.tmp, "tmux.sock"), env: env,
		artefacts: run.artefacts, cache: cache, helixLog: filepath.Join(cache, "helix", "helix.log")}
	_, err = term.run("new-session", "-d", "-s", "hx", "-x", fmt.Sprint(cols), "-y", fmt.Sprint(rows), "-c", run.book,
		"--", run.tools.hx, "-v", run.chapter)
	if err != nil {
		editortest.Unavailable(t, "QUIRE_REQUIRE_HELIX", "could not start Helix in tmux: %v", err)
	}
	t.Cleanup(func() {
		_, _ = term.run("kill-server")
		if log, err := os.ReadFile(term.helixLog); err == nil {
			term.save("helix-log", string(log))
		}
	})
	return term
}
