package outline

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex/settings"
	"github.com/quire-ink/quire/manuscript"
	mbook "github.com/quire-ink/quire/manuscript/book"
)

// harbor is a small book of two chapters in two folders, the second
// split into three scenes whose notes give two of them their own pov,
// day, status and synopsis.
var harbor = map[string]string{
	"codex/characters/mara.md":           "---\ntype: character\nname: Mara Vell\naliases: [Mara]\n---\n",
	"codex/characters/ilse.md":           "---\ntype: character\nname: Ilse Dorn\naliases: [Ilse]\ngender: female\n---\n",
	"codex/locations/vault.md":           "---\ntype: location\nname: Skerry Vault\n---\n",
	"manuscript/01-arrival/01-harbor.md": "---\ntitle: The Harbor\npov: Mara Vell\nday: 1\nstatus: final\nsynopsis: Mara lands.\n---\nMara steps onto the quay. \"Cold,\" said Mara.\n",
	"manuscript/02-vault/02-vault.md": "---\ntitle: The Vault\npov: Mara Vell\nday: 2\n---\n# The Vault\n\nMara waits for Ilse.\n\n* * *\n\n" +
		"<!-- scene\ntitle: Ledgers\npov: Ilse Dorn\nday: 3\nlocation: Skerry Vault\nstatus: draft\nsynopsis: Ilse counts.\nsynopsis-hash: 000000000000\n-->\n\n\"Nine,\" said Ilse. Mara nods.\n\n* * *\n\n" +
		"<!-- scene\nstatus: idea\n-->\n\nThe tide.\n",
}

func openHarbor(t *testing.T, files map[string]string) *mbook.Book {
	t.Helper()
	dir := t.TempDir()
	for rel, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}
	b, err := mbook.Open(context.Background(), dir, mbook.Options{Cache: mbook.CacheOptions{Dir: t.TempDir()}})
	require.NoError(t, err)
	t.Cleanup(func() { _ = b.Close() })
	return b
}

func build(t *testing.T, b *mbook.Book, opts Options) *Outline {
	t.Helper()
	o, err := Build(context.Background(), b.Manuscript.Snapshot(), b.Store.Catalog(), opts)
	require.NoError(t, err)
	return o
}

func TestBuild(t *testing.T) {
	b := openHarbor(t, harbor)
	o := build(t, b, Options{Speakers: true})
	assert.Equal(t, 2, o.Chapters)
	assert.Equal(t, 4, o.Scenes)
	assert.Equal(t, 1, o.Stale, "the ledger scene's synopsis was written for other text")
	assert.Equal(t, []string{"idea", "draft", "revised", "final"}, o.Statuses)
	require.Len(t, o.Acts, 2, "the chapters lie in two folders")
	assert.Equal(t, "Arrival", o.Acts[0].Title)
	assert.Equal(t, "Vault", o.Acts[1].Title)

	one := o.Acts[0].Chapters[0]
	assert.Equal(t, "The Harbor", one.Title)
	assert.Equal(t, "Mara lands.", one.Synopsis)
	assert.Equal(t, "final", one.Status)
	assert.False(t, one.Stale, "a synopsis with no hash is never called stale")
	require.Len(t, one.Scenes, 1)
	assert.Equal(t, []string{"Mara Vell"}, one.Scenes[0].Appear)
	assert.Equal(t, []string{"Mara Vell"}, one.Scenes[0].Speak)

	two := o.Acts[1].Chapters[0]
	assert.Equal(t, 2, two.Position)
	require.Len(t, two.Scenes, 3)
	s1, s2, s3 := two.Scenes[0], two.Scenes[1], two.Scenes[2]
	assert.Equal(t, "Scene 1", s1.Title)
	assert.Equal(t, "Mara Vell", s1.POV)
	assert.Equal(t, 2, s1.Day)
	assert.Equal(t, []string{"Mara Vell", "Ilse Dorn"}, s1.Appear)
	assert.Empty(t, s1.Speak)
	assert.Equal(t, "Ledgers", s2.Title)
	assert.Equal(t, Card{Title: "Ledgers", Synopsis: "Ilse counts.", Stale: true, Status: "draft", POV: "Ilse Dorn", Location: "Skerry Vault", Day: 3, HasDay: true, Words: 5, Line: 10}, s2.Card)
	assert.Equal(t, []string{"Ilse Dorn", "Mara Vell"}, s2.Appear)
	assert.Equal(t, []string{"Ilse Dorn"}, s2.Speak)
	assert.Equal(t, "idea", s3.Status)
	assert.Equal(t, 3, s3.Day, "the day runs on")
	assert.Equal(t, "Mara Vell", s3.POV, "the chapter's pov again")
	assert.Equal(t, s1.Words+s2.Words+s3.Words, two.Words)
}

func TestBuildBoundsAndFilters(t *testing.T) {
	b := openHarbor(t, harbor)
	o := build(t, b, Options{From: 2})
	assert.Equal(t, 1, o.Chapters)
	assert.Equal(t, 2, o.Total)
	assert.Empty(t, o.Acts[0].Chapters[0].Scenes[0].Speak, "who speaks only when asked")

	o = build(t, b, Options{POV: "ilse dorn"})
	require.Equal(t, 1, o.Chapters)
	require.Len(t, o.Acts[0].Chapters[0].Scenes, 1)
	assert.Equal(t, "Ledgers", o.Acts[0].Chapters[0].Scenes[0].Title)

	o = build(t, b, Options{Status: "idea"})
	require.Equal(t, 1, o.Scenes)
	assert.Equal(t, 3, o.Acts[0].Chapters[0].Scenes[0].Number)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Build(ctx, b.Manuscript.Snapshot(), b.Store.Catalog(), Options{})
	assert.ErrorIs(t, err, context.Canceled)
}

func TestBuildActs(t *testing.T) {
	files := map[string]string{
		"quire.yaml":            "outline:\n  acts:\n    - {title: Setup, from: 1}\n    - {title: Turn, from: The Turn}\n",
		"manuscript/01-a.md":    "A.\n",
		"manuscript/02-b.md":    "B.\n",
		"manuscript/03-turn.md": "---\ntitle: The Turn\n---\nC.\n",
	}
	b := openHarbor(t, files)
	set, problems := manuscript.ReadOutlineSettings(b.Settings)
	require.Empty(t, problems)
	o := build(t, b, Options{Settings: set})
	require.Len(t, o.Acts, 2)
	assert.Equal(t, "Setup", o.Acts[0].Title)
	assert.Len(t, o.Acts[0].Chapters, 2)
	assert.Equal(t, "Turn", o.Acts[1].Title)
	assert.Equal(t, "The Turn", o.Acts[1].Chapters[0].Title)

	// One folder and no acts: one act with no title.
	delete(files, "quire.yaml")
	o = build(t, openHarbor(t, files), Options{})
	require.Len(t, o.Acts, 1)
	assert.Empty(t, o.Acts[0].Title)
}

func TestReadOutlineSettingsProblems(t *testing.T) {
	f := settings.Parse(settings.Name, []byte("outline:\n  scene_headings: seven\n  statuses: []\n  acts: [{title: A}]\n  colour: red\n  scene_breaks: [\"§\"]\n"))
	set, problems := manuscript.ReadOutlineSettings(&settings.Loaded{Book: f, User: &settings.File{}})
	require.Len(t, problems, 4)
	assert.Equal(t, []string{"§"}, set.Rules.Breaks)
	assert.Contains(t, problems[3].Error(), `no setting "colour"`)
}
