package manuscript

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
)

// sha256Of is the expected hash, computed here independently of
// codex.HashText.
func sha256Of(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// rangeOf is the byte range of the first sub in text.
func rangeOf(t *testing.T, text, sub string) codex.Range {
	t.Helper()
	i := strings.Index(text, sub)
	require.GreaterOrEqual(t, i, 0, "%q not in the text", sub)
	return codex.Range{Start: i, End: i + len(sub)}
}

func TestCapture(t *testing.T) {
	text := "---\ntitle: Dawn\n---\n# Dawn\n\nThe harbor woke.\n\n" + secretSentence + " Mara didn't look.\n"
	u := NewUnit("manuscript/01-dawn.md", text, 0)
	r := rangeOf(t, text, secretSentence)

	sel, err := Capture(u, r)
	require.NoError(t, err)
	assert.Equal(t, "manuscript/01-dawn.md", sel.Path)
	assert.Equal(t, "Dawn", sel.Title)
	assert.Equal(t, r, sel.Range)
	assert.Equal(t, secretSentence, sel.Text())
	assert.Equal(t, sha256Of(secretSentence), sel.Hash)
	assert.Equal(t, 10, sel.Words)
	assert.Equal(t, u.Words, sel.SourceWords)
	assert.Equal(t, 1+3+10+3, sel.SourceWords, "the document's words, front matter excluded")
	assert.Equal(t, SelectionMeta{Path: u.Path, Title: "Dawn", Hash: sel.Hash, Words: 10, SourceWords: 17}, sel.Meta())

	// The whole document may be selected.
	all, err := Capture(u, codex.Range{Start: 0, End: len(text)})
	require.NoError(t, err)
	assert.Equal(t, text, all.Text())
}

func TestCaptureCRLF(t *testing.T) {
	lf := "# Dawn\n\nThe harbor woke.\nMara ran.\n"
	crlf := strings.ReplaceAll(lf, "\n", "\r\n")
	a, err := Capture(NewUnit("manuscript/01.md", lf, 0), codex.Range{Start: 0, End: len(lf)})
	require.NoError(t, err)
	b, err := Capture(NewUnit("manuscript/01.md", crlf, 0), codex.Range{Start: 0, End: len(crlf)})
	require.NoError(t, err)
	assert.Equal(t, sha256Of(lf), a.Hash)
	assert.Equal(t, a.Hash, b.Hash, "the same words hash alike on every platform")
	assert.Equal(t, a.Words, b.Words)
	assert.Equal(t, crlf, b.Text(), "the text itself is kept as it was")
}

func TestCaptureMultiByte(t *testing.T) {
	text := "Café 🌊 日本語 done."
	u := NewUnit("manuscript/01.md", text, 0)
	wave := rangeOf(t, text, "🌊")

	sel, err := Capture(u, wave)
	require.NoError(t, err)
	assert.Equal(t, "🌊", sel.Text())
	assert.Zero(t, sel.Words)

	sel, err = Capture(u, rangeOf(t, text, "日本語"))
	require.NoError(t, err)
	assert.Equal(t, 1, sel.Words)

	for _, r := range []codex.Range{
		{Start: wave.Start + 1, End: wave.End},
		{Start: wave.Start, End: wave.End - 1},
		{Start: 4, End: 8}, // inside "é"
	} {
		_, err := Capture(u, r)
		assert.ErrorContains(t, err, "splits a character", "%v", r)
	}
}

func TestCaptureRefuses(t *testing.T) {
	u := NewUnit("manuscript/01.md", "Some text here.", 0)
	tests := []struct {
		name string
		r    codex.Range
		want string
	}{
		{"negative start", codex.Range{Start: -1, End: 4}, "outside the document"},
		{"end past the text", codex.Range{Start: 0, End: 100}, "outside the document"},
		{"reversed", codex.Range{Start: 8, End: 4}, "outside the document"},
		{"empty", codex.Range{Start: 4, End: 4}, "empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sel, err := Capture(u, tt.r)
			assert.Nil(t, sel)
			assert.ErrorContains(t, err, tt.want)
			assert.ErrorContains(t, err, "manuscript/01.md")
			assert.NotContains(t, err.Error(), "Some text")
		})
	}

	big := NewUnit("manuscript/02.md", strings.Repeat("a", MaxSelectionBytes+1), 0)
	_, err := Capture(big, codex.Range{Start: 0, End: MaxSelectionBytes + 1})
	assert.ErrorContains(t, err, "limit")
	_, err = Capture(big, codex.Range{Start: 1, End: MaxSelectionBytes + 1})
	assert.NoError(t, err, "exactly the limit is allowed")
}

func TestCaptureFromOverlay(t *testing.T) {
	ctx := context.Background()
	m := openFiles(t, projectFiles{"manuscript/01-dawn.md": chapterText("Dawn", "Disk text.")})
	unsaved := chapterText("Dawn", "Disk text. "+secretSentence)
	require.NoError(t, m.OpenDocument(ctx, "manuscript/01-dawn.md", unsaved, 7))

	u, err := m.Snapshot().Document("manuscript/01-dawn.md")
	require.NoError(t, err)
	sel, err := Capture(u, rangeOf(t, unsaved, secretSentence))
	require.NoError(t, err)
	assert.Equal(t, secretSentence, sel.Text())
	assert.Equal(t, sha256Of(secretSentence), sel.Hash)
	assert.Equal(t, 13, sel.SourceWords, "the editor's text, not the disk's")
}

func TestSnapshotCaptureSelection(t *testing.T) {
	m := openFiles(t, projectFiles{
		"manuscript/01-dawn.md": chapterText("Dawn", "Disk text."),
		"notes/outline.md":      "# Outline\n\nDisk notes.\n",
	})
	unsaved := "# Outline\n\nDisk notes. " + secretSentence + "\n"
	m.Overlay().Set("notes/outline.md", unsaved, 3)

	sel, err := m.Snapshot().CaptureSelection("notes/outline.md", rangeOf(t, unsaved, secretSentence))
	require.NoError(t, err, "any open Markdown document of the project, chapter or not")
	assert.Equal(t, secretSentence, sel.Text())
	assert.Equal(t, "Outline", sel.Title)

	_, err = m.Snapshot().CaptureSelection("../outside.md", codex.Range{Start: 0, End: 1})
	require.ErrorIs(t, err, ErrPathRefused)
	_, err = m.Snapshot().CaptureSelection("manuscript/01-dawn.md", codex.Range{Start: 5, End: 1 << 30})
	require.Error(t, err)
}

// TestSelectionKeepsProsePrivate checks every way a selection might be
// written out: only Text gives the prose.
func TestSelectionKeepsProsePrivate(t *testing.T) {
	text := "# Dawn\n\n" + secretSentence + "\n"
	sel, err := Capture(NewUnit("manuscript/01-dawn.md", text, 0), rangeOf(t, text, secretSentence))
	require.NoError(t, err)

	js, err := json.Marshal(sel)
	require.NoError(t, err)
	var fields map[string]any
	require.NoError(t, json.Unmarshal(js, &fields))
	assert.Equal(t, map[string]any{
		"path": "manuscript/01-dawn.md", "title": "Dawn", "hash": sha256Of(secretSentence),
		"words": float64(10), "sourceWords": float64(11),
	}, fields)

	outputs := map[string]string{"json": string(js)}
	valueJS, err := json.Marshal(*sel)
	require.NoError(t, err)
	outputs["json of a value"] = string(valueJS)
	assert.JSONEq(t, string(js), string(valueJS))
	nested, err := json.Marshal(struct {
		Sel   *Selection
		Value Selection
		Place Place
	}{sel, *sel, Place{Current: sel.Path, Selection: sel}})
	require.NoError(t, err)
	outputs["json nested"] = string(nested)

	for _, verb := range []string{"%v", "%+v", "%#v", "%s"} {
		outputs["fmt "+verb] = fmt.Sprintf(verb, sel)
		outputs["fmt "+verb+" of a value"] = fmt.Sprintf(verb, *sel)
		outputs["fmt "+verb+" of a turn"] = fmt.Sprintf(verb, Place{Current: sel.Path, Selection: sel})
	}
	outputs["String"] = sel.String()

	for name, h := range map[string]func(*bytes.Buffer) slog.Handler{
		"text": func(b *bytes.Buffer) slog.Handler { return slog.NewTextHandler(b, nil) },
		"json": func(b *bytes.Buffer) slog.Handler { return slog.NewJSONHandler(b, nil) },
	} {
		var buf bytes.Buffer
		log := slog.New(h(&buf))
		log.Info("captured", "selection", sel)
		log.Info("captured", "selection", *sel)
		log.Info("captured", slog.Any("turn", Place{Current: sel.Path, Selection: sel}))
		outputs["slog "+name] = buf.String()
		assert.Contains(t, buf.String(), sel.Hash, name)
	}

	for name, out := range outputs {
		assert.NotContains(t, out, "lighthouse", name)
		assert.Contains(t, out, "manuscript/01-dawn.md", name)
	}
	assert.Equal(t, secretSentence, sel.Text(), "the tool still reads it")
}
