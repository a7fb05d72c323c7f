package e2e_test

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// wantWords is the word count item's text for the book's first chapter
// on a day with nothing written yet, from `quire stats --json` on the
// same book (its own cache folder, so the editor's history starts
// apart): the status bar must show the numbers the command line prints.
func wantWords(t *testing.T, bin, book, tmp string) string {
	t.Helper()
	cmd := exec.Command(bin, "stats", "--json", "--cache-dir", filepath.Join(tmp, "stats-cache"))
	cmd.Dir = book
	out, err := cmd.Output()
	require.NoError(t, err, "quire stats --json")
	var st struct {
		Words    int `json:"words"`
		Chapters []struct {
			Position int `json:"position"`
			Words    int `json:"words"`
		} `json:"chapters"`
	}
	require.NoError(t, json.Unmarshal(out, &st), string(out))
	require.NotEmpty(t, st.Chapters)
	return "Ch. 1 · " + thousands(st.Chapters[0].Words) + " words · today +0 · book " + thousands(st.Words)
}

// thousands writes n with commas, as quire does.
func thousands(n int) string {
	s := strconv.Itoa(n)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}
