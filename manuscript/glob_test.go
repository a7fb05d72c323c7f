package manuscript

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCompileGlobRefuses(t *testing.T) {
	for _, pattern := range []string{
		"",
		"   ",
		"/etc/*.md",
		"../book/*.md",
		"..",
		"manuscript/../../x/*.md",
		"manuscript/..",
		"..\\book\\*.md",
		"manuscript/[.md",
	} {
		t.Run(pattern, func(t *testing.T) {
			_, err := compileGlob(pattern)
			assert.Error(t, err)
		})
	}
}

func TestGlobBase(t *testing.T) {
	tests := map[string]string{
		"manuscript/**/*.md":        "manuscript",
		"./manuscript/*.md":         "manuscript",
		"book/chapters/*.md":        "book/chapters",
		"book\\chapters\\*.md":      "book/chapters",
		"*.md":                      "",
		"**/*.md":                   "",
		"drafts/ch-*/*.md":          "drafts",
		"drafts/part?/**/*.md":      "drafts",
		"manuscript/01-only.md":     "manuscript",
		" manuscript/**/*.markdown": "manuscript",
	}
	for pattern, want := range tests {
		g, err := compileGlob(pattern)
		require.NoError(t, err, pattern)
		assert.Equal(t, want, g.Base(), pattern)
	}
}

func TestGlobMatch(t *testing.T) {
	tests := []struct {
		pattern string
		rel     string
		want    bool
	}{
		{"manuscript/**/*.md", "manuscript/01.md", true},
		{"manuscript/**/*.md", "manuscript/part-1/01.md", true},
		{"manuscript/**/*.md", "manuscript/a/b/c/01.md", true},
		{"manuscript/**/*.md", "manuscript/01.txt", false},
		{"manuscript/**/*.md", "codex/01.md", false},
		{"manuscript/**/*.md", "manuscript", false},
		{"manuscript/*.md", "manuscript/part-1/01.md", false},
		{"manuscript/*.md", "manuscript/01.md", true},
		{"**/*.md", "01.md", true},
		{"**/*.md", "a/b/01.md", true},
		{"manuscript/**", "manuscript/a/b", true},
		{"manuscript/**/**/*.md", "manuscript/01.md", true},
		{"drafts/ch-*/*.md", "drafts/ch-1/x.md", true},
		{"drafts/ch-*/*.md", "drafts/part-1/x.md", false},
		{"manuscript/**/scene-?.md", "manuscript/p/scene-1.md", true},
		{"manuscript/**/scene-?.md", "manuscript/p/scene-10.md", false},
		{"manuscript/[0-9]*.md", "manuscript/7-x.md", true},
		{"manuscript/[0-9]*.md", "manuscript/x.md", false},
	}
	for _, tt := range tests {
		g, err := compileGlob(tt.pattern)
		require.NoError(t, err)
		assert.Equal(t, tt.want, g.Match(tt.rel), "%s ~ %s", tt.pattern, tt.rel)
	}
}

func TestDefaultGlobs(t *testing.T) {
	for _, p := range DefaultGlobs {
		_, err := compileGlob(p)
		require.NoError(t, err, p)
	}
}
