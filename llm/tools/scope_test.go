package tools

import (
	"testing"

	"github.com/stretchr/testify/assert"
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
	assert.Equal(t, []string{`unknown tool group "all" (groups: canon_propose, canon_read, manuscript_read)`, `unknown tool "get_timeline"`},
		Scope{Groups: []string{"all", GroupCanonRead}, Exclude: []string{"get_timeline", "search_codex"}}.Check(BuiltinNames()))
	assert.Len(t, BuiltinNames(), 13)
}
