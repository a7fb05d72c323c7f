package continuity

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/manuscript"
)

// A chapter set a paragraph a line, as pasted from a word processor, is
// one warning at its first line that runs on, whose fix puts a blank
// line at every such break and leaves the rest as it was; after it, and
// in hard-wrapped prose, nothing is said. The check may be turned off.
func TestParagraphBreaks(t *testing.T) {
	long := strings.Repeat("Séverine rowed out past the harbor wall while the bell rang. ", 3)
	text := "# Three\n\n" + long + "\n" + long + "\n— Who rang it?\n" + long + "\n\n<!-- a note\nof two lines -->\n"
	tl, _ := openBook(t, writeBook(t, smallBook), Options{})

	u := manuscript.NewUnit("manuscript/03-test.md", text, 1)
	var found []Diagnostic
	for _, d := range Check(tl, u) {
		if d.Code == CodeParagraphBreaks {
			found = append(found, d)
		}
	}
	require.Len(t, found, 1)
	d := found[0]
	assert.Equal(t, strings.TrimSpace(long), strings.TrimSpace(text[d.Range.Start:d.Range.End]), "the first line that runs on")
	assert.Contains(t, d.Message, "3 places")
	assert.Contains(t, d.Message, "Put a blank line between paragraphs")
	require.NotNil(t, d.Fix)
	fixed := text[:d.Fix.Range.Start] + d.Fix.NewText + text[d.Fix.Range.End:]
	assert.Equal(t, "# Three\n\n"+long+"\n\n"+long+"\n\n— Who rang it?\n\n"+long+"\n\n<!-- a note\nof two lines -->\n", fixed)
	assert.Empty(t, checkText(t, tl, fixed, CodeParagraphBreaks), "fixed, nothing to say")

	// A file from Windows gets blank lines that end as its lines do.
	crlf := strings.ReplaceAll(text, "\n", "\r\n")
	u = manuscript.NewUnit("manuscript/03-test.md", crlf, 1)
	seen := 0
	for _, d := range Check(tl, u) {
		if d.Code == CodeParagraphBreaks {
			seen++
			got := crlf[:d.Fix.Range.Start] + d.Fix.NewText + crlf[d.Fix.Range.End:]
			assert.Equal(t, strings.ReplaceAll(fixed, "\n", "\r\n"), got)
		}
	}
	assert.Equal(t, 1, seen, "a file from Windows")

	wrapped := "# Three\n\n" + strings.Repeat("Séverine rowed out past the harbor wall\nwhile the bell rang over the water.\n\n", 10)
	assert.Empty(t, checkText(t, tl, wrapped, CodeParagraphBreaks), "hard-wrapped prose")

	off, _ := openBook(t, writeBook(t, smallBook), Options{Checks: map[string]Level{CodeParagraphBreaks: LevelOff}})
	assert.Empty(t, checkText(t, off, text, CodeParagraphBreaks), "turned off")
}
