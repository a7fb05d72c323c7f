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

// quire/lookup took a name of any length and returned it whole in
// query: a 1 MB name came back as 1 MB. A name longer than any entry's
// is refused as an over-long search is, and what an answer repeats of a
// name or a query is its start only.
func TestLookupIsBoundedAndEchoesOnlyAShortForm(t *testing.T) {
	c := startServer(t, Options{})
	c.initialize(writeProject(t, bookFiles))
	for _, n := range []int{1001, 1 << 20} {
		name := strings.Repeat("x", n-1) + "Q"
		err := c.callErr(wire.MethodLookup, wire.LookupParams{Name: name}, &wire.QueryResult{})
		require.Error(t, err, "%d characters", n)
		assert.Contains(t, err.Error(), "no name or alias is longer than 1000 characters")
		assert.NotContains(t, err.Error(), "xxxxxxxxxx", "the name is not echoed")
		assert.Less(t, len(err.Error()), 300)
	}
	for _, tc := range []struct {
		method string
		params any
	}{
		{wire.MethodLookup, wire.LookupParams{Name: strings.Repeat("Ilse ", 200)}},
		{wire.MethodSearch, wire.SearchParams{Query: strings.Repeat("harbor ", 70)}},
	} {
		var res wire.QueryResult
		c.call(tc.method, tc.params, &res)
		assert.LessOrEqual(t, len([]rune(res.Query)), 80, "%s repeats a short form", tc.method)
		assert.True(t, strings.HasSuffix(res.Query, "…"), "%s marks the cut: %q", tc.method, res.Query)
	}
	var res wire.QueryResult
	c.call(wire.MethodLookup, wire.LookupParams{Name: "Ilse Dorn"}, &res)
	assert.Equal(t, "Ilse Dorn", res.Query, "a short name is repeated whole")
	require.NotEmpty(t, res.Results)
}
