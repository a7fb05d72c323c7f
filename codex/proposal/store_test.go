package proposal

import (
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
)

func TestProposalsBoundedAndOrdered(t *testing.T) {
	s := NewStore(3)
	var ids []string
	for i := range 5 {
		ids = append(ids, s.Add(Proposal{Name: fmt.Sprint(i)}).ID)
	}
	assert.Equal(t, 3, s.Len())
	list := s.List()
	require.Len(t, list, 3)
	assert.Equal(t, []string{"4", "3", "2"}, []string{list[0].Name, list[1].Name, list[2].Name})
	_, ok := s.Get(ids[0])
	assert.False(t, ok)
	got, ok := s.Get(ids[4])
	require.True(t, ok)
	assert.Regexp(t, `^p-[0-9a-f]{12}$`, got.ID)
	assert.False(t, got.Created.IsZero())

	// Callers get copies.
	got.Warnings = append(got.Warnings, "x")
	again, _ := s.Get(ids[4])
	assert.Empty(t, again.Warnings)

	var zero Store
	for range DefaultMax + 10 {
		zero.Add(Proposal{})
	}
	assert.Equal(t, DefaultMax, zero.Len())
}

func TestProposalsConcurrent(t *testing.T) {
	s := NewStore(10)
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 20 {
				p := s.Add(Proposal{Name: fmt.Sprint(i, j), Warnings: []string{"w"}})
				s.Get(p.ID)
				_ = s.List()
			}
		}()
	}
	wg.Wait()
	assert.Equal(t, 10, s.Len())
}

func TestApplyEditsRejectsOverlap(t *testing.T) {
	_, err := ApplyEdits("abcdef", []FileEdit{{Range: codex.Range{Start: 1, End: 4}}, {Range: codex.Range{Start: 2, End: 5}}})
	assert.Error(t, err)
	out, err := ApplyEdits("abcdef", []FileEdit{{Range: codex.Range{Start: 4, End: 6}, NewText: "X"}, {Range: codex.Range{Start: 0, End: 1}, NewText: "Y"}})
	require.NoError(t, err)
	assert.Equal(t, "YbcdX", out)
}
