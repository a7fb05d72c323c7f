// Package proposaltest holds what the tests of proposals share across
// packages: applying a proposal's unified diff as patch(1) would.
package proposaltest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Patch applies a unified diff of one file to before, checking that every
// context and removed line is what the diff says, as patch(1) would: the
// propose tools' diffs must show exactly their edits.
func Patch(t testing.TB, before, diff string) string {
	t.Helper()
	old := strings.SplitAfter(before, "\n")
	if old[len(old)-1] == "" {
		old = old[:len(old)-1]
	}
	lines := strings.SplitAfter(diff, "\n")
	var out []string
	at := 0
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if !strings.HasPrefix(l, "@@ ") {
			continue
		}
		var oldFrom, oldCount, newFrom, newCount int
		_, err := fmt.Sscanf(l, "@@ -%d,%d +%d,%d @@", &oldFrom, &oldCount, &newFrom, &newCount)
		require.NoError(t, err, "hunk header %q", l)
		start := oldFrom - 1
		if oldCount == 0 {
			start = oldFrom
		}
		require.GreaterOrEqual(t, start, at, "hunks in order")
		out = append(out, old[at:start]...)
		at = start
		seenOld, seenNew := 0, 0
		for i+1 < len(lines) && (seenOld < oldCount || seenNew < newCount) {
			i++
			l := lines[i]
			text := l[1:]
			if i+1 < len(lines) && strings.HasPrefix(lines[i+1], `\ No newline`) {
				text = strings.TrimSuffix(text, "\n")
				i++
			}
			switch l[0] {
			case ' ':
				require.Equal(t, old[at], text, "context line %d", at+1)
				out = append(out, text)
				at++
				seenOld++
				seenNew++
			case '-':
				require.Equal(t, old[at], text, "removed line %d", at+1)
				at++
				seenOld++
			case '+':
				out = append(out, text)
				seenNew++
			default:
				t.Fatalf("unexpected diff line %q", l)
			}
		}
		require.Equal(t, oldCount, seenOld, "old count of %q", lines)
		require.Equal(t, newCount, seenNew, "new count")
	}
	out = append(out, old[at:]...)
	return strings.Join(out, "")
}
