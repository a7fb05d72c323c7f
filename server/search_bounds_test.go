package server

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/server/wire"
)

// A search query of 70 KB made the index library build a typo automaton
// of about 590 MB and killed the server with every open book. Now an
// over-long query is refused before it reaches the library, in words
// that give its length and not its text, and the server goes on.
func TestOverlongSearchIsRefusedAndTheServerServes(t *testing.T) {
	c := startServer(t, Options{})
	c.initialize(writeProject(t, bookFiles))
	c.hoverSays("manuscript/01-harbor.md", 2, 22, "Ilse Dorn")
	for _, n := range []int{501, 66_000, 70_000} {
		q := strings.Repeat("x", n-1) + "Q"
		err := c.callErr(wire.MethodSearch, wire.SearchParams{Query: q}, &wire.QueryResult{})
		require.Error(t, err, "%d characters", n)
		assert.Contains(t, err.Error(), "quire searches at most 500 characters")
		assert.NotContains(t, err.Error(), "xxxxxxxxxx", "the query is not echoed")
		assert.Less(t, len(err.Error()), 300)
	}
	var ok wire.QueryResult
	c.call(wire.MethodSearch, wire.SearchParams{Query: strings.Repeat("harbor ", 72)[:500]}, &ok)
	c.hoverSays("manuscript/01-harbor.md", 2, 22, "Ilse Dorn")
}
