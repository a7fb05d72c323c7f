package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLookupAsOfAChapter shows an entry as the canon stands in a chapter:
// the sample's Jory is missing from chapter 1, found in the Vault in
// chapter 4, and at the Hook and Hawser in chapter 5.
func TestLookupAsOfAChapter(t *testing.T) {
	book, cache := sampleProject(t)
	tests := []struct {
		asOf, want, not string
	}{
		{"1", "\n  whereabouts: missing\n", "\n  whereabouts: a ledge"},
		{"The Vault Beneath the Light", "\n  whereabouts: a ledge in the Skerry Vault, with a broken leg\n", "\n  whereabouts: the Hook"},
		{"manuscript/05-salt-debt.md", "\n  whereabouts: the Hook and Hawser", "\n  whereabouts: missing"},
	}
	for _, tc := range tests {
		t.Run(tc.asOf, func(t *testing.T) {
			out, errOut, err := run(t, "lookup", "--project", book, cache, "--as-of", tc.asOf, "Jory")
			require.NoError(t, err, errOut)
			assert.Contains(t, out, "Jory Fenwick (character)")
			assert.Contains(t, out, "progression")
			assert.Contains(t, out, tc.want)
			assert.NotContains(t, out, tc.not)
		})
	}

	out, errOut, err := run(t, "lookup", "--project", book, cache, "--json", "--as-of", "4", "Jory")
	require.NoError(t, err, errOut)
	var got asOfOutput
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	assert.Equal(t, "manuscript/04-the-vault-beneath-the-light.md", got.Chapter)
	assert.Equal(t, "Jory Fenwick", got.Entry.Name)
	assert.Equal(t, []asOfField{{Key: "whereabouts", Value: "a ledge in the Skerry Vault, with a broken leg"}}, got.Fields)
	assert.Len(t, got.Applied, 2)
	assert.Len(t, got.Notes, 2)

	// An entry without progressions holds throughout, and says so.
	out, errOut, err = run(t, "lookup", "--project", book, cache, "--as-of", "2", "Brinmouth")
	require.NoError(t, err, errOut)
	assert.Contains(t, out, "has no progressions; the entry above holds throughout")

	// A chapter that does not exist is the writer's mistake: exit 2 and
	// the closest chapters.
	_, errOut, err = run(t, "lookup", "--project", book, cache, "--as-of", "99", "Jory")
	require.ErrorIs(t, err, exitError{2})
	assert.Contains(t, errOut, "no chapter is numbered 99")
}
