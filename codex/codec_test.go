package codex

import (
	"bytes"
	"crypto/sha256"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fullState builds a state in which every field of every persisted type
// holds a value, so that a field the codec forgets fails the round trip.
func fullState(t testing.TB) *savedState {
	t.Helper()
	// The second status, which the first wins over, is one of life:
	// Entry.lifeStatus is set.
	src := "---\ntype: character\nname: Ilse Dorn\naliases: [Ilse, the Tallywoman]\nsummary: Clerk.\n" +
		"tags: [clerk]\nstatus: tentative\nstatus: dead\nrole: Lead\nage: 29\nlocked: [role, missing]\n" +
		"exclude: [ilse of the isles]\nname: twice\n---\n# Ilse Dorn\n\nSee [[Mara Vell|Mara]].\n\n## History\n\nText.\n"
	e, _ := Parse("codex/characters/ilse-dorn/index.md", []byte(src), TypeCharacter)
	require.NotNil(t, e)
	soul := ParseSoul("codex/characters/ilse-dorn/soul.md", []byte("# Soul\n\n## Fears\n\nWater. [[Nobody]]\n"))
	soul.Problems = []Problem{{Path: soul.ID, Code: CodeBrokenLink, Severity: SeverityWarning, Message: "m", Range: Range{1, 2}}}
	e.Soul = soul
	return &savedState{
		Schema: SchemaVersion,
		Root:   "/books/ilse",
		Files: map[string]fileState{
			e.ID:    {Size: int64(len(src)), ModTime: 1700000000123456789, Hash: sha256.Sum256([]byte(src)), FolderType: TypeCharacter},
			soul.ID: {Size: 10, ModTime: -5, Hash: sha256.Sum256(nil), FolderType: TypeCharacter, SoulOf: e.ID},
		},
		Entries: []*Entry{e},
		Souls:   []*Soul{soul},
		Skipped: []Problem{{Path: "codex/items/blob.md", Code: CodeBinary, Severity: SeverityError, Message: "binary", Range: Range{0, 0}}},
		// As a store with a catalog saves them; a state read back has
		// them too.
		Catalog: savedCatalog{keys: []*keys{keysOf(e)}},
	}
}

func TestStateRoundTrip(t *testing.T) {
	st := fullState(t)
	requireAllFieldsSet(t, reflect.ValueOf(*st.Entries[0]), "Entry")
	requireAllFieldsSet(t, reflect.ValueOf(*st.Souls[0]), "Soul")
	requireAllFieldsSet(t, reflect.ValueOf(st.Files[st.Souls[0].ID]), "fileState")

	data, err := encodeState(st)
	require.NoError(t, err)
	got, err := decodeState(data)
	require.NoError(t, err)
	assert.Equal(t, st, got)
	assert.Same(t, got.Souls[0], got.Entries[0].Soul, "an entry shares its soul with the soul list")
}

// requireAllFieldsSet fails for any zero-valued field of a struct value.
func requireAllFieldsSet(t *testing.T, v reflect.Value, name string) {
	t.Helper()
	for i := range v.NumField() {
		require.False(t, v.Field(i).IsZero(), "fixture leaves %s.%s empty: fill it so the codec round trip covers it", name, v.Type().Field(i).Name)
	}
}

func TestDecodeStateRejectsDamage(t *testing.T) {
	data, err := encodeState(fullState(t))
	require.NoError(t, err)
	tests := map[string][]byte{
		"empty":       nil,
		"not quire":   []byte("hello, this is not a state file at all"),
		"truncated":   data[:len(data)/2],
		"flipped bit": func() []byte { d := append([]byte(nil), data...); d[len(d)/2] ^= 0x40; return d }(),
		"extra bytes": append(append([]byte(nil), data[:len(data)-4]...), 1, 2, 3, 4, 5, 6, 7, 8),
	}
	for name, d := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := decodeState(d)
			require.ErrorIs(t, err, errCorruptState)
		})
	}
}

func TestDecodeStateRejectsOtherSchema(t *testing.T) {
	st := fullState(t)
	st.Schema = SchemaVersion + 1
	data, err := encodeState(st)
	require.NoError(t, err)
	_, err = decodeState(data)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "schema")
}

func FuzzDecodeState(f *testing.F) {
	data, err := encodeState(fullState(f))
	require.NoError(f, err)
	f.Add(data)
	f.Add(data[:len(stateMagic)+8])
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		st, err := decodeState(data)
		if err != nil {
			return
		}
		// Whatever decodes must encode to the same bytes.
		again, err := encodeState(st)
		require.NoError(t, err)
		st2, err := decodeState(again)
		require.NoError(t, err)
		require.Equal(t, st, st2)
	})
}

// encodeState serializes st in memory.
func encodeState(st *savedState) ([]byte, error) {
	var b bytes.Buffer
	if err := writeStateTo(&b, st); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Decoded entries share backing arrays (the decoder's slabs); appending
// to one entry's list never writes into the next entry's.
func TestDecodedEntriesDoNotShareRoom(t *testing.T) {
	st := fullState(t)
	second := *st.Entries[0]
	second.ID, second.Aliases, second.Tags = "codex/characters/other.md", []string{"Other", "Another"}, []string{"x"}
	second.Soul = nil
	st.Entries = append(st.Entries, &second)
	data, err := encodeState(st)
	require.NoError(t, err)
	got, err := decodeState(data)
	require.NoError(t, err)
	first := got.Entries[0]
	first.Aliases = append(first.Aliases, "Intruder")
	first.Tags = append(first.Tags, "intruder")
	first.Sections = append(first.Sections, Section{Heading: "Intruder"})
	first.AliasRanges = append(first.AliasRanges, Range{9, 9})
	assert.Equal(t, []string{"Other", "Another"}, got.Entries[1].Aliases)
	assert.Equal(t, []string{"x"}, got.Entries[1].Tags)
	assert.Equal(t, st.Entries[1].Sections, got.Entries[1].Sections)
	assert.Equal(t, st.Entries[1].AliasRanges, got.Entries[1].AliasRanges)
}
