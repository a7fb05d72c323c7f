package editortest

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSlipBook checks the fixture the editor tests share against quire
// itself: the clean chapter has no problem, and once every line is typed
// `quire check` finds exactly the six slips at their words, so an editor
// test that fails points at the editor or the protocol, not the fixture.
func TestSlipBook(t *testing.T) {
	tmp := t.TempDir()
	bin := QuireBinary(t, tmp)
	s := SlipBook(t, filepath.Join(tmp, "book"))
	book := filepath.Dir(filepath.Dir(s.Chapter))

	type problem struct {
		Path      string `json:"path"`
		Line      int    `json:"line"`
		Column    int    `json:"column"`
		EndLine   int    `json:"endLine"`
		EndColumn int    `json:"endColumn"`
		Code      string `json:"code"`
		Message   string `json:"message"`
	}
	check := func() []problem {
		t.Helper()
		cmd := exec.Command(bin, "check", "--json")
		cmd.Dir = book
		cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+filepath.Join(tmp, "cache"))
		out, _ := cmd.Output() // exit status 1 when an error is found
		var res struct {
			Problems []problem `json:"problems"`
		}
		require.NoError(t, json.Unmarshal(out, &res), "%s", out)
		return res.Problems
	}
	assert.Empty(t, check(), "the book before typing")

	require.NoError(t, os.WriteFile(s.Chapter, []byte(s.Final), 0o644))
	var want, got []problem
	for _, e := range s.Slips {
		want = append(want, problem{Path: SlipChapter, Line: e.Line + 1, Column: e.CharCol + 1, EndLine: e.Line + 1, EndColumn: e.CharEnd + 1, Code: e.Code})
	}
	for _, p := range check() {
		assert.NotEmpty(t, p.Message, p.Code)
		p.Message = ""
		got = append(got, p)
	}
	assert.ElementsMatch(t, want, got, "final text:\n%s", s.Final)

	// The fix the editors apply is offered at one of the slips, and its
	// After is that slip's line with the slip's words changed as titled.
	var at *Expected
	for i := range s.Slips {
		if s.Slips[i].Code == s.Fix.Code && s.Slips[i].Line == s.Fix.Line {
			at = &s.Slips[i]
		}
	}
	require.NotNil(t, at, "the fix's slip")
	require.Contains(t, s.Fix.Offered, s.Fix.Title)
	line := strings.Split(s.Final, "\n")[s.Fix.Line]
	to := strings.TrimPrefix(s.Fix.Title, "Change to ")
	assert.Equal(t, line[:at.ByteCol]+to+line[at.ByteEnd:], s.Fix.After)
}
