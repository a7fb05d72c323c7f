package helix_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/editors/editortest"
)

// mapMessage is quire's message naming the book map's file, as the status
// line shows it.
var mapMessage = regexp.MustCompile(`The book map \((\d+) chapters, (\d+) codex entries mentioned\) is in (\S+\.html): open it in your browser\.`)

// TestHelixBookMap opens the book map from a chapter's title as a writer
// does in Helix: cursor on the heading, space a, "Open the book map".
// Helix 25.01 cannot open a page for the server (no window/showDocument),
// so quire's message in the status line names the map's file; 25.07 hands
// the page's file:// address to the system opener (xdg-open, found on
// PATH). The test's PATH starts with an xdg-open of its own that records
// the address it is given, so no browser starts. Either way the file named
// is quire's map of the book: HTML in the cache folder, not in the book,
// the same bytes `quire map` writes.
func TestHelixBookMap(t *testing.T) {
	tools := findHelix(t)
	version := tools.version
	// Helix 25.01 does not support window/showDocument; 25.07 does, and
	// opens an external one with the system opener.
	opensExternal := !strings.HasPrefix(version, "helix 25.01")
	t.Log(strings.TrimSpace(version))

	tmp := t.TempDir()
	artefacts := artefactsDir(t, tmp, "bookmap")

	bin := editortest.QuireBinary(t, tmp)
	book := editortest.SampleBook(t, bin, filepath.Join(tmp, "book"))
	chapter := filepath.Join("manuscript", "01-thirteen-strokes.md")
	const title = "# Thirteen Strokes"
	text, err := os.ReadFile(filepath.Join(book, chapter))
	require.NoError(t, err)
	before, _, ok := strings.Cut(string(text), "\n"+title+"\n")
	require.True(t, ok, "the chapter has the heading %q", title)
	titleLine := strings.Count(before, "\n") + 2

	// The system opener Helix runs (the open crate tries xdg-open first on
	// Linux): it writes down each address and opens nothing.
	openerDir := filepath.Join(tmp, "opener")
	opened := filepath.Join(tmp, "opened.txt")
	require.NoError(t, os.MkdirAll(openerDir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(openerDir, "xdg-open"),
		[]byte("#!/bin/sh\nprintf '%s\\n' \"$*\" >>'"+opened+"'\n"), 0o755))

	term := startHelix(t, helixRun{tools: tools, tmp: tmp, artefacts: artefacts, bin: bin,
		// No model is asked: its address is one nothing listens on.
		baseURL: "http://127.0.0.1:9/v1",
		book:    book, chapter: chapter,
		// quire on PATH too, as the README's setup puts it.
		extraPath: []string{openerDir, filepath.Dir(bin)}})
	cache := term.cache

	// 1. The chapter is open, and quire has read the book (its progress
	// shows in the status line).
	term.waitFor("open", "the chapter and quire's book loaded", showsAll("Thirteen Strokes", "01-thirteen-strokes.md", "NOR", "codex entries"))

	// 2. The cursor on the chapter's title: a search for the heading,
	// then ; leaves the cursor at its end, on that line.
	term.keys("/")
	term.text(title)
	term.keys("Enter", ";")
	term.waitFor("on-title", fmt.Sprintf("the cursor on the title's line %d", titleLine), cursorOn(titleLine, 0))

	// 3. space a there offers the map among the chapter's actions. A menu
	// asked for before quire answers code actions is asked for again.
	offered := showsAll("Open the book map")
	term.askUntil(offered, "Space", "a")
	term.waitFor("actions", "\"Open the book map\" in the code action menu", offered)
	term.pick("pick-book-map", "Open the book map")

	// The map `quire map` draws of the same book, in a cache of its own.
	var cli struct {
		Path     string `json:"path"`
		Chapters int    `json:"chapters"`
		Entries  int    `json:"entries"`
	}
	cmd := exec.Command(bin, "map", "--json", "--out", filepath.Join(tmp, "cli-map.html"))
	cmd.Dir = book
	cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+filepath.Join(tmp, "cli-cache"))
	out, err := cmd.Output()
	require.NoError(t, err, "quire map --json")
	require.NoError(t, json.Unmarshal(out, &cli), "quire map --json: %s", out)

	// 4. What the writer sees.
	var mapFile string
	if opensExternal {
		// Helix hands the page's address to the system opener.
		var urls string
		deadline := time.Now().Add(stepWait)
		for {
			b, err := os.ReadFile(opened)
			if err == nil && strings.Contains(string(b), "\n") {
				urls = string(b)
				break
			}
			if time.Now().After(deadline) {
				term.save("opener-FAILED", term.screen(false))
				t.Fatalf("Helix did not run the system opener within %s\n%s", stepWait, term.report())
			}
			time.Sleep(200 * time.Millisecond)
		}
		screen := term.screen(false)
		term.save("opened", screen)
		require.NotContains(t, screen, "Opening URL in external program failed")
		require.Equal(t, 1, strings.Count(urls, "\n"), "the opener ran once: %q", urls)
		t.Logf("the system opener was given %s", strings.TrimSpace(urls))
		u, err := url.Parse(strings.TrimSpace(urls))
		require.NoError(t, err)
		require.Equal(t, "file", u.Scheme, "the opener was given %q", urls)
		require.True(t, strings.HasSuffix(u.Path, "/map.html"), "the opener was given %q", urls)
		mapFile = u.Path
	} else {
		// The message names the file in the status line.
		screen := term.waitFor("map-message", "quire's message naming the book map's file", func(screen string) bool {
			return mapMessage.MatchString(screen)
		})
		m := mapMessage.FindStringSubmatch(screen)
		mapFile = m[3]
		require.Equal(t, fmt.Sprint(cli.Chapters), m[1], "the message's chapters")
		require.Equal(t, fmt.Sprint(cli.Entries), m[2], "the message's entries")
		_, err = os.Stat(opened)
		require.True(t, os.IsNotExist(err), "Helix 25.01 runs no opener")
	}

	// 5. The file named is the map of the book: HTML, in quire's cache
	// folder rather than the book, the page `quire map` draws.
	t.Logf("the book map: %s", mapFile)
	require.True(t, strings.HasPrefix(mapFile, filepath.Join(cache, "quire")+string(filepath.Separator)),
		"the map %s is in quire's cache folder %s", mapFile, filepath.Join(cache, "quire"))
	page, err := os.ReadFile(mapFile)
	require.NoError(t, err, "the map file")
	require.True(t, strings.HasPrefix(string(page), "<!DOCTYPE html>"), "the map is an HTML page")
	for _, want := range []string{"The Thirteenth Bell", "Thirteen Strokes", "Teodora Quill", "Moss Kettering", "Brinmouth", "Brass Ledger"} {
		require.Contains(t, string(page), want, "the map shows the book's %q", want)
	}
	cliPage, err := os.ReadFile(cli.Path)
	require.NoError(t, err)
	require.Equal(t, string(cliPage), string(page), "the map Helix opened is the page `quire map` draws")

	// 6. Where no browser opens (25.07 says nothing when the opener
	// fails) or the status line is cut short, the README's way round:
	// `:sh quire map` shows the same file's path in a popup. Helix shows
	// a command's stderr instead of its output when there is any, and
	// quire there notes that the editor's quire holds the book's index.
	term.command("sh quire map 2>/dev/null")
	term.waitFor("sh-quire-map", "quire map's path in a popup", showsAll(mapFile))
}
