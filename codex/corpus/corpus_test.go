package corpus

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/quire-ink/quire/codex"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGenerateWritesWhatPlanNames(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "book")
	opt := Options{Entries: 140, Chapters: 3, ChapterWords: 300, Seed: 9}
	c, err := Generate(context.Background(), dir, opt)
	require.NoError(t, err)
	assert.Equal(t, Plan(opt).Entries, c.Entries, "Plan and Generate agree")
	assert.Len(t, c.Entries, 140)
	assert.Len(t, c.Chapters, 3)

	s, err := codex.Open(context.Background(), dir, codex.Options{InMemory: true})
	require.NoError(t, err)
	defer s.Close()
	cat := s.Catalog()
	require.Equal(t, 140, cat.Len())
	types := map[codex.Type]bool{}
	souls := 0
	for _, want := range c.Entries {
		e, ok := cat.Get(want.ID)
		require.True(t, ok, want.ID)
		assert.Equal(t, want.Name, e.Name)
		assert.Equal(t, want.Type, e.Type)
		assert.Equal(t, want.Aliases, e.Aliases)
		assert.NotEmpty(t, e.Links)
		types[e.Type] = true
		if e.Soul != nil {
			souls++
		}
	}
	assert.Len(t, types, len(codex.Types), "every type is represented")
	assert.Positive(t, souls)
	assert.Empty(t, cat.Problems(), "links point at real entries and names are unique")
}

func TestGenerateRefusesNonEmptyFolder(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "mine.md"), []byte("my novel"), 0o644))
	_, err := Generate(context.Background(), dir, Options{Entries: 10})
	require.Error(t, err)
}
