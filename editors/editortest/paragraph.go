package editortest

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// LongParagraph is a paragraph of the chapter at path that the snapshot
// tests delete and take back: past the title and first heading, longer
// than 120 bytes, on a line of its own with a blank line after it. line
// counts from 0.
func LongParagraph(t testing.TB, path string) (line int, text string) {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	lines := strings.Split(string(data), "\n")
	for i, l := range lines {
		if i > 8 && len(l) > 120 && i+1 < len(lines) && lines[i+1] == "" {
			return i, l
		}
	}
	t.Fatalf("%s has no paragraph of a line of its own longer than 120 bytes", path)
	return 0, ""
}
