package trust

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestOutputReaches: build: output reaches beyond the book when its words
// say so, on every system's spelling.
func TestOutputReaches(t *testing.T) {
	for written, want := range map[string]bool{
		"":                 false,
		"out":              false,
		"drafts/out":       false,
		"./out/../drafts":  false,
		`drafts\out`:       false,
		"..":               true,
		"../out":           true,
		"out/../../x":      true,
		`out\..\..\x`:      true,
		"/srv/out":         true,
		"~/Manuscripts":    true,
		"~":                true,
		`C:\Users\w\Docs`:  true,
		"c:/Users/w/Docs":  true,
		`\\server\share\x`: true,
		"  ../padded  ":    true,
	} {
		assert.Equal(t, want, OutputReaches(written), "%q", written)
	}
}
