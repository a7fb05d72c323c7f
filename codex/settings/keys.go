package settings

import (
	"slices"

	"go.yaml.in/yaml/v3"
)

// Keys are the top-level keys of a settings file that quire reads; each
// is handed to its owner (the advisor's sections to llm, traits: and
// checks: to continuity, manuscript: and codex: to their globs, build:
// to manuscript/export, series: to codex.SeriesOf, goals: to
// manuscript/goals, dialogue: to manuscript/dialogue, outline: to manuscript, snapshots: to
// manuscript/snapshot).
var Keys = []string{"title", "genre", "audience", "manuscript", "build", "provider", "rules", "personas", "limits", "actions", "mcp_servers", "tool_groups", "codex", "traits", "checks", "spelling", "series", "goals", "dialogue", "outline", "snapshots"}

// UnknownKeys are the problems of the top-level keys f sets that quire
// does not read: a misspelt setting is otherwise silently ignored. They
// are warnings: the rest of the file stands.
func (f *File) UnknownKeys() []*Problem {
	var out []*Problem
	for _, k := range f.Keys() {
		if !slices.Contains(Keys, k.Value) {
			out = append(out, f.At(k, "unknown setting %q; quire ignores it", k.Value))
		}
	}
	return out
}

// At is a problem of f at n, named with f's name: the book's quire.yaml
// or the path of the writer's config.yaml, so that a problem says the
// file it is in.
func (f *File) At(n *yaml.Node, format string, args ...any) *Problem {
	p := At(n, format, args...)
	if f != nil && f.Name != "" {
		p.File = f.Name
	}
	return p
}
