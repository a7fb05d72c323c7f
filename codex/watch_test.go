package codex

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// watchFiles is the project every watcher test starts from.
func watchFiles() projectFiles {
	return projectFiles{
		"codex/characters/mara-vell.md": entryMD("name: Mara Vell\naliases: [Mara]",
			"# Mara Vell\n\nMara runs contraband through the fog.\n"),
		"codex/locations/harbor.md":           entryNamed("Harbor"),
		"codex/characters/ilse-dorn/index.md": entryMD("name: Ilse Dorn", "# Ilse Dorn\n\nKeeps the light.\n"),
		"codex/characters/ilse-dorn/soul.md":  "# Soul\n\nShe fears still water.\n",
		"manuscript/01-harbor.md":             "# The Harbor\n\nMara walked the quay.\n",
	}
}

var watchBaseIDs = []string{
	"codex/characters/ilse-dorn/index.md",
	"codex/characters/mara-vell.md",
	"codex/locations/harbor.md",
}

// watchedStore opens a store on a new project and starts its watcher.
func watchedStore(t *testing.T, files projectFiles, opts Options) (*Store, *watchRecorder) {
	t.Helper()
	if opts.Debounce == 0 {
		opts.Debounce = 20 * time.Millisecond
	}
	s := openStore(t, newProject(t, files), opts)
	return s, startWatch(t, s)
}

// waitIDs waits until the catalog holds exactly want.
func waitIDs(t *testing.T, s *Store, msg string, want []string) {
	t.Helper()
	eventually(t, msg, func(c *assert.CollectT) {
		assert.ElementsMatch(c, want, entryIDs(s.Catalog()))
	})
}

// waitName waits until the entry id is named name.
func waitName(t *testing.T, s *Store, id, name string) {
	t.Helper()
	eventually(t, fmt.Sprintf("%s is never named %q", id, name), func(c *assert.CollectT) {
		e, ok := s.Catalog().Get(id)
		if assert.True(c, ok, "%s is missing", id) {
			assert.Equal(c, name, e.Name)
		}
	})
}

func TestWatchFileLifecycle(t *testing.T) {
	for _, inMemory := range []bool{true, false} {
		t.Run(fmt.Sprintf("in memory %v", inMemory), func(t *testing.T) {
			s, w := watchedStore(t, watchFiles(), Options{InMemory: inMemory})
			root := s.Root()
			const tobin = "codex/characters/tobin-reed.md"

			// Create.
			writeFile(t, root, tobin, entryMD("name: Tobin Reed", "# Tobin Reed\n\nA deckhand who hums.\n"))
			waitIDs(t, s, "a new file becomes an entry", append([]string{tobin}, watchBaseIDs...))
			eventually(t, "onChange reports the new entry", func(c *assert.CollectT) {
				assert.Contains(c, w.updated(), tobin)
			})
			for _, ch := range w.all() {
				require.NotNil(t, ch.Catalog, "a change carries its catalog")
			}
			assert.Equal(t, []string{tobin}, resultIDs(s.Lookup("Tobin Reed", "")))

			// Edit: the new name is visible to lookup and search.
			w.reset()
			writeFile(t, root, tobin, entryMD("name: Tobias Reed\naliases: [Toby]", "# Tobias Reed\n\nA deckhand who whistles.\n"))
			waitName(t, s, tobin, "Tobias Reed")
			rs := s.Lookup("Tobias Reed", "")
			require.NotEmpty(t, rs)
			assert.Equal(t, tobin, rs[0].RelativePath)
			assert.Equal(t, MatchName, rs[0].Match)
			assert.Equal(t, []string{tobin}, resultIDs(s.Lookup("Toby", "")))
			assert.Equal(t, MatchStem, firstMatch(s.Lookup("Tobin Reed", "")), "the old name lives on only as the file stem")
			eventually(t, "search sees the edit", func(c *assert.CollectT) {
				hits, err := s.Search(context.Background(), "whistles", SearchOptions{})
				assert.NoError(c, err)
				assert.Equal(c, []string{tobin}, resultIDs(hits))
				hits, err = s.Search(context.Background(), "hums", SearchOptions{})
				assert.NoError(c, err)
				assert.Empty(c, hits, "the old text is no longer indexed")
			})
			// The store publishes the edit before it tells onChange, so
			// a search can see it first.
			eventually(t, "onChange reports the edit", func(c *assert.CollectT) {
				assert.Contains(c, w.updated(), tobin)
			})
			assert.NotContains(t, w.removed(), tobin)

			// Delete.
			w.reset()
			removeAll(t, root, tobin)
			waitIDs(t, s, "a deleted file leaves the catalog", watchBaseIDs)
			eventually(t, "onChange reports the removal", func(c *assert.CollectT) {
				assert.Contains(c, w.removed(), tobin)
			})
			assert.Empty(t, s.Lookup("Tobias Reed", ""))
			hits, err := s.Search(context.Background(), "whistles", SearchOptions{})
			require.NoError(t, err)
			assert.Empty(t, hits)

			// Files that are not entries come and go without a change.
			w.reset()
			writeFile(t, root, "manuscript/02-storm.md", "# Storm\n\nRain.\n")
			writeFile(t, root, "codex/characters/notes.txt", "not markdown")
			writeFile(t, root, "codex/characters/zz-marker.md", entryNamed("Marker"))
			waitIDs(t, s, "the marker arrives", append([]string{"codex/characters/zz-marker.md"}, watchBaseIDs...))
			for _, ch := range w.all() {
				assert.NotContains(t, ch.Updated, "manuscript/02-storm.md")
				assert.NotContains(t, ch.Updated, "codex/characters/notes.txt")
			}
		})
	}
}

// TestWatchCatchesUpOnStart writes files between Open and Watch.
func TestWatchCatchesUpOnStart(t *testing.T) {
	s := openStore(t, newProject(t, watchFiles()), Options{InMemory: true, Debounce: 20 * time.Millisecond})
	writeFile(t, s.Root(), "codex/items/compass.md", entryNamed("Compass"))
	removeAll(t, s.Root(), "codex/locations/harbor.md")
	startWatch(t, s)
	assert.ElementsMatch(t, []string{
		"codex/characters/ilse-dorn/index.md",
		"codex/characters/mara-vell.md",
		"codex/items/compass.md",
	}, entryIDs(s.Catalog()))
}

func TestWatchEditorSaves(t *testing.T) {
	const mara = "codex/characters/mara-vell.md"
	newText := entryMD("name: Mara Quell\naliases: [Mara]", "# Mara Quell\n\nMara now sails under a false name.\n")
	tests := []struct {
		name string
		save func(t *testing.T, root string)
	}{
		{"in place", func(t *testing.T, root string) {
			writeFile(t, root, mara, newText)
		}},
		{"truncate then write", func(t *testing.T, root string) {
			f, err := os.OpenFile(filepath.Join(root, mara), os.O_WRONLY|os.O_TRUNC, 0)
			require.NoError(t, err)
			require.NoError(t, f.Sync())
			_, err = f.WriteString(newText)
			require.NoError(t, err)
			require.NoError(t, f.Close())
		}},
		{"atomic rename of a hidden temp file", func(t *testing.T, root string) {
			writeFile(t, root, "codex/characters/.mara-vell.md.tmp", newText)
			renamePath(t, root, "codex/characters/.mara-vell.md.tmp", mara)
		}},
		{"atomic rename of a temp file with another extension", func(t *testing.T, root string) {
			writeFile(t, root, "codex/characters/mara-vell.md.tmp.4821", newText)
			renamePath(t, root, "codex/characters/mara-vell.md.tmp.4821", mara)
		}},
		{"atomic rename from a temp folder", func(t *testing.T, root string) {
			writeFile(t, root, ".quire-tmp/mara-vell.md", newText)
			renamePath(t, root, ".quire-tmp/mara-vell.md", mara)
		}},
		{"vim backup then write", func(t *testing.T, root string) {
			renamePath(t, root, mara, mara+"~")
			writeFile(t, root, mara, newText)
			removeAll(t, root, mara+"~")
		}},
		{"delete then write", func(t *testing.T, root string) {
			removeAll(t, root, mara)
			writeFile(t, root, mara, newText)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := watchedStore(t, watchFiles(), Options{InMemory: true})
			tt.save(t, s.Root())
			waitName(t, s, mara, "Mara Quell")
			assert.ElementsMatch(t, watchBaseIDs, entryIDs(s.Catalog()), "no temporary or backup file became an entry")
			assert.Equal(t, []string{mara}, resultIDs(s.Lookup("Mara Quell", "")))
			eventually(t, "search sees the saved text", func(c *assert.CollectT) {
				hits, err := s.Search(context.Background(), "false name", SearchOptions{})
				assert.NoError(c, err)
				assert.Equal(c, []string{mara}, resultIDs(hits))
			})
		})
	}
}

func TestWatchFolders(t *testing.T) {
	base := watchFiles()
	base["codex/locations/harbor-district/pier.md"] = entryNamed("Pier")
	base["codex/locations/harbor-district/berth.md"] = entryNamed("Berth")
	base["codex/locations/harbor-district/deep/hold.md"] = entryNamed("Hold")
	base["world/north/glacier.md"] = entryMD("type: location\nname: Glacier", "x\n")
	base["world/north/far/tundra.md"] = entryMD("type: location\nname: Tundra", "x\n")
	baseIDs := slicesConcat(watchBaseIDs,
		"codex/locations/harbor-district/berth.md",
		"codex/locations/harbor-district/deep/hold.md",
		"codex/locations/harbor-district/pier.md",
		"world/north/far/tundra.md",
		"world/north/glacier.md",
	)
	district := []string{
		"codex/locations/harbor-district/berth.md",
		"codex/locations/harbor-district/deep/hold.md",
		"codex/locations/harbor-district/pier.md",
	}

	tests := []struct {
		name   string
		change func(t *testing.T, root, outside string)
		want   []string
		// then writes more files once want is reached, into folders the
		// change created, to prove they are watched; thenWant is the
		// catalog after that.
		then     func(t *testing.T, root string)
		thenWant []string
		check    func(t *testing.T, s *Store)
	}{
		{
			name: "new folder with files right away",
			change: func(t *testing.T, root, _ string) {
				require.NoError(t, os.Mkdir(filepath.Join(root, "codex/items"), 0o755))
				writeFile(t, root, "codex/items/compass.md", entryNamed("Compass"))
				writeFile(t, root, "codex/items/lantern.md", entryNamed("Lantern"))
			},
			want: slicesConcat(baseIDs, "codex/items/compass.md", "codex/items/lantern.md"),
			then: func(t *testing.T, root string) {
				writeFile(t, root, "codex/items/rope.md", entryNamed("Rope"))
			},
			thenWant: slicesConcat(baseIDs, "codex/items/compass.md", "codex/items/lantern.md", "codex/items/rope.md"),
		},
		{
			name: "nested folders made at once",
			change: func(t *testing.T, root, _ string) {
				require.NoError(t, os.MkdirAll(filepath.Join(root, "codex/events/war/battles/naval"), 0o755))
				writeFile(t, root, "codex/events/war/battles/naval/first.md", entryNamed("First Battle"))
				writeFile(t, root, "codex/events/war/treaty.md", entryNamed("Treaty"))
			},
			want: slicesConcat(baseIDs, "codex/events/war/battles/naval/first.md", "codex/events/war/treaty.md"),
			then: func(t *testing.T, root string) {
				writeFile(t, root, "codex/events/war/battles/naval/second.md", entryNamed("Second Battle"))
				writeFile(t, root, "codex/events/war/battles/siege.md", entryNamed("Siege"))
			},
			thenWant: slicesConcat(baseIDs, "codex/events/war/battles/naval/first.md", "codex/events/war/treaty.md",
				"codex/events/war/battles/naval/second.md", "codex/events/war/battles/siege.md"),
		},
		{
			name: "folder renamed inside a type folder",
			change: func(t *testing.T, root, _ string) {
				renamePath(t, root, "codex/locations/harbor-district", "codex/locations/docks")
			},
			want: slicesConcat(withoutIDs(baseIDs, district...),
				"codex/locations/docks/berth.md", "codex/locations/docks/deep/hold.md", "codex/locations/docks/pier.md"),
			then: func(t *testing.T, root string) {
				writeFile(t, root, "codex/locations/docks/deep/cellar.md", entryNamed("Cellar"))
				writeFile(t, root, "codex/locations/docks/crane.md", entryNamed("Crane"))
			},
			thenWant: slicesConcat(withoutIDs(baseIDs, district...),
				"codex/locations/docks/berth.md", "codex/locations/docks/deep/hold.md", "codex/locations/docks/pier.md",
				"codex/locations/docks/deep/cellar.md", "codex/locations/docks/crane.md"),
		},
		{
			name: "folder tree renamed outside type folders",
			change: func(t *testing.T, root, _ string) {
				renamePath(t, root, "world", "atlas")
			},
			want: slicesConcat(withoutIDs(baseIDs, "world/north/far/tundra.md", "world/north/glacier.md"),
				"atlas/north/far/tundra.md", "atlas/north/glacier.md"),
			then: func(t *testing.T, root string) {
				writeFile(t, root, "atlas/north/far/ice.md", entryMD("type: location\nname: Ice", "x\n"))
			},
			thenWant: slicesConcat(withoutIDs(baseIDs, "world/north/far/tundra.md", "world/north/glacier.md"),
				"atlas/north/far/tundra.md", "atlas/north/glacier.md", "atlas/north/far/ice.md"),
		},
		{
			name: "folder moved into a type folder",
			change: func(t *testing.T, root, _ string) {
				writeFile(t, root, "drafts/crew/jory.md", "# Jory\n")
				renamePath(t, root, "drafts/crew", "codex/characters/crew")
			},
			want: slicesConcat(baseIDs, "codex/characters/crew/jory.md"),
		},
		{
			name: "folder tree deleted",
			change: func(t *testing.T, root, _ string) {
				removeAll(t, root, "codex/locations")
			},
			want: withoutIDs(baseIDs, append([]string{"codex/locations/harbor.md"}, district...)...),
			then: func(t *testing.T, root string) {
				writeFile(t, root, "codex/locations/harbor.md", entryNamed("Harbor Again"))
			},
			thenWant: withoutIDs(baseIDs, district...),
		},
		{
			name: "folder deleted and made again at once",
			change: func(t *testing.T, root, _ string) {
				removeAll(t, root, "codex/locations")
				writeFile(t, root, "codex/locations/lighthouse.md", entryNamed("Lighthouse"))
			},
			want: slicesConcat(withoutIDs(baseIDs, append([]string{"codex/locations/harbor.md"}, district...)...),
				"codex/locations/lighthouse.md"),
			then: func(t *testing.T, root string) {
				writeFile(t, root, "codex/locations/cliffs/north.md", entryNamed("North Cliffs"))
				writeFile(t, root, "codex/locations/reef.md", entryNamed("Reef"))
			},
			thenWant: slicesConcat(withoutIDs(baseIDs, append([]string{"codex/locations/harbor.md"}, district...)...),
				"codex/locations/lighthouse.md", "codex/locations/cliffs/north.md", "codex/locations/reef.md"),
		},
		{
			name: "folder renamed twice at once",
			change: func(t *testing.T, root, _ string) {
				renamePath(t, root, "codex/locations/harbor-district", "codex/locations/docks")
				renamePath(t, root, "codex/locations/docks", "codex/locations/wharf")
			},
			want: slicesConcat(withoutIDs(baseIDs, district...),
				"codex/locations/wharf/berth.md", "codex/locations/wharf/deep/hold.md", "codex/locations/wharf/pier.md"),
			then: func(t *testing.T, root string) {
				writeFile(t, root, "codex/locations/wharf/deep/cellar.md", entryNamed("Cellar"))
			},
			thenWant: slicesConcat(withoutIDs(baseIDs, district...),
				"codex/locations/wharf/berth.md", "codex/locations/wharf/deep/hold.md", "codex/locations/wharf/pier.md",
				"codex/locations/wharf/deep/cellar.md"),
		},
		{
			name: "type folder renamed to a plain folder",
			change: func(t *testing.T, root, _ string) {
				renamePath(t, root, "codex/characters", "codex/people")
			},
			want: withoutIDs(baseIDs, "codex/characters/ilse-dorn/index.md", "codex/characters/mara-vell.md"),
			then: func(t *testing.T, root string) {
				renamePath(t, root, "codex/people", "codex/character")
			},
			thenWant: slicesConcat(withoutIDs(baseIDs, "codex/characters/ilse-dorn/index.md", "codex/characters/mara-vell.md"),
				"codex/character/ilse-dorn/index.md", "codex/character/mara-vell.md"),
		},
		{
			name: "file moved to another type folder",
			change: func(t *testing.T, root, _ string) {
				renamePath(t, root, "codex/locations/harbor-district/pier.md", "codex/items/pier.md")
			},
			want: slicesConcat(withoutIDs(baseIDs, "codex/locations/harbor-district/pier.md"), "codex/items/pier.md"),
			check: func(t *testing.T, s *Store) {
				e, ok := s.Catalog().Get("codex/items/pier.md")
				require.True(t, ok)
				assert.Equal(t, TypeItem, e.Type, "the new folder decides the type")
			},
		},
		{
			name: "folder moved in from outside",
			change: func(t *testing.T, root, outside string) {
				writeFile(t, outside, "bestiary/krakens/old-one.md", entryMD("type: creature\nname: Old One", "x\n"))
				writeFile(t, outside, "bestiary/gulls.md", entryMD("type: creature\nname: Gulls", "x\n"))
				require.NoError(t, os.Rename(filepath.Join(outside, "bestiary"), filepath.Join(root, "codex/bestiary")))
			},
			want: slicesConcat(baseIDs, "codex/bestiary/gulls.md", "codex/bestiary/krakens/old-one.md"),
			then: func(t *testing.T, root string) {
				writeFile(t, root, "codex/bestiary/krakens/young-one.md", entryMD("type: creature\nname: Young One", "x\n"))
			},
			thenWant: slicesConcat(baseIDs, "codex/bestiary/gulls.md", "codex/bestiary/krakens/old-one.md",
				"codex/bestiary/krakens/young-one.md"),
		},
		{
			name: "folder moved out of the project",
			change: func(t *testing.T, root, outside string) {
				require.NoError(t, os.Rename(filepath.Join(root, "codex/locations/harbor-district"), filepath.Join(outside, "gone")))
			},
			want: withoutIDs(baseIDs, district...),
			then: func(t *testing.T, root string) {
				writeFile(t, root, "codex/locations/harbor-district/new-pier.md", entryNamed("New Pier"))
			},
			thenWant: slicesConcat(withoutIDs(baseIDs, district...), "codex/locations/harbor-district/new-pier.md"),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, w := watchedStore(t, base, Options{InMemory: true})
			require.ElementsMatch(t, baseIDs, entryIDs(s.Catalog()))
			outside := t.TempDir()
			tt.change(t, s.Root(), outside)
			waitIDs(t, s, "the catalog follows the folder change", tt.want)

			added, removed := idDiff(baseIDs, tt.want)
			eventually(t, "onChange reports the folder change", func(c *assert.CollectT) {
				assert.Subset(c, w.updated(), added)
				assert.Subset(c, w.removed(), removed)
			})
			if tt.then != nil {
				tt.then(t, s.Root())
				waitIDs(t, s, "files written after the change are seen", tt.thenWant)
			}
			if tt.check != nil {
				tt.check(t, s)
			}
		})
	}
}

// idDiff lists what is in b but not a, and in a but not b.
func idDiff(a, b []string) (added, removed []string) {
	for _, id := range b {
		if !slices.Contains(a, id) {
			added = append(added, id)
		}
	}
	for _, id := range a {
		if !slices.Contains(b, id) {
			removed = append(removed, id)
		}
	}
	return added, removed
}

// TestWatchEntryFolder turns a folder into an entry folder and back, and
// edits the soul.
func TestWatchEntryFolder(t *testing.T) {
	const (
		index = "codex/characters/oskar/index.md"
		soul  = "codex/characters/oskar/soul.md"
		notes = "codex/characters/oskar/notes.md"
	)
	files := watchFiles()
	files[soul] = "# Soul\n\nHe counts every coin twice.\n"
	files[notes] = "# Notes\n\nScraps about Oskar.\n"
	s, w := watchedStore(t, files, Options{InMemory: true})
	require.ElementsMatch(t, slicesConcat(watchBaseIDs, notes, soul), entryIDs(s.Catalog()),
		"without index.md every file below characters/ is a character")

	// index.md arrives: the folder is one entry, soul.md its soul.
	writeFile(t, s.Root(), index, entryMD("name: Oskar Brand", "# Oskar Brand\n\nThe purser.\n"))
	waitIDs(t, s, "index.md makes the folder one entry", slicesConcat(watchBaseIDs, index))
	oskar, ok := s.Catalog().Get(index)
	require.True(t, ok)
	require.NotNil(t, oskar.Soul, "soul.md attaches to the new entry")
	assert.Equal(t, soul, oskar.Soul.ID)
	assert.Contains(t, oskar.Soul.Source, "every coin twice")
	eventually(t, "onChange reports the folder's new shape", func(c *assert.CollectT) {
		assert.Contains(c, w.updated(), index)
		assert.Subset(c, w.removed(), []string{notes, soul})
	})

	// The soul changes: the owner's Soul, lookup and search follow.
	w.reset()
	writeFile(t, s.Root(), soul, "# Soul\n\nHe dreams of drowned ledgers.\n")
	eventually(t, "the soul edit reaches the entry", func(c *assert.CollectT) {
		e, ok := s.Catalog().Get(index)
		if assert.True(c, ok) && assert.NotNil(c, e.Soul) {
			assert.Contains(c, e.Soul.Source, "drowned ledgers")
		}
	})
	rs := s.Lookup("Oskar Brand", "")
	require.NotEmpty(t, rs)
	assert.Contains(t, rs[0].SoulExcerpt, "drowned ledgers")
	eventually(t, "search sees the soul edit", func(c *assert.CollectT) {
		hits, err := s.Search(context.Background(), "ledgers", SearchOptions{})
		assert.NoError(c, err)
		assert.Equal(c, []string{index}, resultIDs(hits))
		hits, err = s.Search(context.Background(), "coin", SearchOptions{})
		assert.NoError(c, err)
		assert.Empty(c, hits)
	})
	eventually(t, "onChange reports the owner of the soul", func(c *assert.CollectT) {
		assert.Contains(c, w.updated(), index)
	})

	// The soul goes: the entry stays without one.
	removeAll(t, s.Root(), soul)
	eventually(t, "a deleted soul detaches", func(c *assert.CollectT) {
		e, ok := s.Catalog().Get(index)
		if assert.True(c, ok) {
			assert.Nil(c, e.Soul)
		}
	})

	// index.md goes: the notes are characters again.
	removeAll(t, s.Root(), index)
	waitIDs(t, s, "without index.md the notes are entries again", slicesConcat(watchBaseIDs, notes))
}

func TestWatchGitignore(t *testing.T) {
	files := watchFiles()
	files["codex/locations/docks/pier.md"] = entryNamed("Pier")
	s, _ := watchedStore(t, files, Options{InMemory: true})
	root := s.Root()
	all := slicesConcat(watchBaseIDs, "codex/locations/docks/pier.md")
	require.ElementsMatch(t, all, entryIDs(s.Catalog()))

	writeFile(t, root, ".gitignore", "codex/locations/\n")
	waitIDs(t, s, "an ignored folder's entries leave", withoutIDs(all, "codex/locations/harbor.md", "codex/locations/docks/pier.md"))

	writeFile(t, root, "codex/locations/lighthouse.md", entryNamed("Lighthouse"))
	writeFile(t, root, "codex/characters/zz-marker.md", entryNamed("Marker"))
	waitIDs(t, s, "new files in an ignored folder stay out",
		slicesConcat(withoutIDs(all, "codex/locations/harbor.md", "codex/locations/docks/pier.md"), "codex/characters/zz-marker.md"))

	writeFile(t, root, ".gitignore", "*.md\n!codex/**/*.md\n")
	waitIDs(t, s, "a changed pattern brings the folder back",
		slicesConcat(all, "codex/locations/lighthouse.md", "codex/characters/zz-marker.md"))

	writeFile(t, root, "codex/locations/docks/crane.md", entryNamed("Crane"))
	waitIDs(t, s, "the folder is watched again",
		slicesConcat(all, "codex/locations/lighthouse.md", "codex/characters/zz-marker.md", "codex/locations/docks/crane.md"))

	removeAll(t, root, ".gitignore")
	writeFile(t, root, "notes/lore.md", entryMD("type: concept\nname: Lore", "x\n"))
	waitIDs(t, s, "without .gitignore nothing is ignored",
		slicesConcat(all, "codex/locations/lighthouse.md", "codex/characters/zz-marker.md", "codex/locations/docks/crane.md", "notes/lore.md"))
}

func TestWatchBurst(t *testing.T) {
	s, w := watchedStore(t, watchFiles(), Options{InMemory: true})
	root := s.Root()

	// Readers run throughout, as hover and search do beside the watcher.
	ctx, cancel := context.WithCancel(context.Background())
	var readers sync.WaitGroup
	for range 2 {
		readers.Go(func() {
			for ctx.Err() == nil {
				s.Lookup("Item 001", "")
				s.List(TypeItem)
				_, _ = s.Search(ctx, "item", SearchOptions{Type: TypeItem})
				s.Catalog().Problems()
				time.Sleep(time.Millisecond)
			}
		})
	}
	defer readers.Wait()
	defer cancel()

	const n = 200
	id := func(i int) string { return fmt.Sprintf("codex/items/item-%03d.md", i) }
	for i := range n {
		writeFile(t, root, id(i), entryNamed(fmt.Sprintf("Item %03d", i)))
	}
	// Within the same burst: rename some by content, delete others.
	for i := range 50 {
		writeFile(t, root, id(i), entryNamed(fmt.Sprintf("Renamed %03d", i)))
	}
	for i := n - 30; i < n; i++ {
		removeAll(t, root, id(i))
	}

	want := append([]string(nil), watchBaseIDs...)
	for i := range n - 30 {
		want = append(want, id(i))
	}
	waitIDs(t, s, "the burst settles into the final catalog", want)
	eventually(t, "every name is the last one written", func(c *assert.CollectT) {
		for i := range n - 30 {
			e, ok := s.Catalog().Get(id(i))
			if !assert.True(c, ok) {
				return
			}
			wantName := fmt.Sprintf("Item %03d", i)
			if i < 50 {
				wantName = fmt.Sprintf("Renamed %03d", i)
			}
			assert.Equal(c, wantName, e.Name)
		}
	})
	hits, err := s.Search(context.Background(), "Renamed", SearchOptions{Type: TypeItem, Limit: MaxSearchResults})
	require.NoError(t, err)
	assert.Len(t, hits, MaxSearchResults)
	assert.Len(t, s.List(TypeItem), n-30)
	eventually(t, "onChange reported every surviving item", func(c *assert.CollectT) {
		assert.Subset(c, w.updated(), want[len(watchBaseIDs):])
	})

	// A full sync finds nothing the watcher missed.
	stats, err := s.Sync(context.Background())
	require.NoError(t, err)
	assert.Zero(t, stats.Parsed, "the watcher left files unread")
	assert.Zero(t, stats.Removed, "the watcher left deleted files behind")
}

// TestWatchChangesPersist checks that what the watcher applied is saved:
// the next open is warm and shows the changes.
func TestWatchChangesPersist(t *testing.T) {
	root := newProject(t, watchFiles())
	cache := t.TempDir()
	s := openStore(t, root, Options{CacheDir: cache, Debounce: 20 * time.Millisecond, SaveDelay: 20 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	w := &watchRecorder{}
	done := make(chan error, 1)
	go func() { done <- s.Watch(ctx, w.record) }()
	stopped := false
	stop := func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		select {
		case err := <-done:
			assert.NoError(t, err)
		case <-time.After(waitFor):
			t.Error("Watch did not return after its context ended")
		}
	}
	t.Cleanup(stop)

	writeFile(t, root, "codex/items/compass.md", entryNamed("Compass"))
	writeFile(t, root, "codex/characters/mara-vell.md", entryNamed("Mara Quell"))
	removeAll(t, root, "codex/locations/harbor.md")
	writeFile(t, root, "codex/characters/ilse-dorn/soul.md", "# Soul\n\nShe hums to the tide.\n")
	want := []string{"codex/characters/ilse-dorn/index.md", "codex/characters/mara-vell.md", "codex/items/compass.md"}
	waitIDs(t, s, "the watcher applies the changes", want)
	waitName(t, s, "codex/characters/mara-vell.md", "Mara Quell")
	eventually(t, "the soul edit arrives", func(c *assert.CollectT) {
		e, ok := s.Catalog().Get("codex/characters/ilse-dorn/index.md")
		if assert.True(c, ok) && assert.NotNil(c, e.Soul) {
			assert.Contains(c, e.Soul.Source, "hums to the tide")
		}
	})
	before := takeSnapshot(t, s)
	stop()
	require.NoError(t, s.Close())

	s2 := reopen(t, root, cache)
	r := s2.Report()
	assert.False(t, r.Rebuilt, "reason: %s", r.Reason)
	assert.Zero(t, r.Parsed, "the watcher's changes were saved")
	assert.Zero(t, r.Removed)
	assert.Equal(t, before, takeSnapshot(t, s2))
}

// TestWatchStopsOnClosedStore closes the store under a running watcher.
func TestWatchStopsOnClosedStore(t *testing.T) {
	s := openStore(t, newProject(t, watchFiles()), Options{InMemory: true, Debounce: 20 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	done := make(chan error, 1)
	go func() { done <- s.Watch(ctx, nil) }()
	writeFile(t, s.Root(), "codex/items/compass.md", entryNamed("Compass"))
	eventually(t, "the watcher runs", func(c *assert.CollectT) {
		_, ok := s.Catalog().Get("codex/items/compass.md")
		assert.True(c, ok)
	})
	require.NoError(t, s.Close())
	writeFile(t, s.Root(), "codex/items/rope.md", entryNamed("Rope"))
	select {
	case err := <-done:
		assert.NoError(t, err)
	case <-time.After(waitFor):
		t.Fatal("Watch kept running after the store closed and a change arrived")
	}
}

// TestWatchSymlinks changes linked files and folders while watching.
// Links inside the project are followed; links out of it never are.
func TestWatchSymlinks(t *testing.T) {
	base := projectFiles{
		"codex/characters/mara-vell.md": entryNamed("Mara Vell"),
		"shared/port.md":                "# Port Vell\n\nA port.\n",
		"people/jory.md":                "# Jory\n",
		"people/crew-list.md":           entryMD("type: item\nname: Crew List", "x\n"),
	}
	link := func(t *testing.T, root string) {
		symlink(t, "../../shared/port.md", root, "codex/locations/port-vell.md")
		symlink(t, "../../people", root, "codex/characters/crew")
	}
	// Every path is its own file, as with `find -L`: people/crew-list.md
	// says `type: item`, so it is an entry under its own path and again
	// through the link (and the catalog reports the duplicate name).
	baseIDs := []string{
		"codex/characters/crew/crew-list.md",
		"codex/characters/crew/jory.md",
		"codex/characters/mara-vell.md",
		"codex/locations/port-vell.md",
		"people/crew-list.md",
	}
	tests := []struct {
		name   string
		change func(t *testing.T, root, outside string)
		check  func(c *assert.CollectT, s *Store)
	}{
		{
			name: "a new file in a linked folder",
			change: func(t *testing.T, root, _ string) {
				writeFile(t, root, "people/tobin.md", "# Tobin\n")
			},
			check: func(c *assert.CollectT, s *Store) {
				assert.ElementsMatch(c, slicesConcat(baseIDs, "codex/characters/crew/tobin.md"), entryIDs(s.Catalog()))
			},
		},
		{
			name: "an edit through a linked folder",
			change: func(t *testing.T, root, _ string) {
				writeFile(t, root, "people/jory.md", "# Jory Vane\n")
			},
			check: func(c *assert.CollectT, s *Store) {
				e, ok := s.Catalog().Get("codex/characters/crew/jory.md")
				if assert.True(c, ok) {
					assert.Equal(c, "Jory Vane", e.Name)
				}
			},
		},
		{
			name: "a new link to a folder inside",
			change: func(t *testing.T, root, _ string) {
				writeFile(t, root, "lore/storms.md", "# Storms\n")
				symlink(t, "../../lore", root, "codex/concepts/lore")
			},
			check: func(c *assert.CollectT, s *Store) {
				assert.ElementsMatch(c, slicesConcat(baseIDs, "codex/concepts/lore/storms.md"), entryIDs(s.Catalog()))
			},
		},
		{
			name: "a new link to a folder outside",
			change: func(t *testing.T, root, outside string) {
				writeFile(t, outside, "mob/a.md", entryNamed("Mob A"))
				writeFile(t, outside, "mob/b.md", entryMD("type: item\nname: Mob B", "x\n"))
				symlink(t, filepath.Join(outside, "mob"), root, "codex/characters/mob")
				symlink(t, filepath.Join(outside, "mob", "a.md"), root, "codex/characters/mob-a.md")
				writeFile(t, root, "codex/characters/zz-marker.md", entryNamed("Marker"))
			},
			check: func(c *assert.CollectT, s *Store) {
				assert.ElementsMatch(c, slicesConcat(baseIDs, "codex/characters/zz-marker.md"), entryIDs(s.Catalog()))
			},
		},
		{
			name: "an edit of a linked file's target",
			change: func(t *testing.T, root, _ string) {
				writeFile(t, root, "shared/port.md", "# Port Quell\n\nRenamed at the source.\n")
			},
			check: func(c *assert.CollectT, s *Store) {
				e, ok := s.Catalog().Get("codex/locations/port-vell.md")
				if assert.True(c, ok) {
					assert.Equal(c, "Port Quell", e.Name)
				}
			},
		},
		{
			name: "a link to a folder removed",
			change: func(t *testing.T, root, _ string) {
				removeAll(t, root, "codex/characters/crew")
				// The folder the link led to is still watched in its own right.
				time.Sleep(100 * time.Millisecond)
				writeFile(t, root, "people/crew-list.md", entryMD("type: item\nname: Crew Roll", "x\n"))
			},
			check: func(c *assert.CollectT, s *Store) {
				assert.ElementsMatch(c, []string{
					"codex/characters/mara-vell.md",
					"codex/locations/port-vell.md",
					"people/crew-list.md",
				}, entryIDs(s.Catalog()))
				e, ok := s.Catalog().Get("people/crew-list.md")
				if assert.True(c, ok) {
					assert.Equal(c, "Crew Roll", e.Name)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := newProject(t, base)
			link(t, root)
			s := openStore(t, root, Options{InMemory: true, Debounce: 20 * time.Millisecond})
			require.ElementsMatch(t, baseIDs, entryIDs(s.Catalog()))
			startWatch(t, s)
			tt.change(t, root, t.TempDir())
			eventually(t, "the watcher follows the change", func(c *assert.CollectT) { tt.check(c, s) })

			// What the watcher shows is what a full walk finds.
			want := entryIDs(s.Catalog())
			_, err := s.Sync(context.Background())
			require.NoError(t, err)
			assert.Equal(t, want, entryIDs(s.Catalog()), "a full sync disagrees with the watcher")
		})
	}
}
