package codex

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// keysEntries are entries whose names exercise every rule keysOf
// follows: diacritics and folded letters, apostrophes, Cyrillic, file
// stems with dashes, titles that differ from the name or are empty,
// names of no words, digits, and more aliases than manyNames with
// repeats among them.
func keysEntries() []*Entry {
	many := []string{"Ma", "Mara", "the Widow", "Vell", "mara", "MV", "the widow Vell", "Mother", "Ma", "Old Mara"}
	return []*Entry{
		{ID: "a.md", Type: TypeCharacter, Name: "Mara Vell", Stem: "mara-vell"},
		{ID: "b.md", Type: TypeCharacter, Name: "Séverine Ødegaard", Title: "Lady Ødegaard", Stem: "severine_odegaard", Aliases: []string{"Séverine", "the Dane"}},
		{ID: "c.md", Type: TypeCharacter, Name: "O’Brien's Ghost", Stem: "obrien", Aliases: []string{"O'Brien", "  the   Ghost "}},
		{ID: "d.md", Type: TypeCharacter, Name: "Наташа Ростова", Stem: "natasha", Aliases: []string{"Наташа", "Наталья Ильинична"}},
		{ID: "e.md", Type: TypeItem, Name: "Agent 47", Stem: "agent-47", Title: "Agent 47"},
		{ID: "f.md", Type: TypeConcept, Name: "---", Stem: "dashes"},
		{ID: "g.md", Type: TypeCharacter, Name: "Straße Weiß", Stem: "strasse", Aliases: many},
		{ID: "h.md", Type: TypeLocation, Name: "", Stem: "nameless-place"},
	}
}

// A state read back holds the keys keysOf makes, whether its writer had
// them from a catalog or made them while writing.
func TestSavedKeysReadBackAsMade(t *testing.T) {
	entries := keysEntries()
	made := make([]*keys, len(entries))
	for i, e := range entries {
		made[i] = keysOf(e)
	}
	tests := map[string][]*keys{
		"from the catalog":       made,
		"made while writing":     nil,
		"some from the catalog":  {made[0], nil, made[2], nil, nil, made[5], nil, made[7]},
		"fewer than the entries": made[:3],
	}
	for name, saved := range tests {
		t.Run(name, func(t *testing.T) {
			st := &savedState{Schema: SchemaVersion, Root: "/b", Entries: entries, Catalog: savedCatalog{keys: saved}}
			data, err := encodeState(st)
			require.NoError(t, err)
			got, err := decodeState(data)
			require.NoError(t, err)
			require.Len(t, got.Catalog.keys, len(entries))
			for i, e := range got.Entries {
				assert.Equal(t, keysOf(e), got.Catalog.keys[i], "keys of %s", e.ID)
			}
		})
	}
}

// keysSection is the keys section of a state saved with these keys, by
// the rules numbered rules.
func keysSection(rules uint64, saved []*keys) []byte {
	e := newEncoder(nil)
	e.uvarint(rules)
	for _, k := range saved {
		e.savedKeys(k)
	}
	e.uvarint(0) // no words
	return e.buf
}

// Keys saved by other rules, or saved keys that a few made again
// contradict, are not taken: the catalog makes its own.
func TestSavedKeysNotTakenWhenTheyMayBeStale(t *testing.T) {
	entries := keysEntries()
	made := make([]*keys, len(entries))
	for i, e := range entries {
		made[i] = keysOf(e)
	}
	stale := slices.Clone(made)
	changed := *made[1]
	changed.name = "severine odegaard the elder"
	stale[1] = &changed
	tests := []struct {
		name  string
		data  []byte
		taken bool
	}{
		{"these rules", keysSection(keysRules, made), true},
		{"other rules", keysSection(keysRules+1, made), false},
		{"a key that is not what keysOf makes", keysSection(keysRules, stale), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := &decoder{buf: tt.data}
			got := d.keysOfState(entries)
			require.NoError(t, d.err)
			assert.Equal(t, len(tt.data), d.off, "the section is read or passed over to its end")
			assert.Equal(t, tt.taken, got.keys != nil)
		})
	}
}

// A word span that runs past its key, or backwards, is damage: the state
// is refused rather than its keys cut wrong.
func TestSavedKeysRefuseSpansOutsideTheirKey(t *testing.T) {
	e := &Entry{ID: "a.md", Name: "Mara Vell", Stem: "mara-vell"}
	section := func(spans ...uint64) []byte {
		enc := newEncoder(nil)
		enc.uvarint(keysRules)
		enc.str("mara vell")
		enc.uvarint(1) // title: none
		enc.uvarint(0) // stem: the name
		enc.uvarint(0) // no aliases
		enc.uvarint(uint64(len(spans) / 2))
		for _, s := range spans {
			enc.uvarint(s)
		}
		enc.uvarint(0) // the title's words
		enc.uvarint(0) // no sorted words
		return enc.buf
	}
	d := &decoder{buf: section(0, 4, 1, 4)}
	require.NotNil(t, d.keysOfState([]*Entry{e}).keys)
	require.NoError(t, d.err)
	for name, data := range map[string][]byte{
		"past the key":  section(0, 4, 1, 9),
		"an empty word": section(0, 0),
		"cut short":     section(0, 4, 1, 4)[:12],
	} {
		t.Run(name, func(t *testing.T) {
			d := &decoder{buf: data}
			assert.Nil(t, d.keysOfState([]*Entry{e}).keys)
			assert.ErrorIs(t, d.err, errCorruptState)
		})
	}
}

// keysRulesSums records, for each keysRules, the sum of what keysOf makes
// of keysEntries. A change to Normalize, stemKey, eachWord or complete
// that changes what they make fails TestKeysRulesRecorded: bump
// keysRules, so that states saved by the old rules are not read as new,
// and record the new sum under it.
var keysRulesSums = map[int]string{
	1: "12c8a41b",
}

func TestKeysRulesRecorded(t *testing.T) {
	var b strings.Builder
	for _, e := range keysEntries() {
		k := keysOf(e)
		fmt.Fprintf(&b, "%q %q %q %q %d %q\n", k.name, k.title, k.stem, k.aliases, k.shortest, k.words)
		for _, u := range k.unique {
			fmt.Fprintf(&b, " %q %d %v\n", u.key, u.runes, u.tier)
		}
		for _, n := range k.named {
			fmt.Fprintf(&b, " %d %q\n", n.runes, n.words)
		}
	}
	sum := sha256.Sum256([]byte(b.String()))
	got := hex.EncodeToString(sum[:4])
	require.Equal(t, keysRulesSums[keysRules], got,
		"keysOf makes other keys than rules %d did: bump keysRules and record %s under it", keysRules, got)
}

// A catalog given saved keys takes them rather than making its own, and
// makes those it is not given.
func TestNewCatalogTakesSavedKeys(t *testing.T) {
	entries := keysEntries()[:2]
	mara := keysOf(entries[0])
	mara.aliases = append(mara.aliases, "the saved alias")
	mara.unique = append(mara.unique, fuzzyKey{key: "the saved alias", runes: 15, entry: entries[0], tier: MatchAlias})
	c := newCatalog(entries, nil, savedCatalog{keys: []*keys{mara, nil}})
	e, ok := c.Resolve("The Saved Alias")
	require.True(t, ok, "the saved keys were taken")
	assert.Equal(t, "a.md", e.ID)
	e, ok = c.Resolve("Lady Ødegaard")
	require.True(t, ok, "the keys not given were made")
	assert.Equal(t, "b.md", e.ID)
}

// A store saves its catalog's keys with its state, and a warm start
// reads them.
func TestStoreSavesItsCatalogKeys(t *testing.T) {
	root := newProject(t, persistFiles())
	cache := t.TempDir()
	s := openStore(t, root, Options{CacheDir: cache})
	require.NoError(t, s.Close())
	st, err := readState(cache)
	require.NoError(t, err)
	require.NotEmpty(t, st.Entries)
	require.Len(t, st.Catalog.keys, len(st.Entries))
	for i, e := range st.Entries {
		assert.Equal(t, keysOf(e), st.Catalog.keys[i], "keys of %s", e.ID)
	}
	require.NotEmpty(t, st.Catalog.words, "the catalog's sorted words are saved")
	assert.Equal(t, NewCatalog(st.Entries, nil).words, st.Catalog.words)
}

// A catalog given saved words takes them rather than sorting its own,
// when it was given every entry's keys too.
func TestNewCatalogTakesSavedWords(t *testing.T) {
	entries := keysEntries()
	made := NewCatalog(entries, nil)
	all := make([]*keys, len(entries))
	for i, e := range entries {
		all[i] = made.keys.at(e)
	}
	words := slices.Clone(made.words)
	c := newCatalog(entries, nil, savedCatalog{keys: all, words: words})
	assert.Same(t, &words[0], &c.words[0], "the saved words are taken")
	all[3] = nil
	c = newCatalog(entries, nil, savedCatalog{keys: all, words: words})
	assert.NotSame(t, &words[0], &c.words[0], "not when an entry's keys are made")
	assert.Equal(t, made.words, c.words)
}

// The saved words are taken only when they are each word of each
// entry's keys once, in order; anything else is passed over, and the
// catalog sorts its own.
func TestSavedWordsTakenOnlyWhole(t *testing.T) {
	entries := keysEntries()[:2]
	all := []*keys{keysOf(entries[0]), keysOf(entries[1])}
	// mara vell | severine odegaard lady séverine the dane: in order.
	sorted := NewCatalog(entries, nil).words
	good := wordPairs(entries, all, sorted)
	require.Len(t, good, len(sorted))
	swapped := slices.Clone(good)
	swapped[0], swapped[1] = swapped[1], swapped[0]
	twice := slices.Clone(good)
	twice[1] = twice[0]
	tests := []struct {
		name  string
		pairs [][2]int
		taken bool
	}{
		{"each word once, sorted", good, true},
		{"out of order", swapped, false},
		{"a word twice", twice, false},
		{"one left out", good[1:], false},
		{"an entry that is not there", append(slices.Clone(good[1:]), [2]int{7, 0}), false},
		{"a word the entry does not have", append(slices.Clone(good[1:]), [2]int{0, 9}), false},
		{"none", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEncoder(nil)
			e.uvarint(keysRules)
			for _, k := range all {
				e.savedKeys(k)
			}
			e.uvarint(uint64(len(tt.pairs)))
			for _, p := range tt.pairs {
				e.uvarint(uint64(p[0]))
				e.uvarint(uint64(p[1]))
			}
			d := &decoder{buf: e.buf}
			got := d.keysOfState(entries)
			require.NoError(t, d.err)
			require.NotNil(t, got.keys, "the keys are taken either way")
			assert.Equal(t, len(e.buf), d.off)
			if tt.taken {
				assert.Equal(t, sorted, got.words)
			} else {
				assert.Nil(t, got.words)
			}
		})
	}
}

// The keys section is read from a file on disk: whatever it holds, the
// decoder fails or returns keys whose words lie inside their keys.
func FuzzSavedKeys(f *testing.F) {
	entries := keysEntries()
	made := make([]*keys, len(entries))
	for i, e := range entries {
		made[i] = keysOf(e)
	}
	f.Add(keysSection(keysRules, made))
	f.Add(keysSection(keysRules+1, made))
	f.Add([]byte{keysRules, 3, 'a', 'b', 'c', 0, 0, 0, 1, 0, 3})
	f.Fuzz(func(t *testing.T, data []byte) {
		d := &decoder{buf: data}
		got := d.keysOfState(entries)
		if d.err != nil || got.keys == nil {
			return
		}
		for i, k := range got.keys {
			require.Equal(t, keysOf(entries[i]), k)
		}
	})
}
