package textdoc

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"
)

func TestChangeOrderUnit(t *testing.T) {
	uri := protocol.DocumentURI("file:///book/manuscript/01.md")
	at := func(line, col uint32, text string) []protocol.TextDocumentContentChangeEvent {
		p := protocol.Position{Line: line, Character: col}
		return []protocol.TextDocumentContentChangeEvent{{Range: protocol.Range{Start: p, End: p}, Text: text}}
	}
	o := NewChangeOrder(NewDocument(uri, 1, "ab"))
	// Versions that skip, as Neovim's change ticks do, apply as they come.
	d, err := o.Add(uri, 3, at(0, 2, "c"))
	require.NoError(t, err)
	assert.Equal(t, "abc", d.Text)
	// Too early, a change may apply at the wrong place (a column past the
	// line's end is its end)...
	d, err = o.Add(uri, 5, at(0, 4, "e"))
	require.NoError(t, err)
	assert.Equal(t, "abce", d.Text)
	// ...until the version before it comes: then both apply in order.
	d, err = o.Add(uri, 4, at(0, 3, "d"))
	require.NoError(t, err)
	assert.Equal(t, "abcde", d.Text)
	assert.Equal(t, int32(5), d.Version)
	// Ahead and on a line not there yet: it waits for the versions
	// between.
	d, err = o.Add(uri, 7, at(2, 0, "f"))
	require.NoError(t, err)
	assert.Equal(t, int32(5), d.Version)
	d, err = o.Add(uri, 6, at(0, 5, "\n\n"))
	require.NoError(t, err)
	assert.Equal(t, "abcde\n\nf", d.Text)
	assert.Equal(t, int32(7), d.Version)
	// The next version that does not apply is an error; the text stays.
	_, err = o.Add(uri, 8, at(9, 0, "x"))
	require.ErrorIs(t, err, ErrInvalidRange)
	assert.Equal(t, "abcde\n\nf", o.Current().Text)
	// The same version again, from a client that does not count them:
	// applied on top.
	_, err = o.Add(uri, 6, at(0, 0, "y"))
	require.NoError(t, err)
	assert.Equal(t, "yabcde\n\nf", o.Current().Text)
	// A late version that does not apply to its own version's text is an
	// error, and the versions stand.
	_, err = o.Add(uri, 4, at(9, 0, "z"))
	require.Error(t, err)
	assert.Equal(t, "yabcde\n\nf", o.Current().Text)
}
