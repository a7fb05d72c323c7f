package codex

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// FuzzGlob compiles arbitrary patterns and matches arbitrary paths: no
// panic, and a pattern that compiles never reaches outside the project.
func FuzzGlob(f *testing.F) {
	for _, seed := range [][2]string{
		{"manuscript/**/*.md", "manuscript/part-1/01.md"},
		{"**/**/**/**/**/**/**/x/**/x/**/x/**/y", strings.Repeat("x/", 60) + "z"},
		{"draft/[a-", "draft/a"},
		{"../x/*.md", "x/a.md"},
		{"/abs/*.md", "abs/a.md"},
		{"a\\b/*.md", "a/b/c.md"},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, pattern, rel string) {
		g, err := CompileGlob(pattern)
		if err != nil {
			return
		}
		for _, seg := range g.segments {
			require.NotEqual(t, "..", seg)
		}
		require.False(t, strings.HasPrefix(g.Base(), "/"))
		_ = g.Match(rel)
	})
}
