package tools

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/llm/toolloop"
	"github.com/quire-ink/quire/llm/tools/toolstest"
	"github.com/quire-ink/quire/manuscript"
)

// sampleRoot is the sample book "The Thirteenth Bell" as `quire init
// --sample` writes it: Jory Fenwick's whereabouts change in chapters 1,
// 4 and 5, and chapter 5 gives Séverine brown eyes the codex says are
// pale green.
const sampleRoot = "../../cmd/quire/sample"

const (
	chapter4 = "manuscript/04-the-vault-beneath-the-light.md"
	chapter5 = "manuscript/05-salt-debt.md"
)

// openSample opens a copy of the sample book as an advisor turn does,
// with the writer in the document current ("" for none).
func openSample(t *testing.T, current string) (*Sources, []string) {
	t.Helper()
	store, snap, roots := toolstest.OpenCopy(t, sampleRoot)
	return &Sources{Store: store, Manuscript: snap, Place: manuscript.Place{Current: current}, story: &storyCache{}}, roots
}

// asOfOf is the asOf block of a successful lookup; nil when it has none.
func asOfOf(t *testing.T, env map[string]any) map[string]any {
	t.Helper()
	require.Equal(t, true, env["ok"], "lookup failed: %v", env["errors"])
	data := env["data"].(map[string]any)
	a, _ := data["asOf"].(map[string]any)
	return a
}

func fieldOf(env map[string]any, key string) any {
	fields, _ := env["data"].(map[string]any)["fields"].(map[string]any)
	return fields[key]
}

func TestCanonContextAsOfExplicit(t *testing.T) {
	// The writer is in chapter 5; asOf overrides it.
	b, roots := openSample(t, chapter5)
	for _, ref := range []string{"4", "The Vault Beneath the Light", chapter4} {
		t.Run(ref, func(t *testing.T) {
			env := call(t, b, roots, "get_character_context", `{"name":"Jory Fenwick","asOf":`+quoteJSON(ref)+`}`)
			a := asOfOf(t, env)
			require.NotNil(t, a, "an explicit asOf answers as of that chapter")
			assert.Equal(t, `4 "The Vault Beneath the Light"`, a["chapter"])
			assert.Equal(t, chapter4, a["path"])
			assert.Nil(t, a["implied"], "asOf was given")
			assert.Len(t, asSlice(a["applied"]), 2, "the progressions from chapters 1 and 4 hold; the one from 5 not yet")
			assert.Len(t, asSlice(a["notes"]), 2)
			assert.Contains(t, a["note"], "As of chapter 4")
			assert.Equal(t, "a ledge in the Skerry Vault, with a broken leg", fieldOf(env, "whereabouts"))
			assert.Equal(t, "67", fieldOf(env, "age"), "fields no progression changes stay as written")
		})
	}

	env := call(t, b, roots, "get_character_context", `{"name":"Jory Fenwick","asOf":"1"}`)
	assert.Equal(t, "missing", fieldOf(env, "whereabouts"))
	assert.Len(t, asSlice(asOfOf(t, env)["applied"]), 1)

	// An entry with no progressions says it reads as written.
	env = call(t, b, roots, "get_character_context", `{"name":"Teodora Quill","asOf":"2"}`)
	a := asOfOf(t, env)
	require.NotNil(t, a)
	assert.Empty(t, asSlice(a["applied"]))
	assert.Contains(t, a["note"], "no progressions")
}

func TestCanonContextAsOfImplied(t *testing.T) {
	b, roots := openSample(t, chapter5)
	env := call(t, b, roots, "get_character_context", `{"name":"Jory Fenwick"}`)
	a := asOfOf(t, env)
	require.NotNil(t, a, "in a chapter, an omitted asOf means that chapter")
	assert.Equal(t, `5 "Salt-Debt"`, a["chapter"])
	assert.Equal(t, true, a["implied"])
	assert.Contains(t, a["note"], "This is the chapter the writer is in")
	assert.Equal(t, "the Hook and Hawser, in Betts's best room", fieldOf(env, "whereabouts"))

	// A selection places the writer in its document.
	sel, err := b.Manuscript.CaptureSelection(chapter4, codex.Range{Start: 0, End: 40})
	require.NoError(t, err)
	b.Place = manuscript.Place{Selection: sel}
	env = call(t, b, roots, "get_location_context", `{"name":"Gannet Light"}`)
	assert.Equal(t, `4 "The Vault Beneath the Light"`, asOfOf(t, env)["chapter"])
	assert.Equal(t, "dark", fieldOf(env, "light"))

	// Outside any chapter the entry is answered as written, as before.
	b.Place = manuscript.Place{}
	env = call(t, b, roots, "get_character_context", `{"name":"Jory Fenwick"}`)
	assert.Nil(t, asOfOf(t, env))
	assert.Nil(t, env["data"].(map[string]any)["fields"])
}

func TestCanonContextBadAsOf(t *testing.T) {
	b, roots := openSample(t, chapter5)
	tests := []struct {
		name, args, code, says string
	}{
		{"no such chapter", `{"name":"Jory Fenwick","asOf":"99"}`, toolloop.CodeNotFound, "asOf"},
		{"no such title", `{"name":"Jory Fenwick","asOf":"The Drowned Orchard"}`, toolloop.CodeNotFound, "asOf"},
		{"outside the project", `{"name":"Jory Fenwick","asOf":"../../etc/passwd.md"}`, toolloop.CodeOutOfScope, "asOf"},
		{"not a chapter", `{"name":"Jory Fenwick","asOf":"codex/characters/jory-fenwick.md"}`, toolloop.CodeInvalidArguments, "not a chapter"},
		{"blank", `{"name":"Jory Fenwick","asOf":"  "}`, toolloop.CodeInvalidArguments, "asOf is empty"},
		{"not text", `{"name":"Jory Fenwick","asOf":4}`, toolloop.CodeInvalidArguments, "schema"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			env := call(t, b, roots, "get_character_context", tc.args)
			assert.Equal(t, false, env["ok"])
			code, msg, _ := errorOf(t, env)
			assert.Equal(t, tc.code, code)
			assert.Contains(t, msg, tc.says)
		})
	}
}

func TestCanonContextSchemaTakesAsOf(t *testing.T) {
	b, _ := openSample(t, "")
	for _, tool := range Read(b) {
		props := tool.Parameters["properties"].(map[string]any)
		_, has := props["asOf"]
		switch tool.Name {
		case "get_manuscript_context", "list_codex_entries", "search_codex", DialogueName, OutlineName:
			assert.False(t, has, tool.Name)
		default:
			assert.True(t, has, tool.Name)
			assert.Equal(t, []string{"name"}, tool.Parameters["required"], "%s: asOf is optional", tool.Name)
			assert.Contains(t, tool.Description, "asOf", tool.Name)
		}
	}
}

func quoteJSON(s string) string {
	out := []byte{'"'}
	for _, r := range s {
		if r == '"' || r == '\\' {
			out = append(out, '\\')
		}
		out = append(out, string(r)...)
	}
	return string(append(out, '"'))
}

// TestStoryTimeIsBuiltOncePerBook: the canon over story time costs in
// proportion to the codex, so a book builds it once for the codex and
// manuscript it reads, and again only when the manuscript changes.
func TestStoryTimeIsBuiltOncePerBook(t *testing.T) {
	b, _ := openSample(t, chapter5)
	first := b.timeline()
	require.NotNil(t, first)
	assert.Same(t, first, b.timeline())

	m, err := manuscript.Open(context.Background(), b.Store.Root(), manuscript.Options{Catalog: b.Store.Catalog()})
	require.NoError(t, err)
	b.Manuscript = m.Snapshot()
	assert.NotSame(t, first, b.timeline(), "another manuscript snapshot, another timeline")

	long := &Sources{Store: b.Store, Snapshots: m.Snapshot}
	Read(long)
	require.NotNil(t, long.story, "long-lived sources' tools share one cache")
}
