package main

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/manuscript"
)

// TestDocsCountingExamples: every example of the counting rule's table on
// docs/goals.md counts as the table says, so the page cannot drift from
// manuscript.CountWords.
func TestDocsCountingExamples(t *testing.T) {
	text := docPage(t, "docs/goals.md")
	_, section, ok := strings.Cut(text, "## How words are counted")
	require.True(t, ok, "docs/goals.md has lost its section on counting")
	section, _, _ = strings.Cut(section, "\n#")
	span := regexp.MustCompile("`([^`]+)`")
	number := regexp.MustCompile(`\d+`)
	rows := 0
	for _, line := range strings.Split(section, "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		// Cells are split at | not escaped as \|.
		cells := regexp.MustCompile(`[^\\]\|`).Split(line[1:], -1)
		require.GreaterOrEqual(t, len(cells), 2, line)
		var examples []string
		for _, m := range span.FindAllStringSubmatch(cells[0], -1) {
			examples = append(examples, strings.ReplaceAll(m[1], `\|`, "|"))
		}
		counts := number.FindAllString(cells[1], -1)
		require.Len(t, counts, len(examples), "row %q: one count for each example", line)
		for i, ex := range examples {
			want, err := strconv.Atoi(counts[i])
			require.NoError(t, err)
			assert.Equal(t, want, manuscript.CountWords(ex), "%q", ex)
		}
		rows++
	}
	assert.GreaterOrEqual(t, rows, 10, "the table of examples was not found")
}
