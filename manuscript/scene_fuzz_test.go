package manuscript

import (
	"strings"
	"testing"
)

// FuzzScenes checks the scene split of any text: no panic, scenes that
// tile the body in order, notes and problems inside the text.
func FuzzScenes(f *testing.F) {
	for _, seed := range []string{
		"Alpha.\n\n* * *\n\nBeta.\n",
		"---\npov: A\n---\n# One\n\n<!-- scene\nday: 2\nsynopsis: x\n-->\n\nAlpha.\n\n## Two\n\nBeta.\n",
		"<!-- scene: {status: draft} -->\n***\n---\n___\n#\n§\n",
		"```\n***\n```\n<!--\n***\n",
		"<!-- scene\n- a\n-->\n\n<!-- scene\nday: [1\n-->\n",
	} {
		f.Add(seed, 0)
	}
	f.Fuzz(func(t *testing.T, text string, headings int) {
		u := NewUnit("manuscript/01-a.md", text, 0)
		rules := SceneRules{Headings: headings % 4, Breaks: []string{"§"}}
		scenes := u.Scenes(rules)
		if len(scenes) == 0 {
			t.Fatal("a chapter has at least one scene")
		}
		at := u.Body.Start
		for i, s := range scenes {
			if s.Number != i+1 || s.Range.Start != at || s.Range.End < s.Range.Start || s.Range.End > len(u.Text) {
				t.Fatalf("scene %d at %v, want from %d within %d", i+1, s.Range, at, len(u.Text))
			}
			if n := s.Note.Range; n.End > 0 && (n.Start < s.Range.Start || n.End > s.Range.End) {
				t.Fatalf("note %v outside its scene %v", n, s.Range)
			}
			at = s.Range.End
		}
		for _, p := range u.SceneProblems(rules) {
			if p.Range.Start < 0 || p.Range.End > len(u.Text) || p.Range.Start > p.Range.End {
				t.Fatalf("problem at %v outside the text", p.Range)
			}
		}
	})
}

// TestScenesLinear splits 10 MB of breaks, notes and headings: a bad
// book costs time in proportion to its size.
func TestScenesLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("10 MB of scene breaks; run without -short")
	}
	var b strings.Builder
	for b.Len() < 10<<20 {
		b.WriteString("Alpha.\n\n* * *\n\n<!-- scene\nday: 3\n-->\n\n## H\n\n")
	}
	u := NewUnit("manuscript/01-a.md", b.String(), 0)
	scenes := u.Scenes(SceneRules{})
	if len(scenes) < 100_000 {
		t.Fatalf("%d scenes", len(scenes))
	}
}

// FuzzSetOutline sets a field on any scene of any text: no panic, an
// edit inside the text, and where it succeeds the field reads back.
func FuzzSetOutline(f *testing.F) {
	f.Add("Alpha.\n\n* * *\n\n<!-- scene\npov: A\n-->\n\nBeta.\n", 2, "status", "draft")
	f.Add("---\ntitle: T\n---\n# T\n\nAlpha.\n", 0, "synopsis", "It: begins")
	f.Add("<!-- scene: {day: 3} -->\nAlpha.\n", 1, "day", "4")
	f.Fuzz(func(t *testing.T, text string, n int, key, value string) {
		u := NewUnit("manuscript/01-a.md", text, 0)
		e, err := u.SetOutline(SceneRules{}, n%5, Field{key, value})
		if err != nil {
			return
		}
		if e.Range.Start < 0 || e.Range.End > len(u.Text) || e.Range.Start > e.Range.End {
			t.Fatalf("edit at %v outside the text of %d bytes", e.Range, len(u.Text))
		}
		_ = NewUnit(u.Path, e.Apply(u.Text), 1).Scenes(SceneRules{})
	})
}
