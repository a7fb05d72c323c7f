package codex

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDiscoverEntries checks which files of a project become entries,
// end to end through an in-memory store.
func TestDiscoverEntries(t *testing.T) {
	tests := []struct {
		name  string
		files projectFiles
		// setup adds what a files map cannot hold (symlinks); outside is a
		// folder beside the project.
		setup func(t *testing.T, root, outside string)
		want  map[string]Type
	}{
		{
			name: "type folders singular and plural",
			files: projectFiles{
				"codex/characters/mara-vell.md":    entryNamed("Mara Vell"),
				"codex/character/tobin-reed.md":    entryNamed("Tobin Reed"),
				"codex/places/lantern-quay.md":     entryNamed("Lantern Quay"),
				"codex/locations/salt-market.md":   entryNamed("Salt Market"),
				"codex/organisations/greyhand.md":  entryNamed("Greyhand Company"),
				"codex/items/brass-compass.md":     entryNamed("Brass Compass"),
				"codex/concept/tide-debt.md":       entryNamed("Tide Debt"),
				"codex/events/the-drowning.md":     entryNamed("The Drowning"),
				"codex/style/no-adverbs.md":        entryNamed("No Adverbs"),
				"codex/characters/crew/jory.md":    entryNamed("Jory"), // below a type folder
				"codex/characters/plain-notes.md":  "Just a line, no front matter.\n",
				"codex/locations/nested/deep/x.md": "# Deep Place\n",
			},
			want: map[string]Type{
				"codex/characters/mara-vell.md":    TypeCharacter,
				"codex/character/tobin-reed.md":    TypeCharacter,
				"codex/places/lantern-quay.md":     TypeLocation,
				"codex/locations/salt-market.md":   TypeLocation,
				"codex/organisations/greyhand.md":  TypeOrganization,
				"codex/items/brass-compass.md":     TypeItem,
				"codex/concept/tide-debt.md":       TypeConcept,
				"codex/events/the-drowning.md":     TypeEvent,
				"codex/style/no-adverbs.md":        TypeStyle,
				"codex/characters/crew/jory.md":    TypeCharacter,
				"codex/characters/plain-notes.md":  TypeCharacter,
				"codex/locations/nested/deep/x.md": TypeLocation,
			},
		},
		{
			name: "type key anywhere, prose elsewhere",
			files: projectFiles{
				"notes/storm-lore.md":       entryMD("type: concept\nname: Storm Lore", "Storms owe debts.\n"),
				"notes/ferry.md":            entryMD("type: Locations\nname: The Ferry", "A ferry.\n"),
				"ideas.md":                  entryMD("type: item\nname: Glass Eye", "An eye.\n"),
				"notes/ideas.md":            "# Ideas\n\nWrite chapter three.\n",
				"notes/front-no-type.md":    entryMD("name: Not An Entry", "No type, no type folder.\n"),
				"manuscript/01-harbor.md":   "# The Harbor\n\nMara Vell walked the quay.\n",
				"manuscript/02-storm.md":    entryMD("type: chapter\ntitle: Storm", "The storm came.\n"),
				"codex/characters/scene.md": entryMD("type: scene", "A scene kept beside canon.\n"),
			},
			want: map[string]Type{
				"notes/storm-lore.md": TypeConcept,
				"notes/ferry.md":      TypeLocation,
				"ideas.md":            TypeItem,
			},
		},
		{
			name: "folder-shaped character",
			files: projectFiles{
				"codex/characters/ilse-dorn/index.md": entryNamed("Ilse Dorn"),
				"codex/characters/ilse-dorn/soul.md":  "# Soul\n\nShe fears still water.\n",
				"codex/characters/ilse-dorn/notes.md": "# Notes\n\nScraps.\n",
				"codex/characters/ilse-dorn/draft.md": entryMD("name: Draft Ilse", "A draft without a type.\n"),
				"codex/characters/ilse-dorn/ring.md":  entryMD("type: item\nname: Dorn Ring", "Her ring.\n"),
			},
			want: map[string]Type{
				"codex/characters/ilse-dorn/index.md": TypeCharacter,
				"codex/characters/ilse-dorn/ring.md":  TypeItem,
			},
		},
		{
			name: "overview pages of type folders",
			files: projectFiles{
				"codex/characters/README.md":    "# Characters\n\nEveryone in the book.\n",
				"codex/locations/index.md":      "# Places\n",
				"codex/items/Readme.markdown":   "# Items\n",
				"codex/characters/mara-vell.md": entryNamed("Mara Vell"),
			},
			want: map[string]Type{"codex/characters/mara-vell.md": TypeCharacter},
		},
		{
			name: "hidden, vendored and version-control folders",
			files: projectFiles{
				".git/codex/characters/ghost.md":             entryNamed("Git Ghost"),
				".git/info.md":                               entryMD("type: character\nname: Git Info", "x\n"),
				"node_modules/pkg/characters/npm.md":         entryNamed("Npm Person"),
				"codex/node_modules/hero.md":                 entryMD("type: character\nname: Vendored", "x\n"),
				".obsidian/characters/obs.md":                entryNamed("Obsidian Person"),
				"codex/.drafts/characters/d.md":              entryNamed("Hidden Draft"),
				"codex/characters/.hidden.md":                entryNamed("Hidden File"),
				"codex/characters/mara-vell.md":              entryNamed("Mara Vell"),
				"codex/characters/not-markdown.txt":          entryNamed("Text File"),
				"codex/characters/mara-vell.md~":             entryNamed("Backup File"),
				"codex/characters/long-form-name.markdown":   entryNamed("Long Form"),
				"codex/characters/shouting-extension.MD":     entryNamed("Shouting"),
				"codex/characters/.mara-vell.md.swp":         "binary swap",
				"codex/characters/.#mara-vell.md":            "lock",
				"codex/characters/sub/.git/characters/x.md":  entryNamed("Nested Git"),
				"codex/characters/sub/node_modules/x/y/z.md": entryNamed("Nested Npm"),
			},
			want: map[string]Type{
				"codex/characters/mara-vell.md":            TypeCharacter,
				"codex/characters/long-form-name.markdown": TypeCharacter,
				"codex/characters/shouting-extension.MD":   TypeCharacter,
			},
		},
		{
			name: "gitignore patterns and negation",
			files: projectFiles{
				".gitignore": "# private things\n" +
					"archive/\n" +
					"*.private.md\n" +
					"!keep.private.md\n" +
					"/scratch.md\n" +
					"codex/locations/wip-*.md\n",
				"codex/archive/old.md":                  entryMD("type: character\nname: Archived", "x\n"),
				"codex/characters/archive/older.md":     entryNamed("Older"),
				"codex/characters/secret.private.md":    entryNamed("Secret"),
				"codex/characters/keep.private.md":      entryNamed("Kept"),
				"scratch.md":                            entryMD("type: concept\nname: Root Scratch", "x\n"),
				"notes/scratch.md":                      entryMD("type: concept\nname: Notes Scratch", "x\n"),
				"codex/locations/wip-harbor.md":         entryNamed("Wip Harbor"),
				"codex/locations/harbor.md":             entryNamed("Harbor"),
				"codex/locations/deeper/wip-harbor.md":  entryNamed("Deeper Wip"),
				"codex/characters/archive.md":           entryNamed("Archive Person"), // archive/ matches folders only
				"codex/characters/mara-vell.private.md": entryNamed("Private Mara"),
			},
			want: map[string]Type{
				"codex/characters/keep.private.md":     TypeCharacter,
				"notes/scratch.md":                     TypeConcept,
				"codex/locations/harbor.md":            TypeLocation,
				"codex/locations/deeper/wip-harbor.md": TypeLocation,
				"codex/characters/archive.md":          TypeCharacter,
			},
		},
		{
			name: "symlinks inside the project are followed",
			files: projectFiles{
				"shared/port.md":         "# Port Vell\n\nA port kept outside the codex tree.\n",
				"people/jory.md":         "# Jory\n\nA deckhand.\n",
				"people/sub/marta.md":    "# Marta\n",
				"codex/items/compass.md": entryNamed("Compass"),
			},
			setup: func(t *testing.T, root, _ string) {
				symlink(t, "../../shared/port.md", root, "codex/locations/port-vell.md")
				symlink(t, filepath.Join(root, "people"), root, "codex/characters/crew")
			},
			want: map[string]Type{
				"codex/locations/port-vell.md":       TypeLocation,
				"codex/characters/crew/jory.md":      TypeCharacter,
				"codex/characters/crew/sub/marta.md": TypeCharacter,
				"codex/items/compass.md":             TypeItem,
			},
		},
		{
			name: "symlinked folder whose target is walked first",
			files: projectFiles{
				"archive-people/jory.md":        "# Jory\n",
				"codex/characters/mara-vell.md": entryNamed("Mara Vell"),
			},
			setup: func(t *testing.T, root, _ string) {
				symlink(t, "../../archive-people", root, "codex/characters/crew")
			},
			want: map[string]Type{
				"codex/characters/crew/jory.md": TypeCharacter,
				"codex/characters/mara-vell.md": TypeCharacter,
			},
		},
		{
			name: "symlinks leading out of the project are not followed",
			files: projectFiles{
				"codex/characters/mara-vell.md": entryNamed("Mara Vell"),
			},
			setup: func(t *testing.T, root, outside string) {
				writeFile(t, outside, "stranger.md", entryMD("type: character\nname: Stranger", "x\n"))
				writeFile(t, outside, "crowd/a.md", entryNamed("Crowd A"))
				writeFile(t, outside, "crowd/b.md", entryMD("type: item\nname: Crowd B", "x\n"))
				symlink(t, filepath.Join(outside, "stranger.md"), root, "codex/characters/stranger.md")
				symlink(t, filepath.Join(outside, "crowd"), root, "codex/characters/crowd")
				symlink(t, "../../../"+filepath.Base(outside)+"/stranger.md", root, "codex/locations/relative-out.md")
				symlink(t, filepath.Join(root, "missing.md"), root, "codex/characters/dangling.md")
			},
			want: map[string]Type{"codex/characters/mara-vell.md": TypeCharacter},
		},
		{
			name: "symlink loops end",
			files: projectFiles{
				"codex/characters/mara-vell.md": entryNamed("Mara Vell"),
				"codex/locations/harbor.md":     entryNamed("Harbor"),
			},
			setup: func(t *testing.T, root, _ string) {
				symlink(t, "..", root, "codex/characters/up")
				symlink(t, root, root, "codex/locations/root")
				symlink(t, "self", root, "codex/self")
				symlink(t, "b", root, "codex/a")
				symlink(t, "a", root, "codex/b")
			},
			want: map[string]Type{
				"codex/characters/mara-vell.md": TypeCharacter,
				"codex/locations/harbor.md":     TypeLocation,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parent := t.TempDir()
			root := filepath.Join(parent, "book")
			outside := filepath.Join(parent, "elsewhere")
			require.NoError(t, os.MkdirAll(root, 0o755))
			require.NoError(t, os.MkdirAll(outside, 0o755))
			writeFiles(t, root, tt.files)
			if tt.setup != nil {
				tt.setup(t, root, outside)
			}
			s := memStore(t, root)
			assert.Equal(t, tt.want, entryTypes(s.Catalog()))
		})
	}
}

// TestDiscoverFolderShapedEntry checks that index.md and soul.md make one
// character with its soul attached.
func TestDiscoverFolderShapedEntry(t *testing.T) {
	root := newProject(t, projectFiles{
		"codex/characters/ilse-dorn/index.md": entryMD("name: Ilse Dorn\naliases: [Ilse]", "# Ilse Dorn\n\nA lighthouse keeper.\n"),
		"codex/characters/ilse-dorn/soul.md":  "# Inner life\n\nShe fears still water.\n",
		"codex/characters/ilse-dorn/notes.md": "# Notes\n",
		"codex/locations/old-light/index.md":  entryNamed("Old Light"),
		"codex/locations/old-light/soul.md":   "# Soul\n\nPlaces have no souls.\n",
	})
	s := memStore(t, root)
	require.Equal(t, []string{"codex/characters/ilse-dorn/index.md", "codex/locations/old-light/index.md"}, entryIDs(s.Catalog()))

	ilse, ok := s.Catalog().Get("codex/characters/ilse-dorn/index.md")
	require.True(t, ok)
	assert.Equal(t, "Ilse Dorn", ilse.Name)
	assert.Equal(t, "ilse-dorn", ilse.Stem)
	require.NotNil(t, ilse.Soul, "soul.md is attached to its character")
	assert.Equal(t, "codex/characters/ilse-dorn/soul.md", ilse.Soul.ID)
	assert.Contains(t, ilse.Soul.Source, "still water")

	light, ok := s.Catalog().Get("codex/locations/old-light/index.md")
	require.True(t, ok)
	assert.Nil(t, light.Soul, "only characters have souls")

	got := s.Lookup("ilse-dorn", "")
	require.NotEmpty(t, got)
	assert.Equal(t, "codex/characters/ilse-dorn/index.md", got[0].RelativePath)
	assert.Equal(t, MatchStem, got[0].Match, "the folder name is the stem")
	assert.Contains(t, got[0].SoulExcerpt, "still water")
}

// TestDiscoverClassifyAgrees checks that classify, which the watcher uses
// for single files, decides every file's role as the full walk does.
func TestDiscoverClassifyAgrees(t *testing.T) {
	root := newProject(t, projectFiles{
		"codex/characters/mara-vell.md":       entryNamed("Mara Vell"),
		"codex/characters/README.md":          "# Characters\n",
		"codex/characters/index.md":           "# Characters\n",
		"codex/characters/ilse-dorn/index.md": entryNamed("Ilse Dorn"),
		"codex/characters/ilse-dorn/soul.md":  "# Soul\n",
		"codex/characters/ilse-dorn/notes.md": "# Notes\n",
		"codex/characters/crew/jory.md":       entryNamed("Jory"),
		"codex/characters/crew/README.md":     "# Crew\n",
		"codex/places/harbor.md":              entryNamed("Harbor"),
		"codex/places/harbor/index.md":        entryNamed("Harbor Inside"),
		"codex/places/harbor/soul.md":         "# Soul\n",
		"notes/storm.md":                      entryMD("type: concept\nname: Storm", "x\n"),
		"notes/index.md":                      "# Notes\n",
		"manuscript/01-harbor.md":             "# One\n",
		"README.md":                           "# Book\n",
		// The whole tree below an entry folder belongs to its entry.
		"codex/characters/ilse-dorn/letters/one.md":        "# A letter\n",
		"codex/characters/ilse-dorn/letters/soul.md":       "# Not a soul\n",
		"codex/characters/ilse-dorn/letters/index.md":      "# Not an entry\n",
		"codex/characters/ilse-dorn/items/ring.md":         "# Not an item\n",
		"codex/characters/ilse-dorn/letters/ledger-key.md": entryMD("type: item\nname: Ledger Key", "x\n"),
	})
	cands, _, err := discover(context.Background(), root, ParseIgnore(""))
	require.NoError(t, err)

	var ids []string
	for _, c := range cands {
		ids = append(ids, c.ID)
		info, err := os.Stat(c.Abs)
		require.NoError(t, err)
		got := classify(root, c.ID, info)
		assert.Equal(t, c.FolderType, got.FolderType, "folder type of %s", c.ID)
		assert.Equal(t, c.SoulOf, got.SoulOf, "owner of %s", c.ID)
		assert.Equal(t, c.Abs, got.Abs, "path of %s", c.ID)
	}
	slices.Sort(ids)
	assert.Equal(t, []string{
		"README.md",
		"codex/characters/README.md",
		"codex/characters/crew/README.md",
		"codex/characters/crew/jory.md",
		"codex/characters/ilse-dorn/index.md",
		"codex/characters/ilse-dorn/items/ring.md",
		"codex/characters/ilse-dorn/letters/index.md",
		"codex/characters/ilse-dorn/letters/ledger-key.md",
		"codex/characters/ilse-dorn/letters/one.md",
		"codex/characters/ilse-dorn/letters/soul.md",
		"codex/characters/ilse-dorn/notes.md",
		"codex/characters/ilse-dorn/soul.md",
		"codex/characters/index.md",
		"codex/characters/mara-vell.md",
		"codex/places/harbor.md",
		"codex/places/harbor/index.md",
		"codex/places/harbor/soul.md",
		"manuscript/01-harbor.md",
		"notes/index.md",
		"notes/storm.md",
	}, ids, "every Markdown file is a candidate")
}

// TestDiscoverSymlinkLoopEnds walks a project full of link cycles with a
// deadline, so a walk that never ends fails instead of hanging.
func TestDiscoverSymlinkLoopEnds(t *testing.T) {
	root := newProject(t, projectFiles{"codex/characters/mara-vell.md": entryNamed("Mara Vell")})
	symlink(t, "..", root, "codex/characters/up")
	symlink(t, root, root, "codex/characters/top")
	symlink(t, "../characters", root, "codex/characters/again")

	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	cands, _, err := discover(ctx, root, ParseIgnore(""))
	require.NoError(t, err, "a walk that ran into the deadline is caught in a loop")
	var real []string
	for _, c := range cands {
		r, err := filepath.EvalSymlinks(c.Abs)
		require.NoError(t, err)
		real = append(real, r)
	}
	mara, err := filepath.EvalSymlinks(filepath.Join(root, "codex/characters/mara-vell.md"))
	require.NoError(t, err)
	assert.Equal(t, []string{mara}, real, "the one file is found once")
}

// TestDiscoverFileRole pins the role rules the walk and classify share.
func TestDiscoverFileRole(t *testing.T) {
	const idx = "codex/characters/ilse-dorn/index.md"
	tests := []struct {
		name         string
		file         string
		folderType   Type
		isTypeFolder bool
		indexID      string
		id           string
		wantType     Type
		wantSoulOf   string
	}{
		{"plain file in type folder", "mara.md", TypeCharacter, true, "", "codex/characters/mara.md", TypeCharacter, ""},
		{"readme in type folder", "README.md", TypeCharacter, true, "", "codex/characters/README.md", "", ""},
		{"index in type folder", "index.md", TypeLocation, true, "", "codex/locations/index.md", "", ""},
		{"readme below a type folder", "README.md", TypeCharacter, false, "", "codex/characters/crew/README.md", TypeCharacter, ""},
		{"entry folder index", "index.md", TypeCharacter, false, idx, idx, TypeCharacter, ""},
		{"entry folder soul", "soul.md", TypeCharacter, false, idx, "codex/characters/ilse-dorn/soul.md", TypeCharacter, idx},
		{"entry folder sibling", "notes.md", TypeCharacter, false, idx, "codex/characters/ilse-dorn/notes.md", "", ""},
		{"outside type folders", "storm.md", "", false, "", "notes/storm.md", "", ""},
		{"soul without index", "soul.md", TypeCharacter, false, "", "codex/characters/ilse-dorn/soul.md", TypeCharacter, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gotType, gotSoulOf := fileRole(tt.file, tt.folderType, tt.isTypeFolder, tt.indexID, tt.id)
			assert.Equal(t, tt.wantType, gotType)
			assert.Equal(t, tt.wantSoulOf, gotSoulOf)
		})
	}
}

// TestDiscoverOpenWithSymlinkLoopAndWatch opens and watches a project with
// link cycles: neither the walk nor the watcher's folder walk may hang.
func TestDiscoverOpenWithSymlinkLoopAndWatch(t *testing.T) {
	root := newProject(t, projectFiles{"codex/characters/mara-vell.md": entryNamed("Mara Vell")})
	symlink(t, "..", root, "codex/characters/up")
	symlink(t, root, root, "codex/locations/root")

	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	s, err := Open(ctx, root, Options{InMemory: true, Debounce: 20 * time.Millisecond})
	require.NoError(t, err)
	t.Cleanup(func() { assert.NoError(t, s.Close()) })
	assert.Equal(t, []string{"codex/characters/mara-vell.md"}, entryIDs(s.Catalog()))

	startWatch(t, s)
	writeFile(t, root, "codex/characters/tobin.md", entryNamed("Tobin"))
	eventually(t, "a file written beside a link cycle is picked up", func(c *assert.CollectT) {
		assert.Equal(c, []string{"codex/characters/mara-vell.md", "codex/characters/tobin.md"}, entryIDs(s.Catalog()))
	})
}

// TestDiscoverEntryFolderSubtree: below an entry folder, only the entry's
// index.md (and its soul.md beside it) count, plus notes that declare a
// type of their own, however deep and whatever the subfolders are called.
func TestDiscoverEntryFolderSubtree(t *testing.T) {
	root := newProject(t, projectFiles{
		"codex/characters/ilse-dorn/index.md":              entryNamed("Ilse Dorn"),
		"codex/characters/ilse-dorn/soul.md":               "# Soul\n\n## Fears\n",
		"codex/characters/ilse-dorn/letters/one.md":        "# A letter\n",
		"codex/characters/ilse-dorn/letters/index.md":      "# Letters\n",
		"codex/characters/ilse-dorn/letters/soul.md":       "# Not a soul\n",
		"codex/characters/ilse-dorn/items/ring.md":         "# Ring\n",
		"codex/characters/ilse-dorn/letters/ledger-key.md": entryMD("type: item\nname: Ledger Key", "x\n"),
	})
	s := openStore(t, root, Options{InMemory: true})
	assert.Equal(t, []string{
		"codex/characters/ilse-dorn/index.md",
		"codex/characters/ilse-dorn/letters/ledger-key.md",
	}, entryIDs(s.Catalog()))
	e, ok := s.Catalog().Get("codex/characters/ilse-dorn/index.md")
	require.True(t, ok)
	require.NotNil(t, e.Soul)
	assert.Equal(t, "codex/characters/ilse-dorn/soul.md", e.Soul.ID)
}

// TestDiscoverLinkedIndexOutsideIsNotRead: an index.md that is a link out
// of the project neither becomes an entry nor makes its folder an entry
// folder.
func TestDiscoverLinkedIndexOutsideIsNotRead(t *testing.T) {
	root := newProject(t, projectFiles{
		"codex/characters/ilse-dorn/notes.md": entryNamed("Ilse Notes"),
	})
	outside := t.TempDir()
	writeFile(t, outside, "secret.md", entryNamed("Outside Secret"))
	symlink(t, filepath.Join(outside, "secret.md"), root, "codex/characters/ilse-dorn/index.md")

	cands, _, err := discover(context.Background(), root, ParseIgnore(""))
	require.NoError(t, err)
	var ids []string
	for _, c := range cands {
		ids = append(ids, c.ID)
	}
	assert.Equal(t, []string{"codex/characters/ilse-dorn/notes.md"}, ids)

	s := openStore(t, root, Options{InMemory: true})
	assert.Equal(t, []string{"codex/characters/ilse-dorn/notes.md"}, entryIDs(s.Catalog()),
		"the folder is no entry folder, so its notes are characters")
}
