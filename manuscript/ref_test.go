package manuscript

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex/linktest"
)

// refProject is a book whose chapters exercise every kind of reference,
// next to a secret file just outside it that nothing may read.
type refProject struct {
	root   string
	secret string // the outside file's path
	m      *Manuscript
	// links says the fixture's symbolic links were made: where the
	// system makes none (linktest), only the cases through them skip.
	links bool
}

func newRefProject(t *testing.T) refProject {
	t.Helper()
	parent, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	root := filepath.Join(parent, "book")
	secret := filepath.Join(parent, "secret.md")
	require.NoError(t, os.WriteFile(secret, []byte(secretSentence+"\n"), 0o644))
	writeFile(t, parent, "outside/secret.md", secretSentence+"\n")
	writeFiles(t, root, projectFiles{
		"manuscript/01-harbor.md":           chapterText("The Harbor", "Mara waited at the harbor."),
		"manuscript/02-storm.md":            "---\ntitle: The Storm\npov: Ilse\n---\n# Storm\n\nThe sea rose.\n",
		"manuscript/03-cafe.md":             chapterText("Café Séverine", "Coffee and rain."),
		"manuscript/04-interlude.md":        chapterText("Interlude", "A pause."),
		"manuscript/part-2/05-interlude.md": chapterText("Interlude", "Another pause."),
		"manuscript/epilogue.md":            chapterText("Epilogue", "The end."),
		"codex/characters/mara.md":          "---\ntype: character\nname: Mara Vell\n---\n# Mara Vell\n\nSmuggler.\n",
		"notes.txt":                         secretSentence,
		"manuscript/notes.txt":              secretSentence,
		".git/config.md":                    secretSentence,
		".env":                              secretSentence,
	})
	require.NoError(t, os.MkdirAll(filepath.Join(root, "manuscript", "folder.md"), 0o755))
	links := linktest.Unsupported() == ""
	if links {
		symlink(t, secret, root, "manuscript/evil.md")
		symlink(t, "../../secret.md", root, "manuscript/evil-relative.md")
		symlink(t, filepath.Join(parent, "outside"), root, "manuscript/outdir")
		symlink(t, parent, root, "up")
	}
	return refProject{root: root, secret: secret, m: openProject(t, root, Options{}), links: links}
}

func TestResolve(t *testing.T) {
	p := newRefProject(t)
	s := p.m.Snapshot()
	require.Equal(t, []string{
		"manuscript/01-harbor.md", "manuscript/02-storm.md", "manuscript/03-cafe.md",
		"manuscript/04-interlude.md", "manuscript/epilogue.md", "manuscript/part-2/05-interlude.md",
	}, paths(s.Units()), "the links out are no chapters")

	turn := Place{Current: "manuscript/02-storm.md"}
	tests := []struct {
		ref  string
		want string
	}{
		{"current", "manuscript/02-storm.md"},
		{" CURRENT ", "manuscript/02-storm.md"},
		// Chapter numbers.
		{"2", "manuscript/02-storm.md"},
		{"02", "manuscript/02-storm.md"},
		{" 2 ", "manuscript/02-storm.md"},
		{"chapter 2", "manuscript/02-storm.md"},
		{"Chapter 2", "manuscript/02-storm.md"},
		{"CHAPTER2", "manuscript/02-storm.md"},
		{"chap 2", "manuscript/02-storm.md"},
		{"chap. 2", "manuscript/02-storm.md"},
		{"ch. 3", "manuscript/03-cafe.md"},
		{"Ch.3", "manuscript/03-cafe.md"},
		{"ch 3", "manuscript/03-cafe.md"},
		{"#3", "manuscript/03-cafe.md"},
		{"# 5", "manuscript/part-2/05-interlude.md"},
		// Titles: case, accents, article, unique prefix, file stem.
		{"The Harbor", "manuscript/01-harbor.md"},
		{"the harbor", "manuscript/01-harbor.md"},
		{"THE HARBOR", "manuscript/01-harbor.md"},
		{"  the   harbor ", "manuscript/01-harbor.md"},
		{"harbor", "manuscript/01-harbor.md"},
		{"The Harb", "manuscript/01-harbor.md"},
		{"the storm", "manuscript/02-storm.md"},
		{"storm", "manuscript/02-storm.md"},
		{"Café Séverine", "manuscript/03-cafe.md"},
		{"cafe severine", "manuscript/03-cafe.md"},
		{"CAFÉ SÉV", "manuscript/03-cafe.md"},
		{"caf", "manuscript/03-cafe.md"},
		{"01-harbor", "manuscript/01-harbor.md"},
		{"epilogue", "manuscript/epilogue.md"},
		{"Epi", "manuscript/epilogue.md"},
		{"04-interlude", "manuscript/04-interlude.md"},
		// Paths.
		{"manuscript/02-storm.md", "manuscript/02-storm.md"},
		{"./manuscript/02-storm.md", "manuscript/02-storm.md"},
		{"manuscript//02-storm.md", "manuscript/02-storm.md"},
		{"manuscript/./02-storm.md", "manuscript/02-storm.md"},
		{"manuscript/part-2/05-interlude.md", "manuscript/part-2/05-interlude.md"},
		{"codex/characters/mara.md", "codex/characters/mara.md"},
	}
	for _, tt := range tests {
		t.Run(tt.ref, func(t *testing.T) {
			u, err := s.Resolve(tt.ref, turn)
			require.NoError(t, err)
			assert.Equal(t, tt.want, u.Path)
		})
	}
}

func TestResolveUnits(t *testing.T) {
	p := newRefProject(t)
	s := p.m.Snapshot()

	u, err := s.Resolve("2", Place{})
	require.NoError(t, err)
	assert.Equal(t, "The Storm", u.Title)
	assert.Equal(t, 2, u.Number)
	assert.Equal(t, 2, u.Position)
	assert.Same(t, s.Units()[1], u, "a chapter resolves to the snapshot's unit")

	// A document that is no chapter reads from disk, without a place in
	// reading order.
	d, err := s.Resolve("current", Place{Current: "codex/characters/mara.md"})
	require.NoError(t, err)
	assert.Equal(t, "Mara Vell", d.Title)
	assert.Zero(t, d.Position)
	assert.Contains(t, d.BodyText(), "Smuggler.")
}

func TestResolveErrors(t *testing.T) {
	p := newRefProject(t)
	s := p.m.Snapshot()

	refErr := func(t *testing.T, ref string, place Place) *RefError {
		t.Helper()
		u, err := s.Resolve(ref, place)
		require.Error(t, err)
		assert.Nil(t, u)
		var re *RefError
		require.True(t, errors.As(err, &re), "%T %v", err, err)
		assert.NotErrorIs(t, err, ErrPathRefused)
		return re
	}

	t.Run("empty", func(t *testing.T) {
		refErr(t, "", Place{})
		refErr(t, " \t ", Place{})
	})
	t.Run("no current document", func(t *testing.T) {
		re := refErr(t, "current", Place{})
		assert.Contains(t, re.Error(), "no document is active")
	})
	t.Run("selection is not a unit", func(t *testing.T) {
		refErr(t, "selection", Place{Current: "manuscript/01-harbor.md"})
	})
	t.Run("too long", func(t *testing.T) {
		// An odd byte count before the two-byte letters: a cut at 64 bytes
		// would fall inside one.
		re := refErr(t, "x"+strings.Repeat("é", 400), Place{})
		assert.True(t, utf8.ValidString(re.Ref), "the shortened ref is not cut inside a character")
		assert.Less(t, len(re.Ref), 80)
		assert.True(t, utf8.ValidString(re.Error()))
	})
	t.Run("unknown title", func(t *testing.T) {
		re := refErr(t, "the stom", Place{})
		assert.False(t, re.Ambiguous)
		require.NotEmpty(t, re.Candidates)
		assert.Equal(t, Candidate{Ref: "2", Path: "manuscript/02-storm.md", Title: "The Storm"}, re.Candidates[0])
		assert.Contains(t, re.Error(), `"the stom"`)
		assert.Contains(t, re.Error(), "closest:")
		assert.Contains(t, re.Error(), `2 "The Storm" (manuscript/02-storm.md)`)
	})
	t.Run("long unknown title", func(t *testing.T) {
		re := refErr(t, strings.Repeat("harbor ", 60), Place{})
		assert.False(t, re.Ambiguous)
	})
	t.Run("unknown title far from all", func(t *testing.T) {
		re := refErr(t, "zzzzzzzzzzzzzzzz", Place{})
		assert.Empty(t, re.Candidates)
	})
	t.Run("ambiguous title", func(t *testing.T) {
		re := refErr(t, "interlude", Place{})
		assert.True(t, re.Ambiguous)
		assert.Equal(t, []Candidate{
			{Ref: "4", Path: "manuscript/04-interlude.md", Title: "Interlude"},
			{Ref: "5", Path: "manuscript/part-2/05-interlude.md", Title: "Interlude"},
		}, re.Candidates)
		assert.Contains(t, re.Error(), "it could be")
	})
	t.Run("ambiguous prefix", func(t *testing.T) {
		re := refErr(t, "the", Place{})
		assert.True(t, re.Ambiguous)
		assert.ElementsMatch(t, []string{"manuscript/01-harbor.md", "manuscript/02-storm.md"}, candidatePaths(re))
		re = refErr(t, "Inter", Place{})
		assert.True(t, re.Ambiguous)
		assert.Len(t, re.Candidates, 2)
	})
	t.Run("unknown number", func(t *testing.T) {
		re := refErr(t, "chapter 9", Place{})
		assert.False(t, re.Ambiguous)
		assert.Contains(t, re.Reason, "no chapter is numbered 9")
		assert.Equal(t, []string{"manuscript/part-2/05-interlude.md", "manuscript/04-interlude.md", "manuscript/03-cafe.md"}, candidatePaths(re))
	})
	t.Run("missing path", func(t *testing.T) {
		re := refErr(t, "manuscript/09-storms.md", Place{})
		assert.Contains(t, re.Reason, "no such manuscript file")
		assert.Contains(t, candidatePaths(re), "manuscript/02-storm.md")
	})
	t.Run("only combining marks", func(t *testing.T) {
		// Nothing is left once accents are ignored: that is no prefix of
		// every title.
		re := refErr(t, "\u0301\u0301", Place{})
		assert.False(t, re.Ambiguous)
		assert.Empty(t, re.Candidates)
		one := openFiles(t, projectFiles{"manuscript/01-only.md": chapterText("Only", "Text.")}).Snapshot()
		_, err := one.Resolve("\u0301", Place{})
		assert.Error(t, err)
	})
}

func TestResolveNumbersInParts(t *testing.T) {
	m := openFiles(t, projectFiles{
		"manuscript/part-1/01-arrival.md": chapterText("Arrival", "A."),
		"manuscript/part-1/02-market.md":  chapterText("Market", "B."),
		"manuscript/part-2/01-return.md":  chapterText("Return", "C."),
	})
	s := m.Snapshot()
	_, err := s.Resolve("1", Place{})
	var re *RefError
	require.ErrorAs(t, err, &re)
	assert.True(t, re.Ambiguous)
	// Each candidate's ref names it alone: the shared number would not.
	assert.Equal(t, []Candidate{
		{Ref: "manuscript/part-1/01-arrival.md", Path: "manuscript/part-1/01-arrival.md", Title: "Arrival"},
		{Ref: "manuscript/part-2/01-return.md", Path: "manuscript/part-2/01-return.md", Title: "Return"},
	}, re.Candidates)
	for _, c := range re.Candidates {
		u, err := s.Resolve(c.Ref, Place{})
		require.NoError(t, err)
		assert.Equal(t, c.Path, u.Path)
	}
	u, err := s.Resolve("2", Place{})
	require.NoError(t, err)
	assert.Equal(t, "Market", u.Title)
}

// Titles may look like paths; a chapter titled so is still found by its
// title, exactly, while everything else about the path rules holds.
func TestResolveTitleLooksLikePath(t *testing.T) {
	s := openFiles(t, projectFiles{
		"manuscript/01-either.md": chapterText("Either/Or", "A."),
		"manuscript/02-always.md": chapterText("24/7", "B."),
		"manuscript/03-notes.md":  chapterText("Notes.md", "C."),
	}).Snapshot()
	for ref, want := range map[string]string{
		"Either/Or": "manuscript/01-either.md",
		"either/or": "manuscript/01-either.md",
		"24/7":      "manuscript/02-always.md",
		"notes.md":  "manuscript/03-notes.md",
	} {
		u, err := s.Resolve(ref, Place{})
		require.NoError(t, err, ref)
		assert.Equal(t, want, u.Path, ref)
	}
	for _, ref := range []string{"Either/", "Either/O", "../", "../secret.md"} {
		_, err := s.Resolve(ref, Place{})
		assert.ErrorIs(t, err, ErrPathRefused, "%q: no prefix of a title after a refusal", ref)
	}
	_, err := s.Resolve("Either/Or/x.md", Place{})
	var re *RefError
	require.ErrorAs(t, err, &re)
	assert.Contains(t, re.Reason, "no such manuscript file")
}

func TestResolveRefusesOversizeAndSpecialFiles(t *testing.T) {
	root := newProject(t, projectFiles{"manuscript/01-dawn.md": chapterText("Dawn", "Dawn.")})
	big := filepath.Join(root, "manuscript", "02-huge.md")
	f, err := os.Create(big)
	require.NoError(t, err)
	require.NoError(t, f.Truncate(MaxUnitBytes+1)) // sparse: no 16 MB written
	require.NoError(t, f.Close())
	sock := filepath.Join(root, "manuscript", "03-sock.md")
	l, err := net.Listen("unix", sock)
	if err == nil {
		t.Cleanup(func() { l.Close() })
	}

	m := openProject(t, root, Options{})
	assert.Equal(t, []string{"manuscript/01-dawn.md"}, paths(m.Snapshot().Units()), "neither is read as a chapter")
	_, err = m.Snapshot().Resolve("manuscript/02-huge.md", Place{})
	require.ErrorIs(t, err, ErrPathRefused)
	assert.Contains(t, err.Error(), "limit")
	if l != nil {
		_, err = m.Snapshot().Resolve("manuscript/03-sock.md", Place{})
		require.ErrorIs(t, err, ErrPathRefused)
		assert.Contains(t, err.Error(), "not a regular file")
	}

	assert.Equal(t, []string{"manuscript/02-huge.md"}, problemPaths(m.Snapshot().Unreadable()), "the writer is told of the chapter too large to read")
	_, err = m.Refresh(context.Background(), []string{"manuscript/02-huge.md", "manuscript/03-sock.md"})
	require.NoError(t, err)
	assert.Equal(t, []string{"manuscript/01-dawn.md"}, paths(m.Snapshot().Units()))
	assert.Equal(t, []string{"manuscript/02-huge.md"}, problemPaths(m.Snapshot().Unreadable()))
}

func TestResolveUnnumbered(t *testing.T) {
	m := openFiles(t, projectFiles{
		"manuscript/arrival.md": chapterText("Arrival", "A."),
		"manuscript/market.md":  chapterText("Market", "B."),
		"manuscript/return.md":  chapterText("Return", "C."),
	})
	s := m.Snapshot()
	// With no numbered file, a number is a place in reading order.
	u, err := s.Resolve("chapter 2", Place{})
	require.NoError(t, err)
	assert.Equal(t, "manuscript/market.md", u.Path)
	_, err = s.Resolve("0", Place{})
	assert.Error(t, err)
	_, err = s.Resolve("4", Place{})
	var re *RefError
	require.ErrorAs(t, err, &re)
	assert.Contains(t, re.Reason, "3 chapters")
	assert.Equal(t, "manuscript/return.md", re.Candidates[0].Path)
	assert.Equal(t, "manuscript/return.md", re.Candidates[0].Ref)
}

func TestResolveEmptyManuscript(t *testing.T) {
	s := openFiles(t, nil).Snapshot()
	for _, ref := range []string{"1", "title", "manuscript/01.md"} {
		_, err := s.Resolve(ref, Place{})
		var re *RefError
		require.ErrorAs(t, err, &re, ref)
		assert.Empty(t, re.Candidates)
	}
}

// pathTraversals are references whose text alone shows they would read
// outside the project, a hidden file, or a file that is not Markdown.
var pathTraversals = []string{
	"../secret.md",
	"manuscript/../../x.md",
	"manuscript/../../secret.md",
	"manuscript/./../../secret.md",
	"/etc/passwd",
	"/etc/passwd.md",
	`C:\x.md`,
	"c:/x.md",
	"C:x.md",
	`\\server\share\x.md`,
	"~/x.md",
	"~",
	"~root/x.md",
	"..",
	"...",
	"....//secret.md",
	"%2e%2e/x.md",
	"..%2fx.md",
	"%2e%2e%2fsecret.md",
	"manuscript/%2e%2e/%2e%2e/secret.md",
	"manuscript%2f01-harbor.md",
	`manuscript\01-harbor.md`,
	`manuscript\\01-harbor.md`,
	`..\secret.md`,
	"file:///etc/passwd",
	"file:../secret.md",
	"FILE:///etc/passwd.md",
	"https://example.com/x.md",
	".git/config.md",
	"manuscript/.hidden.md",
	".env",
	"notes.txt",
	"manuscript/notes.txt",
	"/",
	"manuscript/01-harbor.md\x00.txt",
	"manuscript/01-harbor.md\r\n.md",
}

// linkTraversals look like plain project paths; the file system shows
// where they lead (see newRefProject): out through a link, or to a
// folder.
var linkTraversals = []string{
	"manuscript/evil.md",
	"manuscript/evil-relative.md",
	"manuscript/outdir/secret.md",
	"up/secret.md",
	"manuscript/folder.md",
}

var traversals = append(slices.Clone(pathTraversals), linkTraversals...)

func TestResolveRefusesTraversal(t *testing.T) {
	p := newRefProject(t)
	s := p.m.Snapshot()
	for _, ref := range traversals {
		t.Run(ref, func(t *testing.T) {
			if !p.links && slices.Contains(linkTraversals, ref) {
				t.Skipf("skipped: %s", linktest.Unsupported())
			}
			u, err := s.Resolve(ref, Place{})
			assert.Nil(t, u)
			require.ErrorIs(t, err, ErrPathRefused)
			assert.NotContains(t, err.Error(), "lighthouse")
			assert.NotContains(t, err.Error(), filepath.Dir(p.root), "errors name no place outside the project")

			// As the active document, the same path is refused.
			_, err = s.Resolve("current", Place{Current: ref})
			require.ErrorIs(t, err, ErrPathRefused)
			_, err = s.Document(ref)
			require.ErrorIs(t, err, ErrPathRefused)

			// And through the context, alone or among good references.
			_, err = s.Context([]string{ref}, Place{}, Limits{})
			require.ErrorIs(t, err, ErrPathRefused)
			c, err := s.Context([]string{"1", ref}, Place{}, Limits{})
			require.NoError(t, err)
			require.Len(t, c.Units, 1)
			require.Len(t, c.Failed, 1)
			assert.Equal(t, ref, c.Failed[0].Ref)
			assert.Contains(t, c.Failed[0].Error, "path refused")
		})
	}
}

func TestResolveTrimsSpace(t *testing.T) {
	p := newRefProject(t)
	s := p.m.Snapshot()
	u, err := s.Resolve("manuscript/01-harbor.md\n", Place{})
	require.NoError(t, err)
	assert.Equal(t, "manuscript/01-harbor.md", u.Path)
	u, err = s.Resolve("current", Place{Current: " codex/characters/mara.md\n"})
	require.NoError(t, err)
	assert.Equal(t, "codex/characters/mara.md", u.Path)
}

// A link out of the project and back in reads a project file: that is
// no escape, and the path stays the one given.
func TestResolveLinkOutAndBackIn(t *testing.T) {
	p := newRefProject(t)
	if !p.links {
		t.Skipf("skipped: %s", linktest.Unsupported())
	}
	u, err := p.m.Snapshot().Resolve("up/book/manuscript/01-harbor.md", Place{})
	require.NoError(t, err)
	assert.Equal(t, "up/book/manuscript/01-harbor.md", u.Path)
	assert.Equal(t, "The Harbor", u.Title)
}

func TestResolveMissingCurrent(t *testing.T) {
	p := newRefProject(t)
	_, err := p.m.Snapshot().Resolve("current", Place{Current: "manuscript/07-gone.md"})
	require.ErrorIs(t, err, os.ErrNotExist)
	assert.NotContains(t, err.Error(), p.root, "errors name project paths relative to it")
}

func TestResolveSymlinkInside(t *testing.T) {
	p := newRefProject(t)
	symlink(t, "../codex/characters/mara.md", p.root, "manuscript/06-mara.md")
	symlink(t, "../codex", p.root, "manuscript/codex-link")
	s := p.m.Snapshot()
	for _, ref := range []string{"manuscript/06-mara.md", "manuscript/codex-link/characters/mara.md"} {
		u, err := s.Resolve(ref, Place{})
		require.NoError(t, err, ref)
		assert.Equal(t, ref, u.Path)
		assert.Equal(t, "Mara Vell", u.Title)
	}
}

func TestCheckRelPath(t *testing.T) {
	for _, ref := range pathTraversals {
		_, err := checkRelPath(ref)
		assert.ErrorIs(t, err, ErrPathRefused, "%q", ref)
	}
	for _, ref := range linkTraversals {
		_, err := checkRelPath(ref)
		assert.NoError(t, err, "%q is refused when opened, not before", ref)
	}
	for in, want := range map[string]string{
		"":                         "",
		"   ":                      "",
		"manuscript/01.md":         "manuscript/01.md",
		" manuscript/01.md ":       "manuscript/01.md",
		"./manuscript/01.md":       "manuscript/01.md",
		"manuscript/part/../01.md": "", // refused: no climbing at all
		"a//b/./c.markdown":        "a/b/c.markdown",
		"Chapter One.MD":           "Chapter One.MD",
		"manuscript/~draft.md":     "manuscript/~draft.md",
	} {
		got, err := checkRelPath(in)
		if want == "" {
			assert.ErrorIs(t, err, ErrPathRefused, in)
			continue
		}
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
}

func candidatePaths(re *RefError) []string {
	out := make([]string, len(re.Candidates))
	for i, c := range re.Candidates {
		out[i] = c.Path
	}
	return out
}

// "#2" is how quire labels the second chapter when its file name has no
// number (ChapterLabel); the label finds the chapter again, in a book
// whose other files are numbered too.
func TestResolveLabelByPlace(t *testing.T) {
	s := openFiles(t, projectFiles{
		"manuscript/01-arrival.md": chapterText("Arrival", "A."),
		"manuscript/02-market.md":  chapterText("Market", "B."),
		"manuscript/epilogue.md":   chapterText("Epilogue", "C."),
	}).Snapshot()
	for _, u := range s.Units() {
		got, err := s.Resolve(u.Label(), Place{})
		require.NoError(t, err, u.Label())
		assert.Equal(t, u.Path, got.Path, u.Label())
	}
	u, err := s.Resolve("#3", Place{})
	require.NoError(t, err)
	assert.Equal(t, "Epilogue", u.Title)
	assert.Equal(t, "#3", u.Label())
	_, err = s.Resolve("#4", Place{})
	var re *RefError
	require.ErrorAs(t, err, &re)
	assert.Contains(t, re.Reason, "3 chapters")
}
