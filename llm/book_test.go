package llm

import (
	"testing"

	"github.com/quire-ink/quire/llm/tools"
	"github.com/quire-ink/quire/llm/tools/toolstest"
	"github.com/quire-ink/quire/manuscript"
)

// openBook opens the tests' book (toolstest) as an advisor turn reads
// it, the writer in chapter 2; the roots it returns are every spelling
// of the project folder no output may hold.
func openBook(t *testing.T, files map[string]string) (*tools.Sources, []string) {
	t.Helper()
	store, snap, roots := toolstest.Open(t, files)
	return &tools.Sources{Store: store, Manuscript: snap, Place: manuscript.Place{Current: "manuscript/02-slack-water.md"}}, roots
}

var (
	bookFiles    = toolstest.Files
	writeProject = toolstest.WriteProject
	entryFile    = toolstest.EntryFile
)
