package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/server/wire"
)

// plannedBook is a book of two chapters whose second is split into
// scenes with notes: a pov and day of its own, a status, a synopsis.
var plannedBook = map[string]string{
	"quire.yaml":               "title: Planned\noutline:\n  acts:\n    - {title: Setup, from: 1}\n    - {title: Turn, from: 2}\n",
	"codex/characters/mara.md": "---\ntype: character\nname: Mara Vell\naliases: [Mara]\n---\n",
	"codex/characters/ilse.md": "---\ntype: character\nname: Ilse Dorn\naliases: [Ilse]\n---\n",
	"manuscript/01-harbor.md":  "---\ntitle: The Harbor\npov: Mara Vell\nday: 1\nstatus: final\nsynopsis: Mara lands.\n---\nMara steps onto the quay. \"Cold,\" said Mara.\n",
	"manuscript/02-vault.md": "---\ntitle: The Vault\npov: Mara Vell\nday: 2\n---\nMara waits for Ilse.\n\n* * *\n\n" +
		"<!-- scene\ntitle: Ledgers\npov: Ilse Dorn\nday: 3\nstatus: draft\nsynopsis: Ilse counts.\nsynopsis-hash: 000000000000\n-->\n\n\"Nine,\" said Ilse.\n",
}

func TestOutlineCommand(t *testing.T) {
	book, cache := writeBook(t, plannedBook)
	out, stderr, err := run(t, "outline", "--project", book, cache)
	require.NoError(t, err, stderr)
	for _, want := range []string{
		"2 chapters, 3 scenes",
		"1 stale synopsis",
		"== Setup ==",
		"== Turn ==",
		"1. The Harbor  (Mara Vell · day 1 · final · 8 words)",
		"   Mara lands.",
		"2.2 Ledgers  (Ilse Dorn · day 3 · draft · 3 words)  manuscript/02-vault.md:8",
		"Ilse counts. [stale: the text changed since]",
		"speak: Ilse Dorn",
	} {
		assert.Contains(t, out, want)
	}

	out, _, err = run(t, "outline", "--json", "--chapters", "2", "--project", book, cache)
	require.NoError(t, err)
	var o wire.Outline
	require.NoError(t, json.Unmarshal([]byte(out), &o))
	require.Len(t, o.Acts, 1)
	assert.Equal(t, "Turn", o.Acts[0].Title)
	ch := o.Acts[0].Chapters[0]
	assert.Equal(t, "manuscript/02-vault.md", ch.Path)
	assert.True(t, strings.HasPrefix(ch.URI, "file://"))
	require.Len(t, ch.Scenes, 2)
	assert.Equal(t, "Ilse Dorn", ch.Scenes[1].POV)
	assert.True(t, ch.Scenes[1].Stale)
	assert.Equal(t, []string{"Ilse Dorn"}, ch.Scenes[1].Speak)

	out, _, err = run(t, "outline", "--sort", "status", "--project", book, cache)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	assert.True(t, strings.HasPrefix(lines[0], "2.2 Ledgers"), "draft before final and none: %q", lines[0])

	out, _, err = run(t, "outline", "--pov", "Ilse Dorn", "--project", book, cache)
	require.NoError(t, err)
	assert.Contains(t, out, "1 chapter, 1 scene")

	for _, bad := range [][]string{{"--chapters", "9-3"}, {"--chapters", "x"}, {"--sort", "colour"}} {
		_, _, err = run(t, append([]string{"outline", "--project", book, cache}, bad...)...)
		assert.Error(t, err, bad)
	}
}

// TestOutlineSetPrintsTheChange: quire outline set prints a diff that
// git applies, and writes nothing itself.
func TestOutlineSetPrintsTheChange(t *testing.T) {
	book, cache := writeBook(t, plannedBook)
	before := plannedBook["manuscript/02-vault.md"]
	out, stderr, err := run(t, "outline", "set", "2", "--scene", "2", "--synopsis", "Ilse counts nine.", "--status", "revised", "--project", book, cache)
	require.NoError(t, err, stderr)
	assert.Contains(t, out, "--- a/manuscript/02-vault.md")
	assert.Contains(t, out, "-status: draft\n")
	assert.Contains(t, out, "+status: revised\n")
	assert.Contains(t, out, "+synopsis: Ilse counts nine.")
	data, err := os.ReadFile(filepath.Join(book, "manuscript", "02-vault.md"))
	require.NoError(t, err)
	assert.Equal(t, before, string(data), "nothing is written")

	// The diff applies, and the synopsis is then current.
	if _, err := exec.LookPath("git"); err == nil {
		patch := filepath.Join(t.TempDir(), "p.diff")
		require.NoError(t, os.WriteFile(patch, []byte(out), 0o644))
		cmd := exec.Command("git", "apply", "--unsafe-paths", "--directory=.", patch)
		cmd.Dir = book
		msg, err := cmd.CombinedOutput()
		require.NoError(t, err, string(msg))
		data, err = os.ReadFile(filepath.Join(book, "manuscript", "02-vault.md"))
		require.NoError(t, err)
		u := manuscript.NewUnit("manuscript/02-vault.md", string(data), 0)
		s := u.Scenes(manuscript.SceneRules{})[1]
		assert.Equal(t, "Ilse counts nine.", s.Note.Synopsis)
		assert.False(t, s.Note.Stale(s.Hash))
	}

	out, _, err = run(t, "outline", "set", "The Harbor", "--current", "--project", book, cache)
	require.NoError(t, err)
	assert.Contains(t, out, "+synopsis-hash: ")
	out, stderr, err = run(t, "outline", "set", "The Harbor", "--status", "final", "--project", book, cache)
	require.NoError(t, err)
	assert.Empty(t, out)
	assert.Contains(t, stderr, "nothing to change")

	_, _, err = run(t, "outline", "set", "2", "--scene", "7", "--status", "draft", "--project", book, cache)
	require.ErrorContains(t, err, "no scene 7")
	_, _, err = run(t, "outline", "set", "2", "--project", book, cache)
	require.ErrorContains(t, err, "say what to set")
}
