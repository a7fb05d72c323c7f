package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/llm/provider"
	"github.com/quire-ink/quire/llm/toolloop"
	"github.com/quire-ink/quire/llm/tools/toolstest"
	"github.com/quire-ink/quire/manuscript"
)

// openBook opens the project as an advisor turn does; the roots it
// returns are every spelling of the project folder no output may hold.
func openBook(t *testing.T, files map[string]string) (*Sources, []string) {
	t.Helper()
	store, snap, roots := toolstest.Open(t, files)
	return &Sources{Store: store, Manuscript: snap, Place: manuscript.Place{Current: "manuscript/02-slack-water.md"}}, roots
}

var (
	bookFiles    = toolstest.Files
	writeProject = toolstest.WriteProject
	entryFile    = toolstest.EntryFile
)

func toolNamed(t *testing.T, tools []provider.Tool, name string) provider.Tool {
	t.Helper()
	for _, tool := range tools {
		if tool.Name == name {
			return tool
		}
	}
	require.Failf(t, "no such tool", "%s", name)
	return provider.Tool{}
}

// call runs a tool as the dispatcher would and returns its envelope as
// the model reads it, checking that no spelling of the project folder
// got into it.
func call(t *testing.T, b *Sources, roots []string, name, args string) map[string]any {
	t.Helper()
	tool := toolNamed(t, Read(b), name)
	data, warnings, err := tool.Run(context.Background(), json.RawMessage(args))
	raw, merr := json.Marshal(toolloop.EnvelopeOf(data, warnings, err))
	require.NoError(t, merr)
	for _, r := range roots {
		require.NotContains(t, string(raw), r, "%s %s leaks the project folder", name, args)
	}
	var env map[string]any
	require.NoError(t, json.Unmarshal(raw, &env))
	return env
}

func errorOf(t *testing.T, env map[string]any) (code, message string, candidates []string) {
	t.Helper()
	errs, _ := env["errors"].([]any)
	require.Len(t, errs, 1, "want one error in %v", env)
	e := errs[0].(map[string]any)
	for _, c := range asSlice(e["candidates"]) {
		candidates = append(candidates, c.(string))
	}
	return e["code"].(string), e["message"].(string), candidates
}

func asSlice(v any) []any {
	s, _ := v.([]any)
	return s
}

func warningsOf(env map[string]any) string {
	var ws []string
	for _, w := range asSlice(env["warnings"]) {
		ws = append(ws, w.(string))
	}
	return strings.Join(ws, "\n")
}

func TestReadToolsShape(t *testing.T) {
	b, _ := openBook(t, bookFiles())
	tools := Read(b)
	var names []string
	for _, tool := range tools {
		names = append(names, tool.Name)
		assert.NotEmpty(t, tool.Description, tool.Name)
		assert.NotNil(t, tool.Run, tool.Name)
		p := tool.Parameters
		assert.Equal(t, "object", p["type"], tool.Name)
		assert.Equal(t, false, p["additionalProperties"], tool.Name)
		assert.IsType(t, map[string]any{}, p["properties"], tool.Name)
		_, err := json.Marshal(p)
		assert.NoError(t, err, tool.Name)
	}
	assert.Equal(t, []string{
		"get_manuscript_context", "get_character_context", "get_location_context", "get_organization_context",
		"get_item_context", "get_concept_context", "get_event_context", "get_style_context",
		"list_codex_entries", "search_codex", "get_dialogue", "get_outline",
	}, names)

	dl := toolNamed(t, tools, DialogueName)
	assert.Equal(t, []string{"name"}, dl.Parameters["required"])
	for _, p := range []string{"name", "from", "to"} {
		prop := dl.Parameters["properties"].(map[string]any)[p].(map[string]any)
		assert.Equal(t, "string", prop["type"], p)
		assert.Equal(t, 1, prop["minLength"], p)
		assert.NotEmpty(t, prop["maxLength"], p)
	}
	for _, word := range []string{"name or alias", "from", "uncertain", "best guess", "left out", "get_manuscript_context"} {
		assert.Contains(t, dl.Description, word)
	}
	assert.NoError(t, toolloop.CheckParameters(dl.Parameters))

	mc := toolNamed(t, tools, "get_manuscript_context")
	assert.Equal(t, []string{"ref", "refs"}, mc.Parameters["x-exactly-one-of"])
	assert.NotContains(t, mc.Parameters, "required")
	for _, word := range []string{"current", "selection", "chapter number", "title", "project-relative path", "never invent"} {
		assert.Contains(t, mc.Description, word)
	}
	refs := mc.Parameters["properties"].(map[string]any)["refs"].(map[string]any)
	assert.Equal(t, manuscript.MaxRefs, refs["maxItems"])

	ch := toolNamed(t, tools, "get_character_context")
	assert.Equal(t, []string{"name"}, ch.Parameters["required"])
	name := ch.Parameters["properties"].(map[string]any)["name"].(map[string]any)
	assert.Equal(t, 1, name["minLength"])
	assert.Equal(t, 200, name["maxLength"])

	for _, n := range []string{"list_codex_entries", "search_codex"} {
		et := toolNamed(t, tools, n).Parameters["properties"].(map[string]any)["entryType"].(map[string]any)
		assert.Equal(t, []string{"character", "location", "organization", "item", "concept", "event", "style"}, et["enum"], n)
	}
	assert.Equal(t, []string{"entryType"}, toolNamed(t, tools, "list_codex_entries").Parameters["required"])
	assert.Equal(t, []string{"query"}, toolNamed(t, tools, "search_codex").Parameters["required"])
}

func TestManuscriptContext(t *testing.T) {
	b, roots := openBook(t, bookFiles())
	u, ok := b.Manuscript.Unit("manuscript/01-the-harbor.md")
	require.True(t, ok)
	start := strings.Index(u.Text, "Mara Vell walked")
	sel, err := manuscript.Capture(u, codex.Range{Start: start, End: start + len("Mara Vell walked the quay")})
	require.NoError(t, err)
	absChapter := filepath.Join(roots[0], "manuscript", "01-the-harbor.md")

	tests := []struct {
		name      string
		args      string
		noSel     bool
		wantCode  string
		wantPaths []string
		wantKinds []string
		wantText  string
		wantWarn  string
		wantCands []string
	}{
		{name: "number", args: `{"ref":"1"}`, wantPaths: []string{"manuscript/01-the-harbor.md"}, wantText: "walked the quay"},
		{name: "chapter word", args: `{"ref":"chapter 3"}`, wantPaths: []string{"manuscript/03-the-storm.md"}},
		{name: "title", args: `{"ref":"slack water"}`, wantPaths: []string{"manuscript/02-slack-water.md"}},
		{name: "path", args: `{"ref":"manuscript/03-the-storm.md"}`, wantPaths: []string{"manuscript/03-the-storm.md"}},
		{name: "document outside the manuscript", args: `{"ref":"notes/ideas.md"}`, wantPaths: []string{"notes/ideas.md"}, wantKinds: []string{"document"}},
		{name: "current", args: `{"ref":"current"}`, wantPaths: []string{"manuscript/02-slack-water.md"}, wantText: "tide stood still"},
		{name: "selection", args: `{"ref":"selection"}`, wantPaths: []string{"manuscript/01-the-harbor.md"}, wantKinds: []string{"selection"}, wantText: "Mara Vell walked the quay"},
		{name: "comparison", args: `{"refs":["1","Slack Water","manuscript/03-the-storm.md"]}`, wantPaths: []string{"manuscript/01-the-harbor.md", "manuscript/02-slack-water.md", "manuscript/03-the-storm.md"}},
		{name: "same unit twice", args: `{"refs":["2","current"]}`, wantPaths: []string{"manuscript/02-slack-water.md"}},
		{name: "partial failure", args: `{"refs":["1","99"]}`, wantPaths: []string{"manuscript/01-the-harbor.md"}, wantWarn: `"99"`},
		{name: "refused ref among good ones", args: `{"refs":["2","../x.md"]}`, wantPaths: []string{"manuscript/02-slack-water.md"}, wantWarn: `"../x.md"`},
		{name: "no such chapter", args: `{"ref":"99"}`, wantCode: toolloop.CodeNotFound, wantCands: []string{`3 "The Storm" (manuscript/03-the-storm.md)`}},
		{name: "no such title", args: `{"ref":"The Lighthouse Keeper's Daughter"}`, wantCode: toolloop.CodeNotFound},
		{name: "missing file", args: `{"ref":"manuscript/09-nowhere.md"}`, wantCode: toolloop.CodeNotFound},
		{name: "ambiguous title prefix", args: `{"ref":"the"}`, wantCode: toolloop.CodeAmbiguous, wantCands: []string{`1 "The Harbor" (manuscript/01-the-harbor.md)`, `3 "The Storm" (manuscript/03-the-storm.md)`}},
		{name: "no selection", args: `{"ref":"selection"}`, noSel: true, wantCode: toolloop.CodeNotFound},
		{name: "climbs out", args: `{"ref":"../x.md"}`, wantCode: toolloop.CodeOutOfScope},
		{name: "absolute", args: `{"ref":"/etc/passwd"}`, wantCode: toolloop.CodeOutOfScope},
		{name: "url-encoded", args: `{"ref":"%2e%2e/x.md"}`, wantCode: toolloop.CodeOutOfScope},
		{name: "absolute inside the project", args: fmt.Sprintf(`{"ref":%q}`, absChapter), wantCode: toolloop.CodeOutOfScope},
		{name: "home folder", args: `{"ref":"~/book/x.md"}`, wantCode: toolloop.CodeOutOfScope},
		{name: "not markdown", args: `{"ref":"secret.txt"}`, wantCode: toolloop.CodeOutOfScope},
		{name: "hidden", args: `{"ref":".git/config.md"}`, wantCode: toolloop.CodeOutOfScope},
		{name: "all refs refused", args: `{"refs":["../a.md","/etc/passwd"]}`, wantCode: toolloop.CodeOutOfScope},
		{name: "both", args: `{"ref":"1","refs":["2"]}`, wantCode: toolloop.CodeInvalidArguments},
		{name: "neither", args: `{}`, wantCode: toolloop.CodeInvalidArguments},
		{name: "null", args: `null`, wantCode: toolloop.CodeInvalidArguments},
		{name: "empty ref", args: `{"ref":"  "}`, wantCode: toolloop.CodeInvalidArguments},
		{name: "empty refs", args: `{"refs":[]}`, wantCode: toolloop.CodeInvalidArguments},
		{name: "too many refs", args: `{"refs":["1","2","3","1","2","3","1","2","3"]}`, wantCode: toolloop.CodeInvalidArguments},
		{name: "unknown field", args: `{"ref":"1","path":"/etc/passwd"}`, wantCode: toolloop.CodeInvalidArguments},
		{name: "wrong type", args: `{"ref":3}`, wantCode: toolloop.CodeInvalidArguments},
		{name: "bad json", args: `{"ref":`, wantCode: toolloop.CodeInvalidArguments},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bb := *b
			if !tt.noSel {
				bb.Place.Selection = sel
			}
			env := call(t, &bb, roots, "get_manuscript_context", tt.args)
			if tt.wantCode != "" {
				assert.Equal(t, false, env["ok"])
				assert.Nil(t, env["data"])
				code, msg, cands := errorOf(t, env)
				assert.Equal(t, tt.wantCode, code, msg)
				assert.NotEmpty(t, msg)
				for _, c := range tt.wantCands {
					assert.Contains(t, cands, c)
				}
				return
			}
			require.Equal(t, true, env["ok"], "%v", env["errors"])
			data := env["data"].(map[string]any)
			units := asSlice(data["units"])
			require.Len(t, units, len(tt.wantPaths))
			for i, p := range tt.wantPaths {
				unit := units[i].(map[string]any)
				assert.Equal(t, p, unit["path"])
				if tt.wantKinds != nil {
					assert.Equal(t, tt.wantKinds[i], unit["kind"])
				}
			}
			if tt.wantText != "" {
				assert.Contains(t, units[0].(map[string]any)["text"], tt.wantText)
			}
			if tt.wantWarn != "" {
				assert.Contains(t, warningsOf(env), tt.wantWarn)
				assert.NotEmpty(t, asSlice(data["failed"]))
			} else {
				assert.Empty(t, env["warnings"])
			}
		})
	}
}

func TestManuscriptContextTruncates(t *testing.T) {
	files := bookFiles()
	files["manuscript/04-long.md"] = "# Long\n\n" + strings.Repeat("The sea went on and on. ", 400)
	b, roots := openBook(t, files)
	b.Limits = manuscript.Limits{Unit: 500}
	env := call(t, b, roots, "get_manuscript_context", `{"ref":"4"}`)
	require.Equal(t, true, env["ok"])
	data := env["data"].(map[string]any)
	assert.Equal(t, true, data["truncated"])
	assert.Contains(t, warningsOf(env), "cut")
	text := asSlice(data["units"])[0].(map[string]any)["text"].(string)
	assert.Less(t, len(text), 1000)
}

func TestCanonContext(t *testing.T) {
	b, roots := openBook(t, bookFiles())
	tests := []struct {
		tool, args string
		wantCode   string
		wantName   string
		wantPath   string
		wantSoul   bool
		wantAlso   []string
		wantWarn   string
	}{
		{tool: "get_character_context", args: `{"name":"Mara Vell"}`, wantName: "Mara Vell", wantPath: "codex/characters/mara-vell/index.md", wantSoul: true},
		{tool: "get_character_context", args: `{"name":"mara's"}`, wantName: "Mara Vell"},
		{tool: "get_character_context", args: `{"name":"the widow"}`, wantName: "Anne Marsh", wantAlso: []string{"Mara Vell"}, wantWarn: "equally well"},
		{tool: "get_character_context", args: `{"name":"Mara Vel"}`, wantName: "Mara Vell"},
		{tool: "get_location_context", args: `{"name":"quay of lanterns"}`, wantName: "Quay of Lanterns", wantPath: "codex/locations/quay.md"},
		{tool: "get_organization_context", args: `{"name":"Dockhands Guild"}`, wantName: "Dockhands Guild"},
		{tool: "get_item_context", args: `{"name":"brass compass"}`, wantName: "Brass Compass"},
		{tool: "get_concept_context", args: `{"name":"Tide Debt"}`, wantName: "Tide Debt"},
		{tool: "get_event_context", args: `{"name":"The Great Storm"}`, wantName: "The Great Storm"},
		{tool: "get_style_context", args: `{"name":"Narrative Voice"}`, wantName: "Narrative Voice"},
		{tool: "get_location_context", args: `{"name":"Mara Vell"}`, wantCode: toolloop.CodeNotFound},
		{tool: "get_character_context", args: `{"name":"Zebedee Quill"}`, wantCode: toolloop.CodeNotFound},
		{tool: "get_character_context", args: `{"name":""}`, wantCode: toolloop.CodeInvalidArguments},
		{tool: "get_character_context", args: `{}`, wantCode: toolloop.CodeInvalidArguments},
		{tool: "get_character_context", args: fmt.Sprintf(`{"name":%q}`, strings.Repeat("x", 201)), wantCode: toolloop.CodeInvalidArguments},
		{tool: "get_character_context", args: `{"name":"Mara","type":"location"}`, wantCode: toolloop.CodeInvalidArguments},
		{tool: "get_character_context", args: `[1,2]`, wantCode: toolloop.CodeInvalidArguments},
	}
	for _, tt := range tests {
		t.Run(tt.tool+" "+tt.args, func(t *testing.T) {
			env := call(t, b, roots, tt.tool, tt.args)
			if tt.wantCode != "" {
				code, msg, _ := errorOf(t, env)
				assert.Equal(t, tt.wantCode, code, msg)
				if code == toolloop.CodeNotFound {
					assert.Contains(t, msg, "search_codex")
				}
				return
			}
			require.Equal(t, true, env["ok"], "%v", env["errors"])
			data := env["data"].(map[string]any)
			assert.Equal(t, tt.wantName, data["name"])
			assert.NotContains(t, data, "projectPath")
			assert.NotEmpty(t, data["relativePath"])
			assert.NotEmpty(t, data["excerpt"])
			assert.NotEmpty(t, data["match"])
			if tt.wantPath != "" {
				assert.Equal(t, tt.wantPath, data["relativePath"])
			}
			if tt.wantSoul {
				assert.Contains(t, data["soulExcerpt"], "still water")
				assert.Equal(t, "Smuggler who owes the sea a debt.", data["summary"])
				assert.Equal(t, []any{"Mara", "the Widow"}, data["aliases"])
			}
			for _, a := range tt.wantAlso {
				assert.Contains(t, asSlice(data["alsoMatching"]), a)
			}
			if tt.wantWarn != "" {
				assert.Contains(t, warningsOf(env), tt.wantWarn)
			}
		})
	}
}

func TestCanonContextNotFoundCandidates(t *testing.T) {
	b, roots := openBook(t, bookFiles())
	// No name is one typo from this, but the search finds the entry by its text.
	env := call(t, b, roots, "get_character_context", `{"name":"lighthouse"}`)
	code, _, cands := errorOf(t, env)
	assert.Equal(t, toolloop.CodeNotFound, code)
	assert.Equal(t, []string{"Anne Marsh"}, cands)
}

func TestListCodexEntries(t *testing.T) {
	b, roots := openBook(t, bookFiles())
	tests := []struct {
		args      string
		wantCode  string
		wantType  string
		wantNames []string
	}{
		{args: `{"entryType":"character"}`, wantType: "character", wantNames: []string{"Anne Marsh", "Mara Vell"}},
		{args: `{"entryType":"Characters"}`, wantType: "character", wantNames: []string{"Anne Marsh", "Mara Vell"}},
		{args: `{"entryType":"location"}`, wantType: "location", wantNames: []string{"Quay of Lanterns"}},
		{args: `{"entryType":"style"}`, wantType: "style", wantNames: []string{"Narrative Voice"}},
		{args: `{"entryType":"spell"}`, wantCode: toolloop.CodeInvalidArguments},
		{args: `{"entryType":""}`, wantCode: toolloop.CodeInvalidArguments},
		{args: `{}`, wantCode: toolloop.CodeInvalidArguments},
		{args: `{"entryType":"item","limit":5}`, wantCode: toolloop.CodeInvalidArguments},
	}
	for _, tt := range tests {
		t.Run(tt.args, func(t *testing.T) {
			env := call(t, b, roots, "list_codex_entries", tt.args)
			if tt.wantCode != "" {
				code, msg, _ := errorOf(t, env)
				assert.Equal(t, tt.wantCode, code, msg)
				return
			}
			require.Equal(t, true, env["ok"], "%v", env["errors"])
			data := env["data"].(map[string]any)
			assert.Equal(t, tt.wantType, data["entryType"])
			assert.EqualValues(t, len(tt.wantNames), data["count"])
			var names []string
			for _, e := range asSlice(data["entries"]) {
				entry := e.(map[string]any)
				names = append(names, entry["name"].(string))
				assert.NotEmpty(t, entry["relativePath"])
				assert.NotContains(t, entry, "projectPath")
				assert.NotContains(t, entry, "excerpt")
			}
			assert.ElementsMatch(t, tt.wantNames, names)
			assert.Empty(t, env["warnings"])
		})
	}
}

func TestListCodexEntriesCapped(t *testing.T) {
	files := map[string]string{}
	for i := range 205 {
		files[fmt.Sprintf("codex/items/item-%03d.md", i)] = entryFile(fmt.Sprintf("name: Item %03d", i), "An item.\n")
	}
	b, roots := openBook(t, files)
	env := call(t, b, roots, "list_codex_entries", `{"entryType":"items"}`)
	require.Equal(t, true, env["ok"])
	data := env["data"].(map[string]any)
	assert.EqualValues(t, 205, data["count"])
	assert.Len(t, asSlice(data["entries"]), 200)
	assert.Contains(t, warningsOf(env), "5 of 205")
	assert.Contains(t, warningsOf(env), "search_codex")
}

func TestSearchCodex(t *testing.T) {
	b, roots := openBook(t, bookFiles())
	tests := []struct {
		args      string
		wantCode  string
		wantFirst string
		wantNone  bool
		onlyType  string
	}{
		{args: `{"query":"lanterns"}`, wantFirst: "Quay of Lanterns"},
		{args: `{"query":"lighthouse","entryType":"character"}`, wantFirst: "Anne Marsh", onlyType: "character"},
		{args: `{"query":"lighthouse","entryType":"events"}`, wantFirst: "The Great Storm", onlyType: "event"},
		{args: `{"query":"zeppelin"}`, wantNone: true},
		{args: `{"query":"lanterns","entryType":"style"}`, wantNone: true},
		{args: `{"query":""}`, wantCode: toolloop.CodeInvalidArguments},
		{args: `{"query":"   "}`, wantCode: toolloop.CodeInvalidArguments},
		{args: `{}`, wantCode: toolloop.CodeInvalidArguments},
		{args: `{"query":"x","entryType":"spell"}`, wantCode: toolloop.CodeInvalidArguments},
		{args: fmt.Sprintf(`{"query":%q}`, strings.Repeat("tide ", 101)), wantCode: toolloop.CodeInvalidArguments},
	}
	for _, tt := range tests {
		t.Run(tt.args, func(t *testing.T) {
			env := call(t, b, roots, "search_codex", tt.args)
			if tt.wantCode != "" {
				code, msg, _ := errorOf(t, env)
				assert.Equal(t, tt.wantCode, code, msg)
				return
			}
			require.Equal(t, true, env["ok"], "%v", env["errors"])
			data := env["data"].(map[string]any)
			results := asSlice(data["results"])
			require.NotNil(t, data["results"])
			if tt.wantNone {
				assert.Empty(t, results)
				assert.Contains(t, warningsOf(env), "no ")
				return
			}
			require.NotEmpty(t, results)
			assert.LessOrEqual(t, len(results), codex.MaxSearchResults)
			assert.Equal(t, tt.wantFirst, results[0].(map[string]any)["name"])
			for _, r := range results {
				entry := r.(map[string]any)
				assert.NotContains(t, entry, "projectPath")
				if tt.onlyType != "" {
					assert.Equal(t, tt.onlyType, entry["type"])
				}
			}
		})
	}
}

func TestReadToolsWithoutABook(t *testing.T) {
	for _, tool := range Read(&Sources{}) {
		args := map[string]string{
			"get_manuscript_context": `{"ref":"1"}`,
			"list_codex_entries":     `{"entryType":"character"}`,
			"search_codex":           `{"query":"x"}`,
			"get_outline":            `{}`,
		}[tool.Name]
		if args == "" {
			args = `{"name":"x"}`
		}
		_, _, err := tool.Run(context.Background(), json.RawMessage(args))
		var te *toolloop.ToolError
		require.ErrorAs(t, err, &te, tool.Name)
		assert.Equal(t, toolloop.CodeToolFailed, te.Code, tool.Name)
	}
}
