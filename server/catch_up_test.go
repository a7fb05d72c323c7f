package server

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// Chapters written after the book loaded and before its watcher started
// raise no file event; the server reads them once the watch is armed.
// Before, a chapter edited in that gap kept its first text until its
// next change (seen under Wine, whose slow start widens the gap).
func TestChaptersChangedBeforeTheWatchAreRead(t *testing.T) {
	files := map[string]string{}
	for k, v := range bookFiles {
		files[k] = v
	}
	files["manuscript/03-calm.md"] = "# Calm\n\nNothing happened.\n"
	write := func(root, rel, text string) {
		require.NoError(t, os.WriteFile(filepath.Join(root, filepath.FromSlash(rel)), []byte(text), 0o644))
	}
	c := startServer(t, Options{beforeWatch: func(root string) {
		write(root, "manuscript/02-storm.md", "# Storm\n\nThe Harbor Witch came back, and Ilse Dorn with her.\n")
		write(root, "manuscript/04-dawn.md", "# Dawn\n\nIlse Dorn slept.\n")
		require.NoError(t, os.Remove(filepath.Join(root, "manuscript", "03-calm.md")))
	}})
	c.initialize(writeProject(t, files))
	// The hover card lists the chapters a name appears in: the changed
	// chapter 2 and the new chapter 4.
	c.hoverSays("manuscript/01-harbor.md", 2, 22, "2. Storm (1)")
	c.hoverSays("manuscript/01-harbor.md", 2, 22, "4. Dawn (1)")
}
