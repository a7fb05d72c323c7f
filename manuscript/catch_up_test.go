package manuscript

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCatchUpReadsWhatChangedSinceTheRead(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	write := func(rel, text string, mod time.Time) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
		require.NoError(t, os.Chtimes(p, mod, mod))
	}
	then := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	write("manuscript/01-one.md", "# One\n\nFirst.\n", then)
	write("manuscript/02-two.md", "# Two\n\nSecond.\n", then)
	write("manuscript/03-three.md", "# Three\n\nThird.\n", then)
	write("manuscript/04-four.md", "# Four\n\nFourth.\n", then)
	m, err := Open(ctx, root, Options{})
	require.NoError(t, err)
	require.NoError(t, m.OpenDocument(ctx, "manuscript/04-four.md", "# Four\n\nThe editor's words.\n", 3))

	changed, err := m.CatchUp(ctx)
	require.NoError(t, err)
	assert.Empty(t, changed, "nothing changed on disk: nothing is read again")

	// Same size, another time: a save of the same length is still seen.
	write("manuscript/01-one.md", "# One\n\nFirsT.\n", then.Add(time.Second))
	require.NoError(t, os.Remove(filepath.Join(root, "manuscript", "02-two.md")))
	write("manuscript/05-five.md", "# Five\n\nFifth.\n", then)
	write("manuscript/04-four.md", "# Four\n\nSaved by another program.\n", then.Add(time.Second))

	changed, err = m.CatchUp(ctx)
	require.NoError(t, err)
	assert.Equal(t, []string{"manuscript/01-one.md", "manuscript/02-two.md", "manuscript/05-five.md"}, changed,
		"the chapter open in the editor keeps the editor's text")
	snap := m.Snapshot()
	var paths []string
	for _, u := range snap.Units() {
		paths = append(paths, u.Path)
	}
	assert.Equal(t, []string{"manuscript/01-one.md", "manuscript/03-three.md", "manuscript/04-four.md", "manuscript/05-five.md"}, paths)
	one, ok := snap.Unit("manuscript/01-one.md")
	require.True(t, ok)
	assert.Contains(t, one.Text, "FirsT.")
	four, _ := snap.Unit("manuscript/04-four.md")
	assert.Contains(t, four.Text, "The editor's words.")

	changed, err = m.CatchUp(ctx)
	require.NoError(t, err)
	assert.Empty(t, changed, "what was read again is known now")
}

// A chapter whose file name macOS lists decomposed (NFD) is found by the
// name typed composed (NFC), and the reverse: as a reference, as a path.
func TestChapterNamesInEitherNormalizationForm(t *testing.T) {
	for _, tt := range []struct{ onDisk, typed string }{
		{"manuscript/01-Se\u0301verine.md", "manuscript/01-S\u00e9verine.md"},
		{"manuscript/01-S\u00e9verine.md", "manuscript/01-Se\u0301verine.md"},
	} {
		root := t.TempDir()
		p := filepath.Join(root, filepath.FromSlash(tt.onDisk))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte("# Le Quai\n\nShe waited.\n"), 0o644))
		m, err := Open(context.Background(), root, Options{})
		require.NoError(t, err)
		snap := m.Snapshot()
		u, ok := snap.Unit(tt.typed)
		require.True(t, ok, "%q finds %q", tt.typed, tt.onDisk)
		assert.Equal(t, tt.onDisk, u.Path)
		u, err = snap.Resolve(tt.typed, Place{})
		require.NoError(t, err)
		assert.Equal(t, 1, u.Position, "the chapter itself, not a document outside the manuscript")
	}
}
