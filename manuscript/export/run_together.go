package export

import (
	"fmt"
	"strings"

	"github.com/quire-ink/quire/codex/count"
	"github.com/quire-ink/quire/manuscript"
)

// runTogether warns of the chapters that set their paragraphs a line
// each with no blank line between (manuscript.LinePerParagraph): the
// build reads their text as Markdown does, one paragraph, and a writer
// who runs `quire build` and never `quire check` would find a wall of
// text in the file. "" when there is none.
func runTogether(units []*manuscript.Unit) string {
	var paths []string
	for _, u := range units {
		if manuscript.LinePerParagraph(u.Text, u.Body) {
			paths = append(paths, u.Path)
		}
	}
	if len(paths) == 0 {
		return ""
	}
	shown := paths
	if len(shown) > 3 {
		shown = append(shown[:3:3], "…")
	}
	sets := "sets its"
	if len(paths) > 1 {
		sets = "set their"
	}
	return fmt.Sprintf("%s %s paragraphs one to a line with no blank line between them (%s), so they run together in this build. "+
		"The paragraph-breaks warning on each, in your editor or quire check, has the fix that puts a blank line between them.",
		count.Of(len(paths), "chapter"), sets, strings.Join(shown, ", "))
}
