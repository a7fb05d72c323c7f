package codex

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A book entry over a series entry keeps the series' progressions, each
// marked with the series file it is written in, the book's after them.
func TestSeriesStoryUnderTheBook(t *testing.T) {
	bookRoot, seriesRoot := unixAbs("/books/one"), unixAbs("/books/tideward")
	series := catalogOf(t, map[string]string{
		"codex/characters/mara.md": entryMD("type: character\nname: Mara Vell\nstatus: tentative\nprogressions:\n  - from: 2\n    role: Captain\n  - from: nowhere\n    7: x\n  - note: no from",
			"# Mara Vell\n"),
	})
	tests := []struct {
		name     string
		book     string
		files    []string // Progression.File of each progression
		status   string
		problems []string // the path of each problem
	}{
		{
			name:     "the book sets progressions of its own",
			book:     entryMD("type: character\nname: Mara Vell\noverrides: Mara Vell\nprogressions:\n  - from: 1\n    role: Deckhand", ""),
			files:    []string{"series", "series", ""},
			status:   "tentative", // the book leaves it to the series
			problems: []string{"series"},
		},
		{
			name:     "the book sets none, and a status",
			book:     entryMD("type: character\nname: Mara Vell\noverrides: Mara Vell\nstatus: dead", ""),
			files:    []string{"series", "series"},
			status:   "dead",
			problems: []string{"series"},
		},
	}
	seriesFile := filepath.Join(seriesRoot, "codex/characters/mara.md")
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			book := catalogOf(t, map[string]string{"codex/characters/mara.md": tc.book})
			m := MergeSeries(bookRoot, book, seriesRoot, series)
			e, ok := m.Catalog.Get("codex/characters/mara.md")
			require.True(t, ok)
			s := m.Catalog.Story(e)
			var files []string
			for _, p := range s.Progressions {
				f := p.File
				if f == seriesFile {
					f = "series"
					assert.Contains(t, p.Source, "role: Captain", "the series file's text, for its lines")
				}
				files = append(files, f)
			}
			assert.Equal(t, tc.files, files)
			assert.Equal(t, tc.status, s.Status)
			var paths []string
			for _, p := range s.Problems {
				if p.Path == seriesFile {
					paths = append(paths, "series")
				} else {
					paths = append(paths, p.Path)
				}
			}
			assert.Equal(t, tc.problems, paths)
			own := 0
			for _, f := range files {
				if f == "" {
					own++
				}
			}
			assert.Len(t, StoryOf(e).Progressions, own, "StoryOf reads the book's file alone")
		})
	}
}
