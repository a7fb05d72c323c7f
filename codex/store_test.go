package codex

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex/linktest"
	"github.com/quire-ink/quire/codex/testhome"
)

// rankingFiles is a codex where "Harbor" matches one entry in each lookup
// tier, plus names with diacritics and possessives.
func rankingFiles() projectFiles {
	return projectFiles{
		"codex/locations/old-port.md": entryMD("name: Harbor\nsummary: The old harbor of Vell.",
			"# Harbor\n\nWhere the smugglers' boats come in at night.\n"),
		"codex/locations/quay.md": entryMD("name: Quay of Lanterns\ntitle: Harbor",
			"Lanterns hang along the quay.\n"),
		"codex/items/harbor.md": entryMD("name: Brass Compass",
			"# Brass Compass\n\nIt points at whatever you owe.\n"),
		"codex/organizations/dockhands.md": entryMD("name: Dockhands Guild\naliases: [Harbor]",
			"# Dockhands Guild\n\nThey load and unload.\n"),
		"codex/characters/harbor-master.md": entryMD("name: Harbor Master",
			"# Harbor Master\n\nKeeps the ledger of every berth.\n"),
		"codex/characters/mara-vell.md": entryMD(
			"name: Mara Vell\naliases: [Mara, the Harbor Witch]\nsummary: Smuggler who owes the sea a debt.\ntags: [protagonist]\nstatus: confirmed",
			"# Mara Vell\n\nMara runs contraband through the fog.\n\n## Appearance\n\nSalt-white hair.\n"),
		"codex/characters/severine-loup.md": entryMD("name: Séverine Loup\naliases: [La Loup]",
			"# Séverine Loup\n\nA customs officer with a long memory.\n"),
		"manuscript/01-harbor.md": "# The Harbor\n\nMara Vell walked the quay.\n",
	}
}

func TestStoreLookupRanking(t *testing.T) {
	s := memStore(t, newProject(t, rankingFiles()))
	type hit struct {
		Name string
		Kind MatchKind
	}
	tests := []struct {
		query string
		typ   Type
		want  []hit
	}{
		{"Harbor", "", []hit{
			{"Harbor", MatchName},
			{"Quay of Lanterns", MatchTitle},
			{"Brass Compass", MatchStem},
			{"Dockhands Guild", MatchAlias},
			// "Harbor Master" is closer to the query than Mara Vell's
			// alias "the Harbor Witch".
			{"Harbor Master", MatchPartial},
			{"Mara Vell", MatchPartial},
		}},
		{"  hArBoR ", "", []hit{
			{"Harbor", MatchName},
			{"Quay of Lanterns", MatchTitle},
			{"Brass Compass", MatchStem},
			{"Dockhands Guild", MatchAlias},
			// "Harbor Master" is closer to the query than Mara Vell's
			// alias "the Harbor Witch".
			{"Harbor Master", MatchPartial},
			{"Mara Vell", MatchPartial},
		}},
		{"Harbor", TypeLocation, []hit{{"Harbor", MatchName}, {"Quay of Lanterns", MatchTitle}}},
		{"Harbor", TypeCharacter, []hit{{"Harbor Master", MatchPartial}, {"Mara Vell", MatchPartial}}},
		{"Harbor", TypeEvent, nil},
		{"Mara Vell", "", []hit{{"Mara Vell", MatchName}}},
		{"Mara's", "", []hit{{"Mara Vell", MatchAlias}}},
		{"Mara Vell's", "", []hit{{"Mara Vell", MatchName}}},
		{"Mara’s", "", []hit{{"Mara Vell", MatchAlias}}},
		{"the harbor witch", "", []hit{{"Mara Vell", MatchAlias}}},
		{"Severine Loup", "", []hit{{"Séverine Loup", MatchName}}},
		{"SEVERINE", "", []hit{{"Séverine Loup", MatchPartial}}},
		{"severine-loup", "", []hit{{"Séverine Loup", MatchStem}}},
		{"Vell", "", []hit{{"Mara Vell", MatchPartial}}},
		{"Habor Master", "", []hit{{"Harbor Master", MatchFuzzy}}},
		{"Brass Kompass", "", []hit{{"Brass Compass", MatchFuzzy}}},
		{"Nobody At All", "", nil},
		{"   ", "", nil},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s/%s", tt.query, tt.typ), func(t *testing.T) {
			var got []hit
			for _, r := range s.Lookup(tt.query, tt.typ) {
				got = append(got, hit{r.Name, r.Match})
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestStoreResultFields(t *testing.T) {
	root := newProject(t, rankingFiles())
	s := memStore(t, root)
	real, err := filepath.EvalSymlinks(root)
	require.NoError(t, err)
	require.Equal(t, real, s.Root())

	check := func(t *testing.T, r Result) {
		t.Helper()
		assert.Equal(t, s.Root(), r.ProjectPath)
		assert.Equal(t, "codex/characters/mara-vell.md", r.RelativePath)
		assert.Equal(t, TypeCharacter, r.Type)
		assert.Equal(t, "Mara Vell", r.Name)
		assert.Equal(t, "Mara Vell", r.Title)
		assert.Equal(t, []string{"Mara", "the Harbor Witch"}, r.Aliases)
		assert.Equal(t, "Smuggler who owes the sea a debt.", r.Summary)
		assert.Equal(t, []string{"protagonist"}, r.Tags)
		assert.Equal(t, StatusConfirmed, r.Status)
	}

	t.Run("lookup", func(t *testing.T) {
		rs := s.Lookup("Mara Vell", "")
		require.NotEmpty(t, rs)
		check(t, rs[0])
		assert.Contains(t, rs[0].Excerpt, "contraband through the fog")
		assert.NotContains(t, rs[0].Excerpt, "# Mara Vell", "the title is carried apart from the excerpt")
		assert.NotContains(t, rs[0].Excerpt, "summary:", "front matter stays out of the excerpt")
		assert.Equal(t, MatchName, rs[0].Match)
	})
	t.Run("search", func(t *testing.T) {
		rs, err := s.Search(context.Background(), "contraband", SearchOptions{})
		require.NoError(t, err)
		require.Len(t, rs, 1)
		check(t, rs[0])
		assert.Contains(t, rs[0].Excerpt, "contraband")
		assert.Positive(t, rs[0].Score)
	})
	t.Run("list", func(t *testing.T) {
		rs := s.List(TypeCharacter)
		assert.Equal(t, []string{"Harbor Master", "Mara Vell", "Séverine Loup"}, resultNames(rs))
		for _, r := range rs {
			if r.Name == "Mara Vell" {
				check(t, r)
			}
		}
		all := s.List("")
		assert.Len(t, all, 7)
		assert.Equal(t, TypeCharacter, all[0].Type, "built-in types list in their order")
		assert.Empty(t, s.List(TypeStyle))
	})
}

func TestStoreLongExcerptsAreBounded(t *testing.T) {
	filler := strings.Repeat("The fog rolled over the slate roofs again. ", 120)
	s := memStore(t, newProject(t, projectFiles{
		"codex/locations/fogtown.md": entryMD("name: Fogtown",
			"# Fogtown\n\n"+filler+"\n\nOnly the lamplighter remembers the way.\n\n"+filler),
	}))

	rs := s.Lookup("Fogtown", "")
	require.Len(t, rs, 1)
	assert.LessOrEqual(t, len(rs[0].Excerpt), LookupExcerptBytes+8)
	assert.True(t, strings.HasPrefix(rs[0].Excerpt, "The fog rolled"), rs[0].Excerpt)

	hits, err := s.Search(context.Background(), "lamplighter", SearchOptions{})
	require.NoError(t, err)
	require.Len(t, hits, 1)
	assert.LessOrEqual(t, len(hits[0].Excerpt), SearchExcerptBytes+8)
	assert.Contains(t, hits[0].Excerpt, "lamplighter", "the excerpt shows where the query matched")
}

// lanternFiles writes twelve entries that all mention lanterns, with
// types, tags and statuses spread so each filter picks a known set.
func lanternFiles() (projectFiles, map[string][]string) {
	files := projectFiles{}
	want := map[string][]string{}
	for i := range 12 {
		folder := "items"
		if i%3 == 0 {
			folder = "locations"
		}
		tags := "[lamp]"
		if i%4 == 0 {
			tags = "[lamp, Relic]"
		}
		status := "confirmed"
		if i%5 == 0 {
			status = "tentative"
		}
		id := fmt.Sprintf("codex/%s/lantern-%02d.md", folder, i)
		files[id] = entryMD(fmt.Sprintf("name: Lantern %02d\ntags: %s\nstatus: %s", i, tags, status),
			fmt.Sprintf("# Lantern %02d\n\nA lantern that burns whale oil.\n", i))
		if folder == "locations" {
			want["location"] = append(want["location"], id)
		}
		if i%4 == 0 {
			want["relic"] = append(want["relic"], id)
		}
		if i%5 == 0 {
			want["tentative"] = append(want["tentative"], id)
		}
		if folder == "locations" && i%4 == 0 {
			want["location+relic"] = append(want["location+relic"], id)
		}
	}
	files["codex/characters/keeper.md"] = entryMD("name: Oil Keeper", "# Oil Keeper\n\nSells whale oil, never lanterns.\n")
	return files, want
}

func TestStoreSearch(t *testing.T) {
	files, want := lanternFiles()
	s := memStore(t, newProject(t, files))
	ctx := context.Background()

	t.Run("at most eight", func(t *testing.T) {
		rs, err := s.Search(ctx, "lantern", SearchOptions{})
		require.NoError(t, err)
		assert.Len(t, rs, MaxSearchResults)
		rs, err = s.Search(ctx, "lantern", SearchOptions{Limit: 50})
		require.NoError(t, err)
		assert.Len(t, rs, MaxSearchResults, "a larger limit is capped")
		rs, err = s.Search(ctx, "lantern", SearchOptions{Limit: 3})
		require.NoError(t, err)
		assert.Len(t, rs, 3)
	})

	filters := []struct {
		name string
		opt  SearchOptions
		want []string
	}{
		{"type", SearchOptions{Type: TypeLocation}, want["location"]},
		{"tag", SearchOptions{Tags: []string{"relic"}}, want["relic"]},
		{"tag as written", SearchOptions{Tags: []string{"Relic"}}, want["relic"]},
		{"status", SearchOptions{Status: StatusTentative}, want["tentative"]},
		{"type and tag", SearchOptions{Type: TypeLocation, Tags: []string{"relic"}}, want["location+relic"]},
		{"no such tag", SearchOptions{Tags: []string{"cursed"}}, nil},
		{"no such type", SearchOptions{Type: TypeEvent}, nil},
	}
	for _, tt := range filters {
		t.Run(tt.name, func(t *testing.T) {
			rs, err := s.Search(ctx, "lantern", tt.opt)
			require.NoError(t, err)
			assert.ElementsMatch(t, tt.want, resultIDs(rs))
		})
	}

	t.Run("name outranks body", func(t *testing.T) {
		rs, err := s.Search(ctx, "Oil Keeper", SearchOptions{})
		require.NoError(t, err)
		require.NotEmpty(t, rs)
		assert.Equal(t, "codex/characters/keeper.md", rs[0].RelativePath)
	})
	t.Run("no hits", func(t *testing.T) {
		rs, err := s.Search(ctx, "zeppelin", SearchOptions{})
		require.NoError(t, err)
		assert.Empty(t, rs)
	})
	for _, q := range []string{"", "   ", "\t\n"} {
		t.Run(fmt.Sprintf("empty %q", q), func(t *testing.T) {
			_, err := s.Search(ctx, q, SearchOptions{})
			assert.ErrorIs(t, err, ErrEmptyQuery)
		})
	}
}

func TestStoreProblems(t *testing.T) {
	huge := entryMD("name: Huge", strings.Repeat("word ", MaxEntryBytes/5+10))
	s := memStore(t, newProject(t, projectFiles{
		"codex/characters/anne-marsh.md":  entryMD("name: Anne Marsh\naliases: [The Widow]", "# Anne Marsh\n"),
		"codex/characters/bette-marsh.md": entryMD("name: Bette Marsh\naliases: [the widow]", "# Bette Marsh\n"),
		"codex/characters/twin.md":        entryMD("name: Anne Marsh", "# The other Anne\n"),
		"codex/characters/linker.md": entryMD("name: Linker",
			"See [[Nobody Here]], [[Anne Marsh#No Such Section]] and [[Bette Marsh]].\n"),
		"codex/characters/blob.md": "---\nname: Blob\n---\n\x00\x01\x02binary",
		"codex/items/huge.md":      huge,
		"notes/binary.md":          "\x00\x01 not markdown, not canon",
	}))
	cat := s.Catalog()

	assert.Equal(t, []string{
		"codex/characters/anne-marsh.md",
		"codex/characters/bette-marsh.md",
		"codex/characters/linker.md",
		"codex/characters/twin.md",
	}, entryIDs(cat), "skipped files are not entries")

	tests := []struct {
		path string
		want []string
	}{
		{"codex/characters/anne-marsh.md", []string{CodeDuplicateName, CodeDuplicateName}},
		{"codex/characters/bette-marsh.md", []string{CodeDuplicateName}},
		{"codex/characters/twin.md", []string{CodeDuplicateName}},
		{"codex/characters/linker.md", []string{CodeBrokenLink, CodeBrokenLink}},
		{"codex/characters/blob.md", []string{CodeBinary}},
		{"codex/items/huge.md", []string{CodeTooLarge}},
		{"notes/binary.md", nil},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			assert.ElementsMatch(t, tt.want, codesIn(cat, tt.path))
		})
	}

	var broken []string
	for _, p := range cat.ProblemsIn("codex/characters/linker.md") {
		broken = append(broken, p.Message)
	}
	assert.Len(t, broken, 2)
	assert.Contains(t, strings.Join(broken, "\n"), "Nobody Here")
	assert.NotContains(t, strings.Join(broken, "\n"), "Bette Marsh", "a link to an existing entry is fine")
}

// TestStoreOpenReport checks the report of a cold open, in memory and on
// disk.
func TestStoreOpenReport(t *testing.T) {
	files := rankingFiles()
	for _, inMemory := range []bool{true, false} {
		t.Run(fmt.Sprintf("in memory %v", inMemory), func(t *testing.T) {
			root := newProject(t, files)
			var cache string
			if !inMemory {
				cache = t.TempDir()
			}
			s := openStore(t, root, Options{InMemory: inMemory, CacheDir: cache})
			r := s.Report()
			assert.True(t, r.Rebuilt)
			assert.NotEmpty(t, r.Reason)
			assert.Equal(t, len(files), r.Files, "every Markdown file is known")
			assert.Equal(t, len(files), r.Parsed)
			assert.Equal(t, 7, r.Entries)
			assert.Equal(t, 0, r.Removed)
			assert.Equal(t, cache, r.CacheDir)
			assert.Equal(t, 7, s.Catalog().Len())
		})
	}
}

func TestStoreOpenErrors(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "book.md")
	require.NoError(t, os.WriteFile(file, []byte("# not a folder\n"), 0o644))
	for name, root := range map[string]string{
		"missing folder": filepath.Join(dir, "no-such-book"),
		"a file":         file,
	} {
		t.Run(name, func(t *testing.T) {
			s, err := Open(context.Background(), root, Options{InMemory: true})
			if s != nil {
				_ = s.Close()
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), root, "the error names the project")
		})
	}
}

func TestStoreProjectThroughSymlink(t *testing.T) {
	root := newProject(t, projectFiles{"codex/characters/mara-vell.md": entryNamed("Mara Vell")})
	link := filepath.Join(t.TempDir(), "book-link")
	linktest.Symlink(t, root, link)
	s := memStore(t, link)
	real, err := filepath.EvalSymlinks(root)
	require.NoError(t, err)
	assert.Equal(t, real, s.Root())
	rs := s.Lookup("Mara Vell", "")
	require.Len(t, rs, 1)
	assert.Equal(t, real, rs[0].ProjectPath)
}

func TestStoreSyncAndClose(t *testing.T) {
	root := newProject(t, projectFiles{
		"codex/characters/mara-vell.md": entryNamed("Mara Vell"),
		"codex/characters/tobin.md":     entryNamed("Tobin"),
	})
	s := openStore(t, root, Options{})

	writeFile(t, root, "codex/characters/mara-vell.md", entryNamed("Mara Quell"))
	removeAll(t, root, "codex/characters/tobin.md")
	writeFile(t, root, "codex/locations/harbor.md", entryNamed("Harbor"))
	stats, err := s.Sync(context.Background())
	require.NoError(t, err)
	assert.Equal(t, 2, stats.Parsed)
	assert.Equal(t, 1, stats.Removed)
	assert.Equal(t, 2, stats.Entries)
	assert.Equal(t, []string{"codex/characters/mara-vell.md", "codex/locations/harbor.md"}, entryIDs(s.Catalog()))
	require.NotEmpty(t, s.Lookup("Mara Quell", ""))
	assert.Equal(t, MatchName, s.Lookup("Mara Quell", "")[0].Match)

	stats, err = s.Sync(context.Background())
	require.NoError(t, err)
	assert.Zero(t, stats.Parsed, "a second sync has nothing to do")
	assert.Zero(t, stats.Removed)

	require.NoError(t, s.Close())
	require.NoError(t, s.Close(), "closing twice is harmless")
	_, err = s.Sync(context.Background())
	assert.Error(t, err, "a closed store does not sync")
	_, err = s.Refresh(context.Background(), []string{"codex/characters/mara-vell.md"})
	assert.Error(t, err, "a closed store does not refresh")
	assert.Len(t, s.Lookup("Mara Quell", ""), 1, "the last catalog stays readable")
}

// TestStoreRefresh drives Refresh directly with the paths a watcher would
// report, without any file events.
func TestStoreRefresh(t *testing.T) {
	base := projectFiles{
		"codex/characters/mara-vell.md":       entryNamed("Mara Vell"),
		"codex/characters/ilse-dorn/notes.md": "# Notes on Ilse\n",
		"codex/characters/ilse-dorn/soul.md":  "# Soul\n\nStill water.\n",
		"codex/locations/harbor/pier.md":      entryNamed("Pier"),
		"codex/locations/harbor/berth.md":     entryNamed("Berth"),
		"codex/locations/harbor/deep/hold.md": entryNamed("Hold"),
		"codex/characters/oskar/index.md":     entryNamed("Oskar Brand"),
		"codex/characters/oskar/soul.md":      "# Soul\n\nCounts every coin twice.\n",
		"codex/characters/oskar/notes.md":     "# Notes on Oskar\n",
	}
	baseIDs := []string{
		"codex/characters/ilse-dorn/notes.md",
		"codex/characters/ilse-dorn/soul.md",
		"codex/characters/mara-vell.md",
		"codex/characters/oskar/index.md",
		"codex/locations/harbor/berth.md",
		"codex/locations/harbor/deep/hold.md",
		"codex/locations/harbor/pier.md",
	}
	harbor := []string{"codex/locations/harbor/berth.md", "codex/locations/harbor/deep/hold.md", "codex/locations/harbor/pier.md"}
	tests := []struct {
		name        string
		change      func(t *testing.T, root string)
		rels        []string
		wantUpdated []string
		wantRemoved []string
		wantIDs     []string
	}{
		{
			name:        "new file",
			change:      func(t *testing.T, root string) { writeFile(t, root, "codex/items/compass.md", entryNamed("Compass")) },
			rels:        []string{"codex/items/compass.md"},
			wantUpdated: []string{"codex/items/compass.md"},
			wantIDs:     append([]string{"codex/items/compass.md"}, baseIDs...),
		},
		{
			name: "edited file",
			change: func(t *testing.T, root string) {
				writeFile(t, root, "codex/characters/mara-vell.md", entryNamed("Mara Quell"))
			},
			rels:        []string{"codex/characters/mara-vell.md"},
			wantUpdated: []string{"codex/characters/mara-vell.md"},
			wantIDs:     baseIDs,
		},
		{
			name:        "deleted file",
			change:      func(t *testing.T, root string) { removeAll(t, root, "codex/characters/mara-vell.md") },
			rels:        []string{"codex/characters/mara-vell.md"},
			wantRemoved: []string{"codex/characters/mara-vell.md"},
			wantIDs:     withoutIDs(baseIDs, "codex/characters/mara-vell.md"),
		},
		{
			name:        "deleted folder",
			change:      func(t *testing.T, root string) { removeAll(t, root, "codex/locations/harbor") },
			rels:        []string{"codex/locations/harbor"},
			wantRemoved: harbor,
			wantIDs:     withoutIDs(baseIDs, harbor...),
		},
		{
			name: "renamed folder",
			change: func(t *testing.T, root string) {
				renamePath(t, root, "codex/locations/harbor", "codex/locations/docks")
			},
			rels: []string{"codex/locations/harbor", "codex/locations/docks"},
			wantUpdated: []string{
				"codex/locations/docks/berth.md", "codex/locations/docks/deep/hold.md", "codex/locations/docks/pier.md",
			},
			wantRemoved: harbor,
			wantIDs: slicesConcat(withoutIDs(baseIDs, harbor...),
				"codex/locations/docks/berth.md", "codex/locations/docks/deep/hold.md", "codex/locations/docks/pier.md"),
		},
		{
			name: "new nested folder",
			change: func(t *testing.T, root string) {
				writeFile(t, root, "codex/events/war/battles/first.md", entryNamed("First Battle"))
				writeFile(t, root, "codex/events/war/treaty.md", entryNamed("Treaty"))
			},
			rels:        []string{"codex/events"},
			wantUpdated: []string{"codex/events/war/battles/first.md", "codex/events/war/treaty.md"},
			wantIDs:     slicesConcat(baseIDs, "codex/events/war/battles/first.md", "codex/events/war/treaty.md"),
		},
		{
			name: "new index.md makes an entry folder",
			change: func(t *testing.T, root string) {
				writeFile(t, root, "codex/characters/ilse-dorn/index.md", entryNamed("Ilse Dorn"))
			},
			rels:        []string{"codex/characters/ilse-dorn/index.md"},
			wantUpdated: []string{"codex/characters/ilse-dorn/index.md"},
			wantRemoved: []string{"codex/characters/ilse-dorn/notes.md", "codex/characters/ilse-dorn/soul.md"},
			wantIDs: slicesConcat(withoutIDs(baseIDs, "codex/characters/ilse-dorn/notes.md", "codex/characters/ilse-dorn/soul.md"),
				"codex/characters/ilse-dorn/index.md"),
		},
		{
			name:        "deleted index.md dissolves an entry folder",
			change:      func(t *testing.T, root string) { removeAll(t, root, "codex/characters/oskar/index.md") },
			rels:        []string{"codex/characters/oskar/index.md"},
			wantUpdated: []string{"codex/characters/oskar/notes.md", "codex/characters/oskar/soul.md"},
			wantRemoved: []string{"codex/characters/oskar/index.md"},
			wantIDs: slicesConcat(withoutIDs(baseIDs, "codex/characters/oskar/index.md"),
				"codex/characters/oskar/notes.md", "codex/characters/oskar/soul.md"),
		},
		{
			name: "edited soul",
			change: func(t *testing.T, root string) {
				writeFile(t, root, "codex/characters/oskar/soul.md", "# Soul\n\nDreams of drowned ledgers.\n")
			},
			rels:        []string{"codex/characters/oskar/soul.md"},
			wantUpdated: []string{"codex/characters/oskar/index.md"},
			wantIDs:     baseIDs,
		},
		{
			name:        "deleted soul",
			change:      func(t *testing.T, root string) { removeAll(t, root, "codex/characters/oskar/soul.md") },
			rels:        []string{"codex/characters/oskar/soul.md"},
			wantUpdated: []string{"codex/characters/oskar/index.md"},
			wantIDs:     baseIDs,
		},
		{
			name:    "ignored path",
			change:  func(t *testing.T, root string) { writeFile(t, root, ".git/characters/x.md", entryNamed("Git")) },
			rels:    []string{".git/characters/x.md", ".git"},
			wantIDs: baseIDs,
		},
		{
			name:    "unchanged file",
			change:  func(t *testing.T, root string) {},
			rels:    []string{"codex/characters/mara-vell.md", "codex/locations/harbor"},
			wantIDs: baseIDs,
		},
		{
			name:    "path that never existed",
			change:  func(t *testing.T, root string) {},
			rels:    []string{"codex/characters/nobody.md", "no/such/folder"},
			wantIDs: baseIDs,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := newProject(t, base)
			s := memStore(t, root)
			require.Equal(t, baseIDs, entryIDs(s.Catalog()))
			tt.change(t, root)
			ch, err := s.Refresh(context.Background(), tt.rels)
			require.NoError(t, err)
			assert.Equal(t, tt.wantUpdated, ch.Updated, "updated")
			assert.Equal(t, tt.wantRemoved, ch.Removed, "removed")
			require.NotNil(t, ch.Catalog)
			assert.Same(t, s.Catalog(), ch.Catalog)
			assert.ElementsMatch(t, tt.wantIDs, entryIDs(s.Catalog()))
			soulAfter := soulOf(s, "codex/characters/oskar/index.md")

			// A full walk agrees with what the refresh left.
			stats, err := s.Sync(context.Background())
			require.NoError(t, err)
			assert.Zero(t, stats.Removed, "the refresh missed a removal")
			assert.ElementsMatch(t, tt.wantIDs, entryIDs(s.Catalog()), "a full sync disagrees with the refresh")
			assert.Equal(t, soulAfter, soulOf(s, "codex/characters/oskar/index.md"), "a full sync disagrees about the soul")
		})
	}
}

// soulOf is the soul text of an entry, or "" when it has none.
func soulOf(s *Store, id string) string {
	if e, ok := s.Catalog().Get(id); ok && e.Soul != nil {
		return e.Soul.Source
	}
	return ""
}

func withoutIDs(ids []string, drop ...string) []string {
	var out []string
	for _, id := range ids {
		if !slices.Contains(drop, id) {
			out = append(out, id)
		}
	}
	return out
}

func slicesConcat(ids []string, more ...string) []string {
	out := append([]string(nil), ids...)
	return append(out, more...)
}

// persistFiles is a project with every kind of thing the cache keeps:
// entries, a soul, skipped files and problems.
func persistFiles() projectFiles {
	files := rankingFiles()
	files["codex/characters/ilse-dorn/index.md"] = entryMD("name: Ilse Dorn\naliases: [Ilse]", "# Ilse Dorn\n\nKeeps the light. See [[Mara Vell]] and [[Nobody]].\n")
	files["codex/characters/ilse-dorn/soul.md"] = "# Soul\n\nShe fears still water.\n"
	files["codex/characters/ilse-dorn/notes.md"] = "# Notes\n"
	files["codex/characters/blob.md"] = "---\nname: Blob\n---\n\x00binary"
	files["notes/storm-lore.md"] = entryMD("type: concept\nname: Storm Lore\ncustom_key: 3\nlocked: [custom_key]", "Storms owe debts.\n")
	return files
}

// storeSnapshot is everything a store answers, for comparing two opens.
type storeSnapshot struct {
	IDs      []string
	Lookups  map[string][]Result
	Searches map[string][]Result
	Lists    []Result
	Problems []Problem
}

func takeSnapshot(t *testing.T, s *Store) storeSnapshot {
	t.Helper()
	snap := storeSnapshot{
		IDs:      entryIDs(s.Catalog()),
		Lookups:  map[string][]Result{},
		Searches: map[string][]Result{},
		Lists:    s.List(""),
		Problems: s.Catalog().Problems(),
	}
	for _, q := range []string{"Harbor", "Mara's", "Severine", "Ilse Dorn", "Storm Lore", "Habor Master", "Mara Quell", "Tobin Reed"} {
		snap.Lookups[q] = s.Lookup(q, "")
	}
	for _, q := range []string{"harbor", "still water", "contraband", "debts"} {
		rs, err := s.Search(context.Background(), q, SearchOptions{})
		require.NoError(t, err)
		for i := range rs {
			// Scores of equal indexes differ in the last bits with the
			// order documents went in; compare them to nine places.
			rs[i].Score = math.Round(rs[i].Score*1e9) / 1e9
		}
		snap.Searches[q] = rs
	}
	return snap
}

func TestStoreWarmOpen(t *testing.T) {
	files := persistFiles()
	root := newProject(t, files)
	cache := t.TempDir()

	s1 := openStore(t, root, Options{CacheDir: cache})
	require.True(t, s1.Report().Rebuilt)
	cold := takeSnapshot(t, s1)
	require.NotEmpty(t, cold.Lookups["Ilse Dorn"])
	require.NotEmpty(t, cold.Lookups["Ilse Dorn"][0].SoulExcerpt)
	require.NotEmpty(t, cold.Problems)
	require.NoError(t, s1.Close())

	s2 := reopen(t, root, cache)
	r := s2.Report()
	assert.False(t, r.Rebuilt, "reason: %s", r.Reason)
	assert.Empty(t, r.Reason)
	assert.Zero(t, r.Parsed)
	assert.Zero(t, r.Removed)
	assert.Equal(t, len(files), r.Files)
	assert.Equal(t, len(cold.IDs), r.Entries)
	assert.Equal(t, cache, r.CacheDir)
	assert.Equal(t, cold, takeSnapshot(t, s2), "a warm store answers exactly as the cold one did")

	ilse, ok := s2.Catalog().Get("codex/characters/ilse-dorn/index.md")
	require.True(t, ok)
	require.NotNil(t, ilse.Soul, "the soul survives a warm start")
	storm, ok := s2.Catalog().Get("notes/storm-lore.md")
	require.True(t, ok)
	v, ok := storm.Custom.Get("custom_key")
	assert.True(t, ok)
	assert.EqualValues(t, 3, v)
}

// TestStoreReconcileOffline changes the project while no store runs and
// checks that the next open brings the cache up to date.
func TestStoreReconcileOffline(t *testing.T) {
	tests := offlineChanges()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, cache, _ := offlineProject(t)

			tt.change(t, root)

			s2 := reopen(t, root, cache)
			r := s2.Report()
			assert.False(t, r.Rebuilt, "reason: %s", r.Reason)
			if tt.wantParsed >= 0 {
				assert.Equal(t, tt.wantParsed, r.Parsed, "parsed")
			}
			assert.Equal(t, tt.wantRemoved, r.Removed, "removed")
			if tt.check != nil {
				tt.check(t, s2)
			}
			after := takeSnapshot(t, s2)

			// What the warm store shows is what a cold build shows.
			fresh := openStore(t, root, Options{InMemory: true})
			assert.Equal(t, takeSnapshot(t, fresh).IDs, after.IDs)

			// And the next open has nothing left to do.
			require.NoError(t, s2.Close())
			s3 := reopen(t, root, cache)
			assert.False(t, s3.Report().Rebuilt)
			assert.Zero(t, s3.Report().Parsed)
			assert.Zero(t, s3.Report().Removed)
			assert.Equal(t, after, takeSnapshot(t, s3))
		})
	}
}

func firstMatch(rs []Result) MatchKind {
	if len(rs) == 0 {
		return ""
	}
	return rs[0].Match
}

// TestStoreRebuildsDamagedCache damages the cache between two opens: the
// second open must rebuild and answer as before.
func TestStoreRebuildsDamagedCache(t *testing.T) {
	garbage := []byte("\x00\xffthis is not what quire wrote\x13\x37")
	tests := []struct {
		name   string
		damage func(t *testing.T, cache string)
	}{
		{"stale schema", func(t *testing.T, cache string) {
			editMeta(t, cache, func(m map[string]any) { m["schema"] = 0 })
		}},
		{"newer schema", func(t *testing.T, cache string) {
			editMeta(t, cache, func(m map[string]any) { m["schema"] = SchemaVersion + 1 })
		}},
		{"meta of another project", func(t *testing.T, cache string) {
			editMeta(t, cache, func(m map[string]any) { m["root"] = "/somewhere/else" })
		}},
		{"meta garbage", func(t *testing.T, cache string) {
			require.NoError(t, os.WriteFile(filepath.Join(cache, metaName), garbage, 0o600))
		}},
		{"meta deleted", func(t *testing.T, cache string) {
			require.NoError(t, os.Remove(filepath.Join(cache, metaName)))
		}},
		{"index files garbage", func(t *testing.T, cache string) {
			n := 0
			walkFiles(t, filepath.Join(cache, indexName), func(p string) {
				require.NoError(t, os.WriteFile(p, garbage, 0o600))
				n++
			})
			require.Positive(t, n)
		}},
		{"index root.bolt deleted", func(t *testing.T, cache string) {
			n := 0
			walkFiles(t, filepath.Join(cache, indexName), func(p string) {
				if filepath.Base(p) == "root.bolt" {
					require.NoError(t, os.Remove(p))
					n++
				}
			})
			require.Equal(t, 1, n, "the index has one root.bolt")
		}},
		{"index segments deleted", func(t *testing.T, cache string) {
			n := 0
			walkFiles(t, filepath.Join(cache, indexName), func(p string) {
				if strings.HasSuffix(p, ".zap") {
					require.NoError(t, os.Remove(p))
					n++
				}
			})
			require.Positive(t, n)
		}},
		{"index folder deleted", func(t *testing.T, cache string) {
			require.NoError(t, os.RemoveAll(filepath.Join(cache, indexName)))
		}},
		{"state truncated", func(t *testing.T, cache string) {
			for _, p := range stateFiles(t, cache) {
				info, err := os.Stat(p)
				require.NoError(t, err)
				require.NoError(t, os.Truncate(p, info.Size()/2))
			}
		}},
		{"state emptied", func(t *testing.T, cache string) {
			for _, p := range stateFiles(t, cache) {
				require.NoError(t, os.Truncate(p, 0))
			}
		}},
		{"state garbage", func(t *testing.T, cache string) {
			for _, p := range stateFiles(t, cache) {
				require.NoError(t, os.WriteFile(p, garbage, 0o600))
			}
		}},
		{"state bytes flipped", func(t *testing.T, cache string) {
			for _, p := range stateFiles(t, cache) {
				data, err := os.ReadFile(p)
				require.NoError(t, err)
				for i := len(data) / 3; i < len(data)/3+64 && i < len(data); i++ {
					data[i] ^= 0xA5
				}
				require.NoError(t, os.WriteFile(p, data, 0o600))
			}
		}},
		{"state deleted", func(t *testing.T, cache string) {
			for _, p := range stateFiles(t, cache) {
				require.NoError(t, os.Remove(p))
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := newProject(t, persistFiles())
			cache := t.TempDir()
			s1 := openStore(t, root, Options{CacheDir: cache})
			want := takeSnapshot(t, s1)
			require.NoError(t, s1.Close())

			tt.damage(t, cache)

			s2 := reopen(t, root, cache)
			r := s2.Report()
			assert.True(t, r.Rebuilt, "a damaged cache is rebuilt")
			assert.NotEmpty(t, r.Reason)
			if strings.HasPrefix(tt.name, "index") && r.Parsed == 0 {
				// Damage to the index alone: a state that survives keeps the
				// parsed entries, and only the index is built again. Which
				// way bleve meets the damage (an error, or fewer documents
				// than the state lists) depends on how its segments stood
				// when the first store closed.
				assert.Contains(t, r.Reason, "rebuilt from the saved entries")
			} else {
				assert.Equal(t, len(persistFiles()), r.Parsed, "every file is read again; reason: %s", r.Reason)
			}
			assert.Equal(t, want, takeSnapshot(t, s2))
			require.NoError(t, s2.Close())

			s3 := reopen(t, root, cache)
			assert.False(t, s3.Report().Rebuilt, "the rebuilt cache is sound; reason: %s", s3.Report().Reason)
			assert.Zero(t, s3.Report().Parsed)
			assert.Equal(t, want, takeSnapshot(t, s3))
		})
	}
}

func editMeta(t *testing.T, cache string, edit func(map[string]any)) {
	t.Helper()
	p := filepath.Join(cache, metaName)
	data, err := os.ReadFile(p)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(data, &m))
	require.Contains(t, m, "schema")
	edit(m)
	data, err = json.Marshal(m)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(p, data, 0o600))
}

func walkFiles(t *testing.T, dir string, visit func(path string)) {
	t.Helper()
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			visit(p)
		}
		return err
	}))
}

func TestStoreRefusesCacheInsideProject(t *testing.T) {
	tests := []struct {
		name  string
		cache func(t *testing.T, root string) string
	}{
		{name: "the project itself", cache: func(t *testing.T, root string) string { return root }},
		{name: "a folder of the project", cache: func(t *testing.T, root string) string { return filepath.Join(root, "cache") }},
		{name: "an existing folder of the project", cache: func(t *testing.T, root string) string { return filepath.Join(root, "codex") }},
		{name: "a path through a link to the project", cache: func(t *testing.T, root string) string {
			link := filepath.Join(t.TempDir(), "book")
			linktest.Symlink(t, root, link)
			return filepath.Join(link, "cache")
		}},
		{
			name: "a folder below a missing folder of the project",
			cache: func(t *testing.T, root string) string {
				return filepath.Join(root, ".quire", "cache")
			},
		},
		{
			name: "a link to a folder of the project",
			cache: func(t *testing.T, root string) string {
				link := filepath.Join(t.TempDir(), "cache")
				linktest.Symlink(t, filepath.Join(root, "codex"), link)
				return link
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := newProject(t, projectFiles{"codex/characters/mara-vell.md": entryNamed("Mara Vell")})
			before := snapshotTree(t, root)
			cache := tt.cache(t, root)
			s, err := Open(context.Background(), root, Options{CacheDir: cache})
			if s != nil {
				_ = s.Close()
			}
			require.Error(t, err, "a cache inside the project is refused")
			assert.Contains(t, err.Error(), "inside the project")
			assert.Equal(t, before, snapshotTree(t, root), "nothing was written into the project")
		})
	}
}

// TestStoreWritesNothingInProject runs a store through its life on disk
// and compares the project tree before and after.
func TestStoreWritesNothingInProject(t *testing.T) {
	root := newProject(t, persistFiles())
	symlink(t, "../../shared/port.md", root, "codex/locations/port.md")
	writeFile(t, root, "shared/port.md", "# Port\n")
	before := snapshotTree(t, root)

	cache := t.TempDir()
	s := openStore(t, root, Options{CacheDir: cache})
	takeSnapshot(t, s)
	_, err := s.Sync(context.Background())
	require.NoError(t, err)
	_, err = s.Refresh(context.Background(), []string{"codex", "notes/storm-lore.md"})
	require.NoError(t, err)
	require.NoError(t, s.Save())
	require.NoError(t, s.Close())
	s = reopen(t, root, cache)
	takeSnapshot(t, s)
	require.NoError(t, s.Close())

	assert.Equal(t, before, snapshotTree(t, root))
}

// TestStoreDefaultCacheDir checks the default cache folder, with the
// user cache folder moved into the test's temporary folder.
func TestStoreDefaultCacheDir(t *testing.T) {
	// XDG_CACHE_HOME on Linux, %LocalAppData% on Windows, HOME on macOS.
	userCache := testhome.CacheDir(t)
	root := newProject(t, projectFiles{"codex/characters/mara-vell.md": entryNamed("Mara Vell")})
	before := snapshotTree(t, root)

	real, err := filepath.EvalSymlinks(root)
	require.NoError(t, err)
	want, err := CacheDirFor(real)
	require.NoError(t, err)
	require.True(t, isBelow(userCache, want),
		"the default cache %s must lie in the test's temporary folders, never the real user cache", want)

	s, err := Open(context.Background(), root, Options{})
	require.NoError(t, err)
	t.Cleanup(func() { assert.NoError(t, s.Close()) })
	assert.Equal(t, want, s.Report().CacheDir)
	assert.DirExists(t, filepath.Join(want, indexName))
	require.NoError(t, s.Close())
	assert.Equal(t, before, snapshotTree(t, root))

	other := newProject(t, projectFiles{})
	otherReal, err := filepath.EvalSymlinks(other)
	require.NoError(t, err)
	otherDir, err := CacheDirFor(otherReal)
	require.NoError(t, err)
	assert.NotEqual(t, want, otherDir, "each project has its own cache")
}

func TestStoreIndexLockedInProcess(t *testing.T) {
	root := newProject(t, persistFiles())
	cache := t.TempDir()
	s1 := openStore(t, root, Options{CacheDir: cache})
	want := takeSnapshot(t, s1)

	s2, err := Open(context.Background(), root, Options{CacheDir: cache, BoltTimeout: 200 * time.Millisecond})
	if s2 != nil {
		_ = s2.Close()
	}
	require.ErrorIs(t, err, ErrIndexLocked)
	assert.Contains(t, err.Error(), root)

	assert.Equal(t, want, takeSnapshot(t, s1), "the first store is unharmed")
	require.NoError(t, s1.Close())

	s3 := reopen(t, root, cache)
	assert.False(t, s3.Report().Rebuilt, "the refused open left the cache alone; reason: %s", s3.Report().Reason)
	assert.Equal(t, want, takeSnapshot(t, s3))
}

// TestStoreIndexLockedWithStaleStamp opens a project whose index another
// store holds while the stamp says the index is stale, as a newer or older
// quire would see it: the second open must still wait for the lock and be
// refused, never wipe the index under the first.
func TestStoreIndexLockedWithStaleStamp(t *testing.T) {
	root := newProject(t, persistFiles())
	cache := t.TempDir()
	s1 := openStore(t, root, Options{CacheDir: cache})
	editMeta(t, cache, func(m map[string]any) { m["schema"] = SchemaVersion + 1 })

	s2, err := Open(context.Background(), root, Options{CacheDir: cache, BoltTimeout: 200 * time.Millisecond})
	if s2 != nil {
		_ = s2.Close()
	}
	require.ErrorIs(t, err, ErrIndexLocked)
	_, err = s1.Search(context.Background(), "harbor", SearchOptions{})
	require.NoError(t, err)
	require.NoError(t, s1.Close(), "the first store's index is intact")
}

func TestStoreProgress(t *testing.T) {
	files := persistFiles()
	root := newProject(t, files)
	ageFiles(t, root)
	cache := t.TempDir()
	var mu sync.Mutex
	var dones, totals []int
	progress := func(done, total int) {
		// Progress is called from the reading workers, one call at a time.
		mu.Lock()
		defer mu.Unlock()
		dones, totals = append(dones, done), append(totals, total)
	}
	s := openStore(t, root, Options{CacheDir: cache, Progress: progress})
	mu.Lock()
	want := make([]int, len(files))
	for i := range want {
		want[i] = i + 1
	}
	assert.Equal(t, want, dones, "each file read counts once, in order")
	for _, total := range totals {
		assert.Equal(t, len(files), total)
	}
	dones, totals = nil, nil
	mu.Unlock()
	require.NoError(t, s.Close())

	openStore(t, root, Options{CacheDir: cache, Progress: progress})
	mu.Lock()
	defer mu.Unlock()
	assert.Empty(t, dones, "a warm open reads nothing")
}

// Environment of TestHelperProcess, the second process of
// TestStoreIndexLockedAcrossProcesses.
const (
	helperEnv      = "QUIRE_CODEX_TEST_HELPER"
	helperRootEnv  = "QUIRE_CODEX_TEST_ROOT"
	helperCacheEnv = "QUIRE_CODEX_TEST_CACHE"
	helperPrefix   = "helper-result: "
)

// TestHelperProcess is not a test: run as a child process, it opens the
// store named by its environment and prints what happened.
func TestHelperProcess(t *testing.T) {
	if os.Getenv(helperEnv) != "open" {
		t.Skip("runs only as the child process of TestStoreIndexLockedAcrossProcesses")
	}
	s, err := Open(context.Background(), os.Getenv(helperRootEnv), Options{
		CacheDir:    os.Getenv(helperCacheEnv),
		BoltTimeout: 200 * time.Millisecond,
	})
	switch {
	case errors.Is(err, ErrIndexLocked):
		fmt.Println(helperPrefix + "locked")
	case err != nil:
		fmt.Println(helperPrefix + "error " + strings.ReplaceAll(err.Error(), "\n", " "))
	default:
		fmt.Printf("%sopened %d entries, rebuilt %v\n", helperPrefix, s.Catalog().Len(), s.Report().Rebuilt)
		if err := s.Close(); err != nil {
			fmt.Println(helperPrefix + "close error " + err.Error())
		}
	}
}

// runHelper runs TestHelperProcess in a child process and returns what
// it printed as its result.
func runHelper(t *testing.T, root, cache string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), helperEnv+"=open", helperRootEnv+"="+root, helperCacheEnv+"="+cache)
	out, err := cmd.CombinedOutput()
	require.NoError(t, ctx.Err(), "the second process hung:\n%s", out)
	require.NoError(t, err, "the second process failed:\n%s", out)
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), helperPrefix); ok {
			return rest
		}
	}
	t.Fatalf("the second process printed no result:\n%s", out)
	return ""
}

func TestStoreIndexLockedAcrossProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a second process")
	}
	root := newProject(t, persistFiles())
	cache := t.TempDir()
	s := openStore(t, root, Options{CacheDir: cache})
	n := s.Catalog().Len()

	assert.Equal(t, "locked", runHelper(t, root, cache), "a second process is refused while the first holds the index")
	assert.Equal(t, n, s.Catalog().Len())
	_, err := s.Search(context.Background(), "harbor", SearchOptions{})
	require.NoError(t, err, "the first process keeps working")

	require.NoError(t, s.Close())
	assert.Equal(t, fmt.Sprintf("opened %d entries, rebuilt false", n), runHelper(t, root, cache),
		"once the first process is gone the second opens the same warm cache")
}

// ageFiles moves every file's modification time an hour back, out of the
// window in which quire distrusts times (see racyWindow).
func ageFiles(t *testing.T, root string) {
	t.Helper()
	old := time.Now().Add(-time.Hour)
	require.NoError(t, filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		return os.Chtimes(p, old, old)
	}))
}

// TestStoreRacyTimestamps: a file modified moments before it was read may
// change again within the same clock tick, keeping size and time. Such a
// file is hashed again on the next open (and re-parsed only if its bytes
// changed); a file with an old time is trusted.
func TestStoreRacyTimestamps(t *testing.T) {
	root := newProject(t, projectFiles{"codex/characters/mara-vell.md": entryNamed("Mara Vell")})
	path := filepath.Join(root, "codex/characters/mara-vell.md")
	cache := t.TempDir()
	var reads int
	var mu sync.Mutex
	progress := func(int, int) { mu.Lock(); reads++; mu.Unlock() }

	s := openStore(t, root, Options{CacheDir: cache, Progress: progress})
	require.NoError(t, s.Close())
	info, err := os.Stat(path)
	require.NoError(t, err)
	// Same size, same time, different bytes: only a re-read can tell.
	require.NoError(t, os.WriteFile(path, []byte(strings.Replace(entryNamed("Mara Vell"), "Mara Vell", "Mara Vall", 1)), 0o644))
	require.NoError(t, os.Chtimes(path, info.ModTime(), info.ModTime()))

	mu.Lock()
	reads = 0
	mu.Unlock()
	s = openStore(t, root, Options{CacheDir: cache, Progress: progress})
	assert.Equal(t, 1, reads, "the racy file is read again")
	assert.Equal(t, 1, s.Report().Parsed)
	require.NotEmpty(t, s.Lookup("Mara Vall", ""))
	assert.Equal(t, "Mara Vall", s.Lookup("Mara Vall", "")[0].Name)
	require.NoError(t, s.Close())

	ageFiles(t, root)
	s = openStore(t, root, Options{CacheDir: cache, Progress: progress})
	require.NoError(t, s.Close())
	mu.Lock()
	reads = 0
	mu.Unlock()
	s = openStore(t, root, Options{CacheDir: cache, Progress: progress})
	assert.Zero(t, reads, "an old modification time is trusted")
	assert.Zero(t, s.Report().Parsed)
}

func TestStoreRebuildRereadsWhatSyncTrusts(t *testing.T) {
	root := newProject(t, projectFiles{
		"codex/characters/mara-vell.md": entryNamed("Mara Vell"),
		"codex/characters/tobin.md":     entryNamed("Tobin"),
	})
	old := time.Now().Add(-time.Hour)
	mara := filepath.Join(root, "codex/characters/mara-vell.md")
	require.NoError(t, os.Chtimes(mara, old, old))
	s := openStore(t, root, Options{})

	// Same size, same time: a change only a full read can see.
	writeFile(t, root, "codex/characters/mara-vell.md", entryNamed("Mara Bell"))
	require.NoError(t, os.Chtimes(mara, old, old))
	stats, err := s.Sync(context.Background())
	require.NoError(t, err)
	require.Zero(t, stats.Parsed, "sync trusts size and time")

	removeAll(t, root, "codex/characters/tobin.md")
	ch, stats, err := s.Rebuild(context.Background())
	require.NoError(t, err)
	assert.True(t, ch.Resynced)
	assert.Equal(t, 1, stats.Parsed)
	assert.Equal(t, 1, stats.Removed)
	assert.Equal(t, []string{"codex/characters/mara-vell.md"}, entryIDs(s.Catalog()))
	require.NotEmpty(t, s.Lookup("Mara Bell", ""))
	found, err := s.Search(context.Background(), "Bell", SearchOptions{})
	require.NoError(t, err)
	require.Len(t, found, 1, "the index holds the new text")
	assert.Equal(t, "Mara Bell", found[0].Name)
}

func TestStoreGlobs(t *testing.T) {
	root := newProject(t, projectFiles{
		"codex/characters/mara-vell.md":     entryNamed("Mara Vell"),
		"codex/characters/ilse/index.md":    entryNamed("Ilse Dorn"),
		"codex/characters/ilse/soul.md":     "# Soul\n\nShe fears the dark.\n",
		"research/characters/old-draft.md":  entryNamed("Old Draft"),
		"research/locations/real-harbor.md": entryNamed("Real Harbor"),
	})
	ctx := context.Background()
	s := openStore(t, root, Options{Globs: []string{"codex/**/*.md"}})
	assert.Equal(t, []string{"codex/characters/ilse/index.md", "codex/characters/mara-vell.md"}, entryIDs(s.Catalog()))
	assert.Contains(t, soulOf(s, "codex/characters/ilse/index.md"), "fears the dark", "a soul goes with its entry")

	ch, _, err := s.SetGlobs(ctx, nil)
	require.NoError(t, err)
	assert.True(t, ch.Resynced)
	assert.Equal(t, 4, s.Catalog().Len(), "no globs: entries everywhere")

	ch, _, err = s.SetGlobs(ctx, []string{"research/**"})
	require.NoError(t, err)
	assert.Equal(t, []string{"research/characters/old-draft.md", "research/locations/real-harbor.md"}, entryIDs(s.Catalog()))
	assert.Contains(t, ch.Removed, "codex/characters/mara-vell.md")
	assert.Empty(t, s.Lookup("Mara Vell", ""), "the index forgot what left")

	_, _, err = s.SetGlobs(ctx, []string{"../elsewhere/*.md"})
	assert.ErrorContains(t, err, "inside the project")
	_, err = Open(ctx, root, Options{InMemory: true, Globs: []string{"  "}})
	assert.ErrorContains(t, err, "codex glob")
}

func TestCodexGlobsFromText(t *testing.T) {
	for _, tt := range []struct {
		yaml string
		want []string
		err  string
	}{
		{yaml: "title: x\n"},
		{yaml: "codex: canon/**/*.md\n", want: []string{"canon/**/*.md"}},
		{yaml: "codex: [a/**, b/*.md]\n", want: []string{"a/**", "b/*.md"}},
		{yaml: "title: x\ncodex: {a: b}\n", err: "line 2: codex must be a glob"},
		{yaml: "codex: [../x]\n", err: "line 1: codex glob"},
	} {
		got, err := GlobsFromText([]byte(tt.yaml))
		if tt.err != "" {
			assert.ErrorContains(t, err, tt.err, tt.yaml)
			continue
		}
		require.NoError(t, err)
		assert.Equal(t, tt.want, got)
	}
}

// offlineProject is the book offlineChanges change, opened once and
// closed, with its cache folder and the IDs the store then held.
func offlineProject(t *testing.T) (root, cache string, ids []string) {
	t.Helper()
	files := rankingFiles()
	files["codex/characters/crew/jory.md"] = entryNamed("Jory")
	files["codex/characters/crew/soul.md"] = "# Soul\n\nLoyal to the tide.\n"
	root = newProject(t, files)
	cache = t.TempDir()
	s := openStore(t, root, Options{CacheDir: cache})
	ids = takeSnapshot(t, s).IDs
	require.NoError(t, s.Close())
	return root, cache, ids
}

// offlineChange is a change made to a book while no store runs, and what
// the next opening must then show.
type offlineChange struct {
	name        string
	change      func(t *testing.T, root string)
	wantParsed  int // -1: not checked
	wantRemoved int
	check       func(t *testing.T, s *Store)
}

func offlineChanges() []offlineChange {
	const mara = "codex/characters/mara-vell.md"
	return []offlineChange{
		{
			name: "edited",
			change: func(t *testing.T, root string) {
				writeFile(t, root, mara, entryMD("name: Mara Quell\naliases: [Mara]", "# Mara Quell\n\nRenamed while quire slept.\n"))
			},
			wantParsed: 1,
			check: func(t *testing.T, s *Store) {
				rs := s.Lookup("Mara Quell", "")
				require.NotEmpty(t, rs)
				assert.Equal(t, mara, rs[0].RelativePath)
				assert.Equal(t, MatchName, rs[0].Match)
				assert.NotEqual(t, MatchName, firstMatch(s.Lookup("Mara Vell", "")), "the old name is gone")
				hits, err := s.Search(context.Background(), "slept", SearchOptions{})
				require.NoError(t, err)
				assert.Equal(t, []string{mara}, resultIDs(hits))
			},
		},
		{
			name: "added",
			change: func(t *testing.T, root string) {
				writeFile(t, root, "codex/characters/tobin-reed.md", entryNamed("Tobin Reed"))
			},
			wantParsed: 1,
			check: func(t *testing.T, s *Store) {
				assert.Equal(t, []string{"codex/characters/tobin-reed.md"}, resultIDs(s.Lookup("Tobin Reed", "")))
			},
		},
		{
			name:        "deleted",
			change:      func(t *testing.T, root string) { removeAll(t, root, mara) },
			wantRemoved: 1,
			check: func(t *testing.T, s *Store) {
				_, ok := s.Catalog().Get(mara)
				assert.False(t, ok)
				assert.NotContains(t, resultNames(s.Lookup("Mara Vell", "")), "Mara Vell")
				hits, err := s.Search(context.Background(), "contraband", SearchOptions{})
				require.NoError(t, err)
				assert.Empty(t, hits)
			},
		},
		{
			name:        "renamed",
			change:      func(t *testing.T, root string) { renamePath(t, root, mara, "codex/characters/mara.md") },
			wantParsed:  1,
			wantRemoved: 1,
			check: func(t *testing.T, s *Store) {
				assert.Equal(t, []string{"codex/characters/mara.md"}, resultIDs(s.Lookup("Mara Vell", "")))
			},
		},
		{
			name: "edited, added and deleted",
			change: func(t *testing.T, root string) {
				writeFile(t, root, mara, entryNamed("Mara Quell"))
				writeFile(t, root, "notes/tide.md", entryMD("type: concept\nname: Tide Debt", "x\n"))
				removeAll(t, root, "codex/items/harbor.md")
				removeAll(t, root, "manuscript/01-harbor.md")
			},
			wantParsed:  2,
			wantRemoved: 2,
			check: func(t *testing.T, s *Store) {
				assert.Equal(t, []string{mara}, resultIDs(s.Lookup("Mara Quell", "")))
				assert.Equal(t, []string{"notes/tide.md"}, resultIDs(s.Lookup("Tide Debt", "")))
				_, ok := s.Catalog().Get("codex/items/harbor.md")
				assert.False(t, ok)
			},
		},
		{
			name: "touched only",
			change: func(t *testing.T, root string) {
				later := time.Now().Add(time.Hour)
				for _, rel := range []string{mara, "codex/locations/quay.md", "manuscript/01-harbor.md"} {
					require.NoError(t, os.Chtimes(filepath.Join(root, rel), later, later))
				}
			},
			wantParsed: 0,
			check: func(t *testing.T, s *Store) {
				assert.Equal(t, []string{mara}, resultIDs(s.Lookup("Mara Vell", "")))
			},
		},
		{
			name: "rewritten with the same bytes",
			change: func(t *testing.T, root string) {
				writeFile(t, root, mara, rankingFiles()[mara])
			},
			wantParsed: 0,
		},
		{
			name: "newly ignored",
			change: func(t *testing.T, root string) {
				writeFile(t, root, ".gitignore", "codex/locations/\n")
			},
			wantRemoved: 2,
			check: func(t *testing.T, s *Store) {
				assert.Empty(t, s.List(TypeLocation))
				hits, err := s.Search(context.Background(), "quay", SearchOptions{})
				require.NoError(t, err)
				assert.Empty(t, hits, "ignored entries leave the index")
			},
		},
		{
			name: "folder became an entry folder",
			change: func(t *testing.T, root string) {
				writeFile(t, root, "codex/characters/crew/index.md", entryNamed("The Crew"))
			},
			wantParsed: -1,
			check: func(t *testing.T, s *Store) {
				ids := entryIDs(s.Catalog())
				assert.Contains(t, ids, "codex/characters/crew/index.md")
				assert.NotContains(t, ids, "codex/characters/crew/jory.md")
				crew, ok := s.Catalog().Get("codex/characters/crew/index.md")
				require.True(t, ok)
				require.NotNil(t, crew.Soul, "the soul written before the index attaches")
				assert.Contains(t, crew.Soul.Source, "Loyal to the tide")
			},
		},
	}
}

// A store opened to answer first (Options.CheckAfter) answers from the
// saved state, says its files are unchecked, and Check then brings it to
// what the book is on disk, as an Open that checked them would have.
func TestStoreCheckAfter(t *testing.T) {
	for _, tt := range offlineChanges() {
		t.Run(tt.name, func(t *testing.T) {
			root, cache, before := offlineProject(t)

			tt.change(t, root)

			s2 := openStore(t, root, Options{CacheDir: cache, CheckAfter: true})
			assert.True(t, s2.Report().Unchecked)
			assert.Equal(t, before, takeSnapshot(t, s2).IDs, "the opening answers from the saved state")
			ch, stats, err := s2.Check(context.Background())
			require.NoError(t, err)
			if tt.wantParsed >= 0 {
				assert.Equal(t, tt.wantParsed, stats.Parsed, "parsed")
			}
			assert.Equal(t, tt.wantRemoved, stats.Removed, "removed")
			assert.Equal(t, stats.Parsed+stats.Removed > 0, len(ch.Updated)+len(ch.Removed) > 0, "the change says what changed")
			if tt.check != nil {
				tt.check(t, s2)
			}
			fresh := openStore(t, root, Options{InMemory: true})
			assert.Equal(t, takeSnapshot(t, fresh).IDs, takeSnapshot(t, s2).IDs)
		})
	}
}
