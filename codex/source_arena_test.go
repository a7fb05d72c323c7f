package codex

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An entry parsed with its text kept in an arena is the entry Parse
// makes: the arena changes where the text lives, not what is read.
func TestParseIntoAnArenaReadsAsParse(t *testing.T) {
	sources := map[string]string{
		"codex/characters/mara.md": "---\nname: Mara Vell\naliases: [Mara, \"the Captain\"]\ntags: [crew, harbor]\nstatus: tentative\neye colour: grey\nlocked: [name]\nexclude: [Mara Bay]\n---\n# Mara\n\nShe rows past [[Gull Rock|the rock]] at dawn.\n\n## Soul\n\nShe fears [[Ilse Dorn#Soul]].\n",
		"codex/places/gull.md":     "---\ntype: location\n---\nGull Rock rises from the bay.\r\nIt is white with birds.\r\n",
		"codex/items/lens.md":      "---\nname: \"The Lens\"\nsummary: >\n  A lens of green glass\n  ground in Valletta.\nstatus: dead\n---\nBody with `[[not a link]]` in code.\n",
		"codex/concepts/bad.md":    "---\nname: Bad \xff Name\naliases: [x\n---\nBroken front matter.\n",
		"codex/characters/old.md":  "---\r\nname: Old Tom\r\n---\r\n# Old Tom\r\n\r\nHe keeps the light.\r\n",
	}
	dirs := map[string]Type{"codex/characters": TypeCharacter, "codex/places": TypeLocation, "codex/items": TypeItem, "codex/concepts": TypeConcept}
	if samples, err := filepath.Glob(filepath.Join("testdata", "*", "*.md")); err == nil {
		for _, p := range samples {
			if b, err := os.ReadFile(p); err == nil {
				sources[filepath.ToSlash(p)] = string(b)
			}
		}
	}
	for id, src := range sources {
		folder := dirs[id[:strings.LastIndex(id, "/")]]
		want, wantProblems := Parse(id, []byte(src), folder)
		arena := &sourceArena{data: make([]byte, 64<<10)}
		got, gotProblems := parseInto(id, []byte(src), folder, arena)
		require.Equal(t, want, got, id)
		assert.Equal(t, wantProblems, gotProblems, id)
		if got != nil && got.Source != "" {
			assert.True(t, inMapping(got.Source, [][]byte{arena.data}), "%s: its text in the arena", id)
		}
	}
}

// inMapping says s's bytes lie inside one of the mappings.
func inMapping(s string, mappings [][]byte) bool {
	p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
	for _, m := range mappings {
		start := uintptr(unsafe.Pointer(unsafe.SliceData(m)))
		if p >= start && p+uintptr(len(s)) <= start+uintptr(len(m)) {
			return true
		}
	}
	return false
}
