package server

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// A chapter that iCloud Drive keeps only as a placeholder on this Mac
// (".02-storm.md.icloud") is named to the writer when the book opens,
// rather than silently missing from the manuscript.
func TestChaptersLeftInICloudAreNamed(t *testing.T) {
	files := map[string]string{
		"manuscript/.02-storm.md.icloud": "bplist00 placeholder",
		"manuscript/.notes.txt.icloud":   "not a chapter",
	}
	for k, v := range bookFiles {
		if k != "manuscript/02-storm.md" {
			files[k] = v
		}
	}
	c := startServer(t, Options{})
	c.initialize(writeProject(t, files))
	require.Eventually(t, func() bool {
		for _, m := range c.messages() {
			if strings.Contains(m, "1 chapter in iCloud Drive but not downloaded") && strings.Contains(m, "manuscript/02-storm.md") &&
				!strings.Contains(m, "notes") {
				return true
			}
		}
		return false
	}, 10*time.Second, 20*time.Millisecond, "messages: %q", c.messages())
}
