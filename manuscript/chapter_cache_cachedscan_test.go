package manuscript

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// CachedScan says a scan would come from the cache only when the cache
// serves the names and at most the few chapters allowed changed; taking
// the scan then gives what a cold start finds.
func TestCachedScan(t *testing.T) {
	root := newProject(t, cachedBook())
	file := filepath.Join(t.TempDir(), "chapters.bin")
	cat := bookCatalog(t)
	openCached(t, root, file, cat)

	open := func() *Manuscript {
		m, err := Open(context.Background(), root, Options{ChapterCache: file})
		require.NoError(t, err)
		return m
	}
	m := open()
	matcher := NewMatcher(cat)
	assert.True(t, m.CachedScan(matcher, 0), "nothing changed")
	m.SetMatcher(matcher)
	assert.Equal(t, coldView(t, root, cat), viewOf(m.Snapshot()))

	other := catalogOf(t, "codex/mara.md", "name: Mara Vell\naliases: [Mara]")
	assert.False(t, open().CachedScan(NewMatcher(other), 8), "other names: every chapter is scanned again")
	assert.False(t, open().CachedScan(nil, 8))

	writeFile(t, root, "manuscript/02-storm.md", "# Storm Again\n\nMara slept.\n")
	assert.False(t, open().CachedScan(matcher, 0), "one chapter changed, none allowed")
	edited := open()
	assert.True(t, edited.CachedScan(matcher, 1), "one chapter changed, one allowed")
	edited.SetMatcher(matcher)
	assert.Equal(t, coldView(t, root, cat), viewOf(edited.Snapshot()))

	// No cache at all.
	none, err := Open(context.Background(), root, Options{})
	require.NoError(t, err)
	assert.False(t, none.CachedScan(matcher, 8))
}
