package tools

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Tool groups a persona's scope names. A group stands for the tools it
// lists, so a scope stays right when a group gains a tool.
const (
	GroupManuscriptRead = "manuscript_read"
	GroupCanonRead      = "canon_read"
	GroupCanonPropose   = "canon_propose"
	// GroupDialogueRead is get_dialogue: who says what, read through
	// the codex's characters (so not for a reader blind to canon).
	GroupDialogueRead = "dialogue_read"
	// GroupOutlineRead is get_outline: the book's chapters and scenes
	// with the writer's synopses, the compact view of a whole book.
	GroupOutlineRead = "outline_read"
)

// The names of the tools, as the model calls them.
const (
	ManuscriptName = "get_manuscript_context"
	SearchName     = "search_codex"
	ListName       = "list_codex_entries"
	DialogueName   = "get_dialogue"
)

var (
	canonNames = []string{
		"get_character_context", "get_location_context", "get_organization_context", "get_item_context",
		"get_concept_context", "get_event_context", "get_style_context",
	}
	proposeNames = []string{"propose_codex_update", "propose_codex_create", "propose_character_update"}
)

// CanonNames are the get_<type>_context tools, one per built-in type.
func CanonNames() []string { return slices.Clone(canonNames) }

// ProposeNames are the propose tools, in the order the model is shown
// them.
func ProposeNames() []string { return slices.Clone(proposeNames) }

// toolGroups lists each built-in group's tools.
var toolGroups = map[string][]string{
	GroupManuscriptRead: {ManuscriptName},
	GroupCanonRead:      append(slices.Clone(canonNames), ListName, SearchName),
	GroupCanonPropose:   slices.Clone(proposeNames),
	GroupDialogueRead:   {DialogueName},
	GroupOutlineRead:    {OutlineName},
}

// Groups returns the built-in groups and their tools, for listing and
// for checking configuration.
func Groups() map[string][]string {
	out := make(map[string][]string, len(toolGroups))
	for g, tools := range toolGroups {
		out[g] = slices.Clone(tools)
	}
	return out
}

// Scope is the set of tools a persona may call, resolved in a fixed
// order: the tools of Groups, then Include added, then Exclude removed,
// then the tools of the MCP servers named in MCP added (a server's tools
// are never in a group, so an exclude cannot reach them by accident).
type Scope struct {
	Groups  []string `yaml:"groups" json:"groups,omitempty"`
	Include []string `yaml:"include" json:"include,omitempty"`
	Exclude []string `yaml:"exclude" json:"exclude,omitempty"`
	// MCP names servers of quire.yaml's mcp_servers whose tools join.
	MCP []string `yaml:"mcp" json:"mcp,omitempty"`
}

// IsZero reports whether the scope says nothing, so a default applies.
func (s Scope) IsZero() bool {
	return len(s.Groups)+len(s.Include)+len(s.Exclude)+len(s.MCP) == 0
}

// Resolve is the scope's tools in resolution order; mcpTools gives each
// named MCP server's tool names (nil when there are none).
func (s Scope) Resolve(mcpTools func(server string) []string) []string {
	var out []string
	add := func(name string) {
		if !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	for _, g := range s.Groups {
		for _, t := range toolGroups[g] {
			add(t)
		}
	}
	for _, t := range s.Include {
		add(t)
	}
	out = slices.DeleteFunc(out, func(t string) bool { return slices.Contains(s.Exclude, t) })
	if mcpTools != nil {
		for _, server := range s.MCP {
			for _, t := range mcpTools(server) {
				add(t)
			}
		}
	}
	return out
}

// Check reports the names in the scope that are neither a group nor one of
// the known tools, one message each, in the order they appear.
func (s Scope) Check(known []string) []string {
	var problems []string
	for _, g := range s.Groups {
		if _, ok := toolGroups[g]; !ok {
			problems = append(problems, fmt.Sprintf("unknown tool group %q (groups: %s)", g, strings.Join(groupNames(), ", ")))
		}
	}
	for _, list := range [][]string{s.Include, s.Exclude} {
		for _, t := range list {
			if !slices.Contains(known, t) {
				problems = append(problems, fmt.Sprintf("unknown tool %q", t))
			}
		}
	}
	return problems
}

func groupNames() []string {
	names := make([]string, 0, len(toolGroups))
	for g := range toolGroups {
		names = append(names, g)
	}
	sort.Strings(names)
	return names
}

// BuiltinNames are the names of the advisor's own tools (this package's).
func BuiltinNames() []string {
	var out []string
	for _, g := range []string{GroupManuscriptRead, GroupCanonRead, GroupDialogueRead, GroupOutlineRead, GroupCanonPropose} {
		out = append(out, toolGroups[g]...)
	}
	return out
}
