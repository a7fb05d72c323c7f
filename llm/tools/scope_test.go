package tools

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestScopeResolve(t *testing.T) {
	mcp := func(server string) []string {
		return map[string][]string{"dict": {"mcp__dict__define", "mcp__dict__rhyme"}}[server]
	}
	tests := []struct {
		name  string
		scope Scope
		want  []string
	}{
		{name: "nothing", want: nil},
		{name: "a group", scope: Scope{Groups: []string{GroupManuscriptRead}}, want: []string{"get_manuscript_context"}},
		{name: "groups then include, once each",
			scope: Scope{Groups: []string{GroupManuscriptRead}, Include: []string{"search_codex", "get_manuscript_context"}},
			want:  []string{"get_manuscript_context", "search_codex"}},
		{name: "exclude comes after include",
			scope: Scope{Groups: []string{GroupCanonPropose}, Include: []string{"search_codex"}, Exclude: []string{"search_codex", "propose_codex_create"}},
			want:  []string{"propose_codex_update", "propose_character_update"}},
		{name: "mcp tools join last, out of reach of exclude",
			scope: Scope{Include: []string{"search_codex"}, Exclude: []string{"mcp__dict__define"}, MCP: []string{"dict", "nobody"}},
			want:  []string{"search_codex", "mcp__dict__define", "mcp__dict__rhyme"}},
		{name: "an unknown group gives nothing", scope: Scope{Groups: []string{"everything"}}, want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.scope.Resolve(mcp))
		})
	}
	assert.Equal(t, []string{`unknown tool group "all" (groups: canon_propose, canon_read, dialogue_read, manuscript_read, outline_read)`, `unknown tool "get_timeline"`},
		Scope{Groups: []string{"all", GroupCanonRead}, Exclude: []string{"get_timeline", "search_codex"}}.Check(BuiltinNames()))
	assert.Len(t, BuiltinNames(), 15)
	assert.Equal(t, []string{DialogueName}, Scope{Groups: []string{GroupDialogueRead}}.Resolve(nil))
}

// Every tool the package makes is in exactly one group, and every group
// and tool is named where docs/advisor.md tells the writer what a scope
// may name.
func TestGroupsCoverTheTools(t *testing.T) {
	var made []string
	for _, tool := range append(Read(nil), Propose(nil, nil)...) {
		made = append(made, tool.Name)
	}
	assert.ElementsMatch(t, made, BuiltinNames())
	in := map[string]int{}
	for _, tools := range Groups() {
		for _, tool := range tools {
			in[tool]++
		}
	}
	for _, name := range made {
		assert.Equal(t, 1, in[name], "%s is in one group", name)
	}
	doc, err := os.ReadFile("../../docs/advisor.md")
	require.NoError(t, err)
	groups := string(doc)[strings.Index(string(doc), "The groups are"):]
	groups = strings.Join(strings.Fields(groups[:strings.Index(groups, "\n\n")]), " ")
	// The page names each tool, or the family it belongs to.
	named := func(tool string) bool {
		return strings.Contains(groups, "`"+tool+"`") ||
			slices.Contains(CanonNames(), tool) && strings.Contains(groups, "`get_*_context`") ||
			slices.Contains(ProposeNames(), tool) && strings.Contains(groups, "propose tools")
	}
	for g, tools := range Groups() {
		assert.Contains(t, groups, "`"+g+"`", "docs/advisor.md names the group")
		for _, tool := range tools {
			assert.True(t, named(tool), "docs/advisor.md names %s in its group", tool)
		}
	}
}
