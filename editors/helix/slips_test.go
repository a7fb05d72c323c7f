package helix_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/editors/editortest"
)

// gutterRow is a row of the text area: the diagnostics gutter (a mark,
// or blank), then the line number.
var gutterRow = regexp.MustCompile(`^(\S?)\s+(\d+)(?:\s|$)`)

// markedLines are the line numbers (1-based) whose gutter shows a
// diagnostic.
func markedLines(screen string) []int {
	var out []int
	for _, row := range strings.Split(screen, "\n") {
		m := gutterRow.FindStringSubmatch(row)
		if m == nil || m[1] == "" {
			continue
		}
		n, err := strconv.Atoi(m[2])
		if err == nil {
			out = append(out, n)
		}
	}
	return out
}

// cursorAt is the cursor's line and column (1-based) in the status line.
var cursorAt = regexp.MustCompile(`(\d+):(\d+)\s*$`)

// cursorOn says whether the status line shows the cursor on line (1-based)
// and, unless col is 0, at column col.
func cursorOn(line, col int) func(screen string) bool {
	return func(screen string) bool {
		for _, row := range strings.Split(screen, "\n") {
			if strings.Contains(row, " NOR ") {
				m := cursorAt.FindStringSubmatch(row)
				return m != nil && m[1] == strconv.Itoa(line) && (col == 0 || m[2] == strconv.Itoa(col))
			}
		}
		return false
	}
}

// TestHelixSlips types one continuity slip of each kind, among decoys,
// into a chapter that opens clean, through tmux as a writer types, and
// checks what Helix shows: a diagnostic mark in the gutter on each slip's
// line and on no other, `]d` landing on each slip's words, and the
// diagnostics picker (space d) listing them by code; then it applies
// the fixture's quick fix from the code action menu (applyFix). How long
// each slip took to show is logged, not asserted.
func TestHelixSlips(t *testing.T) {
	tools := findHelix(t)
	version := tools.version
	t.Log(strings.TrimSpace(version))

	tmp := t.TempDir()
	artefacts := artefactsDir(t, tmp, "slips")

	bin := editortest.QuireBinary(t, tmp)
	slips := editortest.SlipBook(t, filepath.Join(tmp, "book"))
	book := filepath.Dir(filepath.Dir(slips.Chapter))

	term := startHelix(t, helixRun{tools: tools, tmp: tmp, artefacts: artefacts, bin: bin,
		// No model is asked: its address is one nothing listens on.
		baseURL: "http://127.0.0.1:9/v1",
		book:    book, chapter: filepath.FromSlash(editortest.SlipChapter)})

	// The clean chapter, once quire has read the book (its progress shows
	// in the status line), has no mark in the gutter.
	term.waitFor("open", "the chapter and quire's book loaded", showsAll("After the Shoals", "03-after.md", "NOR", "codex entries"))
	time.Sleep(time.Second)
	clean := term.screen(false)
	term.save("clean", clean)
	require.Empty(t, markedLines(clean), "marks on the clean chapter\n%s", term.report())

	// Typing: each line opens below the one before its place (a count,
	// gg, o), then comes as typed text. After each, the gutter must mark
	// exactly the lines of the slips typed so far.
	var want []int
	for _, ty := range slips.Typed {
		term.text(strconv.Itoa(ty.Line))
		term.keys("g", "g", "o")
		term.text(ty.Text)
		typed := time.Now()
		slip := slices.IndexFunc(slips.Slips, func(e editortest.Expected) bool { return e.Line == ty.Line })
		if slip >= 0 {
			want = append(want, ty.Line+1)
		}
		var screen string
		for {
			screen = term.screen(false)
			if slices.Equal(markedLines(screen), want) {
				break
			}
			if time.Since(typed) > stepWait {
				term.save(fmt.Sprintf("typed-%d-FAILED", ty.Line), screen)
				t.Fatalf("after typing line %d, the gutter marks lines %v, not %v\n%s", ty.Line+1, markedLines(screen), want, term.report())
			}
			time.Sleep(20 * time.Millisecond)
		}
		if slip >= 0 {
			t.Logf("time %s %d ms", slips.Slips[slip].Code, time.Since(typed).Milliseconds())
		}
		term.keys("Escape")
		term.save(fmt.Sprintf("typed-%d", ty.Line), term.screen(false))
	}

	// Settled: a second on, still the slips' lines and no other.
	time.Sleep(time.Second)
	settled := term.screen(false)
	term.save("settled", settled)
	require.Equal(t, want, markedLines(settled), "marked lines a second after typing\n%s", term.report())
	require.Contains(t, settled, "pov: Teodra Quill", "the typed front matter")
	require.Contains(t, settled, "The bell rang the 13th stroke; the thirteenth stroke faded.", "the typed prose")

	// ]d goes to each diagnostic in turn and selects its words: the
	// cursor rests on their last character.
	term.keys("g", "g")
	for _, e := range slips.Slips {
		term.keys("]", "d")
		at := fmt.Sprintf("%d:%d", e.Line+1, e.CharEnd)
		term.waitFor("next-"+e.Code, "the cursor at the end of "+strconv.Quote(e.Words)+" ("+at+")", cursorOn(e.Line+1, e.CharEnd))
	}

	// The diagnostics picker lists the slips, once each, by code.
	term.keys("Space", "d")
	n := len(slips.Slips)
	parts := append([]string{fmt.Sprintf("%d/%d", n, n)}, slips.Codes()...)
	picker := term.waitFor("picker", fmt.Sprintf("the %d slips in the diagnostics picker", n), showsAll(parts...))
	// Each row: severity, code, then the message, which starts from the
	// slip's words.
	for _, e := range slips.Slips {
		require.Equal(t, 1, strings.Count(picker, " "+e.Code+" "), "%s in the picker\n%s", e.Code, picker)
		for _, row := range strings.Split(picker, "\n") {
			if _, msg, ok := strings.Cut(row, " "+e.Code+" "); ok {
				require.Contains(t, msg, e.Words, "the picker's %s row", e.Code)
			}
		}
	}
	term.keys("Escape")

	applyFix(t, term, slips, want)
}

// applyFix applies the slip book's quick fix as a writer does in Helix:
// the cursor onto the slip's words (go to the line above, search), the
// code action menu (space a), which must list every offered title, the
// fix's title picked there; then the line reads the fix's After, on
// screen and, once saved, on disk, and the gutter no longer marks the
// fixed line while the other slips' lines stay marked. marked are the
// lines (1-based) the gutter marks before.
func applyFix(t *testing.T, term *terminal, slips editortest.Slips, marked []int) {
	t.Helper()
	fix := slips.Fix
	at := slices.IndexFunc(slips.Slips, func(e editortest.Expected) bool { return e.Code == fix.Code && e.Line == fix.Line })
	require.GreaterOrEqual(t, at, 0, "the fix's slip in the fixture")
	slip := slips.Slips[at]

	// From the line above, the search's first match is the slip's words,
	// selected, so the menu is asked for at them; the status line shows
	// the cursor on their last character.
	term.text(strconv.Itoa(fix.Line))
	term.keys("g", "g", "/")
	term.text(slip.Words)
	term.keys("Enter")
	end := fmt.Sprintf("%d:%d", fix.Line+1, slip.CharEnd)
	term.waitFor("fix-cursor", "the cursor at the end of "+strconv.Quote(slip.Words)+" ("+end+")", cursorOn(fix.Line+1, slip.CharEnd))

	term.keys("Space", "a")
	term.waitFor("fix-menu", "the offered fixes "+strings.Join(fix.Offered, ", ")+" in the code action menu", showsAll(fix.Offered...))
	term.pick("fix-pick", fix.Title)

	// The fix is an edit of the buffer: the line changes on screen, and
	// the slip's mark goes while the others stay.
	var want []int
	for _, n := range marked {
		if n != fix.Line+1 {
			want = append(want, n)
		}
	}
	require.Len(t, want, len(marked)-1, "the fixed line was marked before: %v", marked)
	term.waitFor("fixed", fmt.Sprintf("%q on screen and marks on lines %v", fix.After, want), func(screen string) bool {
		return strings.Contains(screen, fix.After) && slices.Equal(markedLines(screen), want)
	})

	// Saved, the chapter on disk is the typed one with the fixed line.
	lines := strings.Split(slips.Final, "\n")
	lines[fix.Line] = fix.After
	saved := strings.Join(lines, "\n")
	term.command("w")
	deadline := time.Now().Add(stepWait)
	for {
		// Helix saves by moving the old file aside first
		// (helix-editor/helix#11714), so for a moment the chapter is not
		// there: read again until the deadline.
		b, err := os.ReadFile(slips.Chapter)
		if errors.Is(err, fs.ErrNotExist) && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
			continue
		}
		require.NoError(t, err)
		if string(b) == saved {
			break
		}
		if time.Now().After(deadline) {
			require.Equal(t, saved, string(b), "the chapter on disk %s after :w\n%s", stepWait, term.report())
		}
		time.Sleep(100 * time.Millisecond)
	}

	// Settled: a second after the save, the gutter still marks the other
	// slips' lines only, and the diagnostics picker lists the other
	// slips and no longer the fixed one.
	time.Sleep(time.Second)
	settled := term.screen(false)
	term.save("fix-settled", settled)
	require.Equal(t, want, markedLines(settled), "marked lines a second after the fix was saved\n%s", term.report())
	var codes []string
	for _, e := range slips.Slips {
		if e.Code != fix.Code {
			codes = append(codes, e.Code)
		}
	}
	n := len(codes)
	term.keys("Space", "d")
	picker := term.waitFor("fix-picker", fmt.Sprintf("the other %d slips in the diagnostics picker", n),
		showsAll(append([]string{fmt.Sprintf("%d/%d", n, n)}, codes...)...))
	require.NotContains(t, picker, " "+fix.Code+" ", "the fixed slip in the diagnostics picker")
	term.keys("Escape")
}
