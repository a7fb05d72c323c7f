package codex

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A state read from disk (mapped, on Linux and macOS) keeps its entries'
// text when the file is saved again under it: quire saves by renaming a
// new file over the old one, which leaves what was read as it was.
func TestReadStateKeepsItsTextWhenSavedAgain(t *testing.T) {
	dir := t.TempDir()
	first := fullState(t)
	require.NoError(t, writeState(dir, first))
	read, err := readState(dir)
	require.NoError(t, err)
	// Where the state was mapped, read says where (savedState.mapped).
	unmapped := *read
	unmapped.mapped = nil
	assert.Equal(t, first, &unmapped)

	second := fullState(t)
	e := *second.Entries[0]
	e.Source = strings.Repeat("x", len(e.Source))
	second.Entries[0] = &e
	require.NoError(t, writeState(dir, second))

	assert.Equal(t, first.Entries[0].Source, read.Entries[0].Source)
	assert.Equal(t, first.Souls[0].Source, read.Souls[0].Source)
	again, err := readState(dir)
	require.NoError(t, err)
	assert.Equal(t, e.Source, again.Entries[0].Source)
}

// The checksum covers the sources, which the decoding itself never
// reads: a damaged or cut state file is refused whole.
func TestReadStateRefusesDamage(t *testing.T) {
	st := fullState(t)
	data, err := encodeState(st)
	require.NoError(t, err)
	// The entry's text, inside the sources ahead of the fields.
	at := strings.Index(string(data), "Ilse Dorn\n\nSee")
	require.Positive(t, at)
	tests := map[string][]byte{
		"a source's byte flipped": func() []byte { d := append([]byte(nil), data...); d[at] ^= 0x20; return d }(),
		"cut short":               data[:len(data)-100],
		"only its start":          data[:len(stateMagic)+2],
		"empty":                   {},
	}
	for name, d := range tests {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			require.NoError(t, os.WriteFile(filepath.Join(dir, stateFile), d, 0o644))
			_, err := readState(dir)
			require.ErrorIs(t, err, errCorruptState)
		})
	}
}
