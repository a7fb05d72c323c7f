package manuscript

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/linktest"
)

// FuzzResolve checks the promise the resolver makes to a model that may
// write anything: no reference, whatever its bytes, reads outside the
// project. A secret file lies next to the project and links inside point
// at it; for every reference, Resolve and Context must not panic, every
// unit they return must lie inside the root once its path is joined to
// it and its links followed, and no text may be the secret's.
//
// Run with: go test ./manuscript -run '^$' -fuzz '^FuzzResolve$' -fuzztime 60s
func FuzzResolve(f *testing.F) {
	parent, err := filepath.EvalSymlinks(f.TempDir())
	if err != nil {
		f.Fatal(err)
	}
	root := filepath.Join(parent, "book")
	const secret = "SECRET-7f3a: " + secretSentence + "\n"
	files := map[string]string{
		"secret.md":                         secret,
		"outside/secret.md":                 secret,
		"outside/01-far.md":                 secret,
		"book/manuscript/01-harbor.md":      chapterText("The Harbor", "Mara waited at the harbor."),
		"book/manuscript/02-storm.md":       "---\ntitle: The Storm\n---\n# Storm\n\nThe sea rose.\n",
		"book/manuscript/03-cafe.md":        chapterText("Café Séverine", "Coffee and rain."),
		"book/manuscript/part-2/04-x.md":    chapterText("Interlude", "A pause."),
		"book/manuscript/epilogue.md":       chapterText("Epilogue", "The end."),
		"book/codex/characters/mara.md":     "# Mara Vell\n\nSmuggler.\n",
		"book/notes.txt":                    secret,
		"book/.git/config.md":               secret,
		"book/manuscript/.hidden/secret.md": secret,
	}
	for rel, text := range files {
		p := filepath.Join(parent, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			f.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			f.Fatal(err)
		}
	}
	links := map[string]string{
		"book/manuscript/evil.md":          filepath.Join(parent, "secret.md"),
		"book/manuscript/05-evil.md":       "../../secret.md",
		"book/manuscript/outdir":           filepath.Join(parent, "outside"),
		"book/manuscript/06-outdir.md":     "../../outside",
		"book/up":                          "..",
		"book/manuscript/07-inside.md":     "../codex/characters/mara.md",
		"book/manuscript/loop.md":          "loop.md",
		"book/manuscript/08-chain.md":      "evil.md",
		"book/codex/characters/escape.md":  "../../../secret.md",
		"book/manuscript/part-2/05-far.md": "../../../outside/01-far.md",
	}
	for rel, target := range links {
		linktest.Symlink(f, target, filepath.Join(parent, filepath.FromSlash(rel)))
	}

	ctx := context.Background()
	m, err := Open(ctx, root, Options{})
	if err != nil {
		f.Fatal(err)
	}
	// An unsaved chapter that exists only in the editor, and a path
	// outside the project that an editor might (wrongly) report as open.
	if err := m.OpenDocument(ctx, "manuscript/09-unsaved.md", chapterText("Unsaved", "Not on disk."), 1); err != nil {
		f.Fatal(err)
	}
	if err := m.OpenDocument(ctx, "../secret.md", secret, 1); err != nil {
		f.Fatal(err)
	}
	s := m.Snapshot()
	sel, err := Capture(s.Units()[0], codex.Range{Start: 0, End: 5})
	if err != nil {
		f.Fatal(err)
	}

	seeds := append([]string{
		"current", "selection", "1", "chapter 2", "ch. 3", "#3", "4", "99", "0",
		"The Harbor", "the storm", "cafe sev", "interlude", "the", "epi",
		"manuscript/01-harbor.md", "./manuscript/02-storm.md", "codex/characters/mara.md",
		"manuscript/07-inside.md", "manuscript/08-chain.md", "manuscript/loop.md",
		"manuscript/06-outdir.md", "manuscript/06-outdir.md/01-far.md", "manuscript/09-unsaved.md",
		"codex/characters/escape.md", "manuscript/part-2/05-far.md", "up/book/manuscript/01-harbor.md",
		"manuscript/.hidden/secret.md", "book/notes.txt", "",
	}, traversals...)
	for _, ref := range seeds {
		f.Add(ref, "manuscript/01-harbor.md")
		f.Add(ref, ref)
	}

	f.Fuzz(func(t *testing.T, ref, current string) {
		turn := Place{Current: current, Selection: sel}
		u, err := s.Resolve(ref, turn)
		if err == nil {
			checkInside(t, root, m.Overlay(), u.Path, u.Text, secret)
		} else {
			checkError(t, err)
		}

		refs := []string{ref, "current", ref + "/x.md", "../" + ref}
		if i := strings.IndexByte(ref, ','); i >= 0 {
			refs = append(refs, ref[:i], ref[i+1:])
		}
		c, err := s.Context(refs, turn, Limits{Unit: 300, Total: 1000})
		if err != nil {
			checkError(t, err)
			return
		}
		if c.Chars > 1000 {
			t.Fatalf("context returned %d characters, over its limit", c.Chars)
		}
		for _, cu := range c.Units {
			if cu.Kind == KindSelection {
				if cu.Path != sel.Path {
					t.Fatalf("selection unit has path %q", cu.Path)
				}
				continue
			}
			checkInside(t, root, m.Overlay(), cu.Path, cu.Text, secret)
			if !utf8.ValidString(cu.Text) {
				t.Fatalf("unit %q: text is not valid UTF-8", cu.Path)
			}
		}
		for _, fr := range c.Failed {
			if strings.Contains(fr.Error, "SECRET-7f3a") {
				t.Fatalf("an error carries the secret: %s", fr.Error)
			}
		}
	})
}

// checkInside fails the test unless rel, joined to root with its links
// followed, lies inside root (or is an unsaved document of the overlay
// with a clean project path), and text is not the secret.
func checkInside(t *testing.T, root string, overlay *Overlay, rel, text, secret string) {
	t.Helper()
	if text == secret || strings.Contains(text, "SECRET-7f3a") {
		t.Fatalf("unit %q returned the secret", rel)
	}
	if clean, err := checkRelPath(rel); err != nil || clean != rel {
		t.Fatalf("unit path %q is no clean project path (%v)", rel, err)
	}
	full := filepath.Join(root, filepath.FromSlash(rel))
	if !within(root, full) {
		t.Fatalf("unit path %q leaves the project lexically", rel)
	}
	real, err := filepath.EvalSymlinks(full)
	if err != nil {
		if _, open := overlay.Get(rel); open && errors.Is(err, os.ErrNotExist) {
			return // unsaved: only in the editor
		}
		t.Fatalf("unit %q does not resolve: %v", rel, err)
	}
	if !within(root, real) {
		t.Fatalf("unit %q resolves to %s, outside %s", rel, real, root)
	}
}

func checkError(t *testing.T, err error) {
	t.Helper()
	if strings.Contains(err.Error(), "SECRET-7f3a") {
		t.Fatalf("an error carries the secret: %v", err)
	}
}
