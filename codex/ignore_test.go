package codex

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestIgnore(t *testing.T) {
	type check struct {
		path    string
		dir     bool
		ignored bool
	}
	tests := []struct {
		name      string
		gitignore string
		checks    []check
	}{
		{name: "defaults", checks: []check{
			{".git", true, true},
			{".git/HEAD", false, true},
			{".obsidian/workspace.json", false, true},
			{".DS_Store", false, true},
			{"codex/.mara-vell.md.swp", false, true},
			{"codex/.drafts/x.md", false, true},
			{"node_modules", true, true},
			{"node_modules/pkg/readme.md", false, true},
			{"codex/node_modules/x.md", false, true},
			{"node_modules", false, false}, // a file of that name is not the folder
			{"codex/characters/mara-vell.md", false, false},
			{"manuscript", true, false},
			{"", true, false},
			{".", true, false},
			{"/codex/characters/mara-vell.md/", false, false},
		}},
		{name: "comments and blank lines", gitignore: "# drafts\n\n   \n*.tmp\n", checks: []check{
			{"# drafts", false, false},
			{"a.tmp", false, true},
			{"codex/b.tmp", false, true},
			{"a.tmp.md", false, false},
		}},
		{name: "escaped hash and bang", gitignore: "\\#hash\n\\!bang\n", checks: []check{
			{"#hash", false, true},
			{"!bang", false, true},
			{"hash", false, false},
			{"bang", false, false},
		}},
		{name: "negation re-includes", gitignore: "*.md\n!keep.md\n", checks: []check{
			{"codex/x.md", false, true},
			{"codex/keep.md", false, false},
			{"keep.md", false, false},
		}},
		{name: "last match wins", gitignore: "!keep.md\n*.md\n", checks: []check{
			{"keep.md", false, true},
		}},
		{name: "negation cannot beat the defaults' folders", gitignore: "!.obsidian/notes.md\n", checks: []check{
			{".obsidian/notes.md", false, true},
		}},
		{name: "negating a dotfile", gitignore: "!.quire.md\n", checks: []check{
			{".quire.md", false, false},
			{".other.md", false, true},
		}},
		{name: "trailing slash is folders only", gitignore: "build/\n", checks: []check{
			{"build", true, true},
			{"build", false, false},
			{"build/out.md", false, true},
			{"codex/build", true, true},
			{"codex/build/x.md", false, true},
		}},
		{name: "leading slash anchors", gitignore: "/drafts\n", checks: []check{
			{"drafts", true, true},
			{"drafts", false, true},
			{"drafts/x.md", false, true},
			{"codex/drafts", true, false},
			{"codex/drafts/x.md", false, false},
		}},
		{name: "inner slash anchors", gitignore: "codex/old\n", checks: []check{
			{"codex/old", true, true},
			{"codex/old/x.md", false, true},
			{"archive/codex/old", true, false},
			{"codex/older", true, false},
		}},
		{name: "anchored wildcard stays in one folder", gitignore: "/codex/*.md\n", checks: []check{
			{"codex/a.md", false, true},
			{"codex/sub/a.md", false, false},
		}},
		{name: "leading double star", gitignore: "**/secret\n", checks: []check{
			{"secret", true, true},
			{"a/secret", true, true},
			{"a/b/secret/x.md", false, true},
			{"a/secrets", true, false},
		}},
		{name: "middle double star", gitignore: "a/**/b\n", checks: []check{
			{"a/b", true, true},
			{"a/x/b", true, true},
			{"a/x/y/b", false, true},
			{"a/x/y/b/z.md", false, true},
			{"b", true, false},
			{"x/a/b", true, false},
			{"a/x/c", false, false},
		}},
		{name: "trailing double star", gitignore: "notes/**\n!notes/keep.md\n", checks: []check{
			{"notes/x.md", false, true},
			{"notes/sub/x.md", false, true},
			{"notes/keep.md", false, false},
			{"notes", true, false},
			{"codex/notes/x.md", false, false},
		}},
		{name: "excluded folder cannot be re-included from", gitignore: "drafts/\n!drafts/keep.md\n", checks: []check{
			{"drafts/keep.md", false, true},
		}},
		{name: "trailing spaces", gitignore: "foo   \nbar\\ \n", checks: []check{
			{"foo", false, true},
			{"foo   ", false, false},
			{"bar ", false, true},
			{"bar", false, false},
		}},
		{name: "CRLF file", gitignore: "build\r\n*.tmp\r\n", checks: []check{
			{"build", true, true},
			{"x.tmp", false, true},
		}},
		{name: "wildcards", gitignore: "*.[oa]\nch?pter.md\n", checks: []check{
			{"x.o", false, true},
			{"lib.a", false, true},
			{"x.c", false, false},
			{"chapter.md", false, true},
			{"chXpter.md", false, true},
			{"chaapter.md", false, false},
		}},
		{name: "bad patterns match nothing", gitignore: "[\n/\n!\n", checks: []check{
			{"[", false, false},
			{"x", false, false},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ig := ParseIgnore(tt.gitignore)
			for _, c := range tt.checks {
				assert.Equal(t, c.ignored, ig.Ignored(c.path, c.dir), "Ignored(%q, dir=%v)", c.path, c.dir)
			}
		})
	}
}
