package codex

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/quire-ink/quire/codex/settings"
)

// Glob is one compiled pattern: slash-separated segments matched with
// path.Match, where a "**" segment spans any number of folders.
type Glob struct {
	pattern  string
	segments []string
}

// CompileGlob compiles a project-relative glob. It must stay inside the
// project: no leading "/", no "..".
func CompileGlob(pattern string) (Glob, error) {
	p := strings.TrimPrefix(strings.TrimSpace(strings.ReplaceAll(pattern, "\\", "/")), "./")
	if p == "" {
		return Glob{}, fmt.Errorf("glob %q: empty", pattern)
	}
	segs := strings.Split(p, "/")
	// A ".." anywhere climbs, a trailing one included ("manuscript/..").
	if strings.HasPrefix(p, "/") || slices.Contains(segs, "..") {
		return Glob{}, fmt.Errorf("glob %q: must stay inside the project", pattern)
	}
	for _, s := range segs {
		if s == "**" {
			continue
		}
		if _, err := path.Match(s, ""); err != nil {
			return Glob{}, fmt.Errorf("glob %q: %w", pattern, err)
		}
	}
	return Glob{pattern: pattern, segments: segs}, nil
}

// Base is the folder the pattern's fixed prefix names: the walk for it
// starts there, not at the project root.
func (g Glob) Base() string {
	var fixed []string
	for _, s := range g.segments[:len(g.segments)-1] {
		if s == "**" || strings.ContainsAny(s, "*?[\\") {
			break
		}
		fixed = append(fixed, s)
	}
	return path.Join(fixed...)
}

// Match reports whether the project-relative, slash-separated rel matches.
func (g Glob) Match(rel string) bool {
	return matchGlobSegments(g.segments, strings.Split(rel, "/"))
}

// matchGlobSegments matches path segments against pattern segments. It
// works through the pairs of positions once each (a "**" either ends here
// or swallows one more segment), so a pattern of many "**" stays linear
// in the pairs rather than exponential in the stars.
func matchGlobSegments(pat, name []string) bool {
	// can[j] says whether pat[i:] matches name[j:], for the current i,
	// computed from the last pattern segment back to the first.
	can := make([]bool, len(name)+1)
	can[len(name)] = true
	for i := len(pat) - 1; i >= 0; i-- {
		next := make([]bool, len(name)+1)
		for j := len(name); j >= 0; j-- {
			switch {
			case pat[i] == "**":
				next[j] = can[j] || (j < len(name) && next[j+1])
			case j < len(name):
				ok, _ := path.Match(pat[i], name[j])
				next[j] = ok && can[j+1]
			}
		}
		can = next
	}
	return can[0]
}

func compileCodexGlobs(patterns []string) ([]Glob, error) {
	var out []Glob
	for _, p := range patterns {
		g, err := CompileGlob(p)
		if err != nil {
			return nil, fmt.Errorf("codex %w", err)
		}
		out = append(out, g)
	}
	return out, nil
}

// GlobsFromText reads the `codex:` globs from the text of a quire.yaml (one
// glob or a list); none means entries are looked for everywhere.
func GlobsFromText(data []byte) ([]string, error) {
	n, err := TopLevelValue(data, "codex")
	if err != nil {
		return nil, fmt.Errorf("quire.yaml: %w", err)
	}
	return GlobsFromNode(n)
}

// GlobsFromNode reads the `codex:` section of a quire.yaml (its value:
// one glob or a list); nil means entries are looked for everywhere.
// Problems are *settings.Problem, at the section's line.
func GlobsFromNode(n *yaml.Node) ([]string, error) {
	if n == nil {
		return nil, nil
	}
	var globs []string
	switch n.Kind {
	case yaml.ScalarNode:
		globs = []string{n.Value}
	case yaml.SequenceNode:
		if err := n.Decode(&globs); err != nil {
			return nil, settings.At(n, "codex must be a glob or a list of globs")
		}
	default:
		return nil, settings.At(n, "codex must be a glob or a list of globs")
	}
	if _, err := compileCodexGlobs(globs); err != nil {
		return nil, settings.At(n, "%v", err)
	}
	return globs, nil
}
