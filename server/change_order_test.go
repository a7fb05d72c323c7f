package server

import (
	"testing"
	"unicode/utf16"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/manuscript/continuity"
)

// keystrokes are the didChange params of typing text at line:col, one
// character a version from version first on, in the order typed.
func keystrokes(uri protocol.DocumentURI, first int32, line, col uint32, text string) []map[string]any {
	var out []map[string]any
	v := first
	for _, r := range text {
		out = append(out, typeAt(uri, v, line, col, string(r)))
		col += uint32(len(utf16.Encode([]rune{r})))
		v++
	}
	return out
}

// helixOrder is the order in which Helix 25.01 sent a burst of
// keystrokes (seen in its log: 14, 20, 15, 21, 22, 16, 23, …): the
// first half interleaved with the second.
func helixOrder(n int) []int {
	var out []int
	half := (n + 1) / 2
	for i := range half {
		out = append(out, i)
		if half+i < n {
			out = append(out, half+i)
		}
	}
	return out
}

// TestChangesOutOfOrder types a pov at the end of the front matter and a
// trait slip at the start of a line of prose (where a change applied too
// early lands at the wrong place without failing), the keystrokes' didChange
// notifications sent in the order the editor might send them; the
// diagnostics of the last version are those of the text as typed.
func TestChangesOutOfOrder(t *testing.T) {
	orders := map[string]func(n int) []int{
		"in order": func(n int) []int {
			out := make([]int, n)
			for i := range out {
				out[i] = i
			}
			return out
		},
		"pairs swapped": func(n int) []int {
			var out []int
			for i := 0; i+1 < n; i += 2 {
				out = append(out, i+1, i)
			}
			if n%2 == 1 {
				out = append(out, n-1)
			}
			return out
		},
		"as Helix 25.01 sent them": helixOrder,
	}
	const pov = "pov: Teodra Quill\n"
	const slip = "Séverine’s dark brown eyes were wet. "
	for name, order := range orders {
		t.Run(name, func(t *testing.T) {
			files := maps2(slipBook, map[string]string{"manuscript/03-after.md": "---\ntitle: After\n---\nThe harbor was quiet.\n"})
			rel := "manuscript/03-after.md"
			c := startServer(t, Options{})
			c.initialize(writeProject(t, files))
			uri := c.uri(rel)
			c.open(rel, files[rel])

			typed := keystrokes(uri, 2, 2, 0, pov)
			typed = append(typed, keystrokes(uri, int32(2+len(typed)), 4, 0, slip)...)
			for _, i := range order(len(typed)) {
				c.notifyServer(protocol.MethodTextDocumentDidChange, typed[i])
			}
			last := uint32(1 + len(typed))
			ds := c.waitVersion(rel, last)

			final := "---\ntitle: After\n" + pov + "---\n" + slip + "The harbor was quiet.\n"
			got := map[string]string{}
			for code, d := range continuityOnly(ds) {
				require.Len(t, d, 1, code)
				got[code] = wordsAt(t, final, d[0].Range)
			}
			assert.Equal(t, map[string]string{
				continuity.CodeUnknownReference:   "Teodra Quill",
				continuity.CodeTraitContradiction: "dark brown eyes",
			}, got)
		})
	}
}
