package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// With files 01–05 and 07, stats called the last chapter 6 while context
// and mentions called it 7 and `quire context 6` found none. A chapter
// has one number everywhere: its file's, as a reference finds it.
func TestChapterNumbersAgreeWhenFileNumbersHaveGaps(t *testing.T) {
	book, cache := sampleProject(t)
	ms := filepath.Join(book, "manuscript")
	require.NoError(t, os.Rename(filepath.Join(ms, "05-salt-debt.md"), filepath.Join(ms, "07-salt-debt.md")))
	quire := func(args ...string) string {
		t.Helper()
		out, errOut, err := run(t, append([]string{args[0], "--project", book, cache}, args[1:]...)...)
		require.NoError(t, err, errOut)
		return out
	}
	lines := []struct {
		name string
		out  string
		want string
	}{
		{"stats", quire("stats"), `(?m)^7\s+Salt-Debt\s`},
		{"context", quire("context", "7"), `── 7\. Salt-Debt ──`},
		{"mentions", quire("mentions"), `(?m)^NAME\s+TYPE\s+TOTAL\s+1\s+2\s+3\s+4\s+7\s+FIRST`},
		{"outline", quire("outline", "--no-speakers"), `(?m)^7\. Salt-Debt\s.*\n\s+7\.1 `},
		{"outline --chapters", quire("outline", "--no-speakers", "--chapters", "4-7"), `(?m)^4\. The Vault.*(\n.*)*\n7\. Salt-Debt`},
	}
	for _, l := range lines {
		assert.Regexp(t, regexp.MustCompile(l.want), l.out, l.name)
		assert.NotRegexp(t, regexp.MustCompile(`(?m)^\s*(5|6)\.? +Salt-Debt`), l.out, "%s: the place in reading order is not the number", l.name)
	}
	_, errOut, err := run(t, "context", "--project", book, cache, "6")
	require.Error(t, err)
	assert.Contains(t, errOut+err.Error(), `no chapter is numbered 6; closest: 7 "Salt-Debt"`)
	_, errOut, err = run(t, "outline", "--project", book, cache, "--chapters", "6")
	require.Error(t, err)
	assert.True(t, strings.Contains(errOut+err.Error(), "no chapter is numbered 6"), errOut)
}
