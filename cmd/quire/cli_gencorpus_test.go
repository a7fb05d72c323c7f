package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGenCorpusPreset(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		want     string
		chapters int
	}{
		// The series preset has 800 chapters; smaller entries and
		// chapters keep the test quick, and show that flags change it.
		{"series", []string{"--preset", "series", "--entries", "40", "--chapter-words", "20"}, "Wrote 40 entries and 800 chapters", 800},
		{"novel", []string{"--preset", "novel", "--entries", "40", "--chapter-words", "20"}, "Wrote 40 entries and 200 chapters", 200},
		{"flags over preset", []string{"--preset", "series", "--entries", "40", "--chapters", "3", "--chapter-words", "20"}, "Wrote 40 entries and 3 chapters", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "corpus")
			out, _, err := run(t, append([]string{"gen-corpus", dir}, tt.args...)...)
			require.NoError(t, err)
			assert.Contains(t, out, tt.want)
			files, err := os.ReadDir(filepath.Join(dir, "manuscript"))
			require.NoError(t, err)
			assert.Len(t, files, tt.chapters)
		})
	}
	_, _, err := run(t, "gen-corpus", filepath.Join(t.TempDir(), "x"), "--preset", "trilogy")
	require.ErrorContains(t, err, `no corpus preset "trilogy" (there are novel, series)`)
}
