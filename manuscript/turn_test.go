package manuscript

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTurnContext(t *testing.T) {
	ctx := context.Background()
	text := "---\ntitle: Dawn\n---\n# Dawn\n\nThe harbor woke.\n\n" + secretSentence + "\n"
	m := openFiles(t, projectFiles{
		"manuscript/01-dawn.md":    text,
		"codex/characters/mara.md": "# Mara Vell\n\nSmuggler of the coast.\n",
	})
	s := m.Snapshot()
	u, _ := s.Unit("manuscript/01-dawn.md")
	sel, err := Capture(u, rangeOf(t, text, secretSentence))
	require.NoError(t, err)

	t.Run("selection", func(t *testing.T) {
		tc, ok := s.TurnContext(Place{Current: "codex/characters/mara.md", Selection: sel})
		require.True(t, ok)
		assert.Equal(t, TurnContext{
			HasSelection: true, Path: "manuscript/01-dawn.md", Title: "Dawn",
			SourceWords: 14, SelectionWords: 10, SelectionHash: sha256Of(secretSentence),
		}, tc, "the selection describes the turn, whatever document is active")
	})
	t.Run("whole document", func(t *testing.T) {
		tc, ok := s.TurnContext(Place{Current: "manuscript/01-dawn.md"})
		require.True(t, ok)
		assert.Equal(t, TurnContext{Path: "manuscript/01-dawn.md", Title: "Dawn", DocumentWords: 14}, tc)
	})
	t.Run("document that is no chapter", func(t *testing.T) {
		tc, ok := s.TurnContext(Place{Current: "codex/characters/mara.md"})
		require.True(t, ok)
		assert.Equal(t, TurnContext{Path: "codex/characters/mara.md", Title: "Mara Vell", DocumentWords: 6}, tc)
	})
	t.Run("unsaved document", func(t *testing.T) {
		require.NoError(t, m.OpenDocument(ctx, "notes/new.md", "# Idea\n\nOne two three.\n", 1))
		tc, ok := m.Snapshot().TurnContext(Place{Current: "notes/new.md"})
		require.True(t, ok)
		assert.Equal(t, TurnContext{Path: "notes/new.md", Title: "Idea", DocumentWords: 4}, tc)
	})
	t.Run("nothing to say", func(t *testing.T) {
		for _, turn := range []Place{
			{},
			{Current: "manuscript/09-missing.md"},
			{Current: "../secret.md"},
			{Current: "notes.txt"},
		} {
			tc, ok := s.TurnContext(turn)
			assert.False(t, ok, turn.Current)
			assert.Zero(t, tc)
		}
	})
}

func TestTurnContextJSONCarriesNoProse(t *testing.T) {
	text := "# Dawn\n\n" + secretSentence + "\n"
	m := openFiles(t, projectFiles{"manuscript/01-dawn.md": text})
	s := m.Snapshot()
	u, _ := s.Unit("manuscript/01-dawn.md")
	sel, err := Capture(u, rangeOf(t, text, secretSentence))
	require.NoError(t, err)

	withSel, ok := s.TurnContext(Place{Current: u.Path, Selection: sel})
	require.True(t, ok)
	js, err := json.Marshal(withSel)
	require.NoError(t, err)
	assert.NotContains(t, string(js), "lighthouse")
	assert.JSONEq(t, `{"hasSelection":true,"path":"manuscript/01-dawn.md","title":"Dawn",
		"sourceWords":11,"selectionWords":10,"selectionHash":"`+sha256Of(secretSentence)+`"}`, string(js))

	whole, ok := s.TurnContext(Place{Current: u.Path})
	require.True(t, ok)
	js, err = json.Marshal(whole)
	require.NoError(t, err)
	assert.NotContains(t, string(js), "lighthouse")
	assert.JSONEq(t, `{"hasSelection":false,"path":"manuscript/01-dawn.md","title":"Dawn","documentWords":11}`, string(js))
}
