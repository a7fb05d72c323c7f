package codex

import (
	"path"
	"strings"
)

// Ignore decides which project paths quire never reads: dot-folders and
// dotfiles (.git, .obsidian, editor lock files), node_modules, and the
// patterns of the project's .gitignore, with gitignore's rules: the last
// matching pattern wins, "!" re-includes, a trailing "/" matches folders
// only, a pattern with an inner "/" is anchored at the root, "**" spans
// folders.
type Ignore struct {
	rules []ignoreRule
}

type ignoreRule struct {
	segments []string
	negate   bool
	dirOnly  bool
	anchored bool
}

// defaultIgnore holds the patterns every project ignores.
const defaultIgnore = ".*\nnode_modules/\n"

// ParseIgnore builds an Ignore from the default patterns followed by the
// lines of a .gitignore file (which may be empty).
func ParseIgnore(gitignore string) *Ignore {
	ig := &Ignore{}
	for _, line := range strings.Split(defaultIgnore+gitignore, "\n") {
		if r, ok := parseIgnoreLine(line); ok {
			ig.rules = append(ig.rules, r)
		}
	}
	return ig
}

func parseIgnoreLine(line string) (ignoreRule, bool) {
	line = strings.TrimSuffix(line, "\r")
	// A backslash makes a leading "#" or "!" literal; the escape is
	// remembered, or the "!" left behind would read as a negation.
	escaped := strings.HasPrefix(line, "\\#") || strings.HasPrefix(line, "\\!")
	if escaped {
		line = line[1:]
	} else if line == "" || strings.HasPrefix(line, "#") {
		return ignoreRule{}, false
	}
	// Trailing spaces are dropped unless escaped.
	for strings.HasSuffix(line, " ") && !strings.HasSuffix(line, "\\ ") {
		line = line[:len(line)-1]
	}
	var r ignoreRule
	if !escaped && strings.HasPrefix(line, "!") {
		r.negate = true
		line = line[1:]
	}
	if strings.HasSuffix(line, "/") {
		r.dirOnly = true
		line = strings.TrimRight(line, "/")
	}
	if strings.Contains(line, "/") {
		r.anchored = true
		line = strings.TrimLeft(line, "/")
	}
	if line == "" {
		return ignoreRule{}, false
	}
	r.segments = strings.Split(line, "/")
	return r, true
}

// Ignored reports whether the slash-separated project-relative path rel is
// ignored, itself or through one of its folders.
func (ig *Ignore) Ignored(rel string, isDir bool) bool {
	rel = strings.Trim(rel, "/")
	if rel == "" || rel == "." {
		return false
	}
	segs := strings.Split(rel, "/")
	for i := 1; i < len(segs); i++ {
		if ig.matches(segs[:i], true) {
			return true
		}
	}
	return ig.matches(segs, isDir)
}

// matches applies the rules to one path, ignoring its ancestors.
func (ig *Ignore) matches(segs []string, isDir bool) bool {
	ignored := false
	for _, r := range ig.rules {
		if r.dirOnly && !isDir {
			continue
		}
		var hit bool
		if r.anchored {
			hit = matchSegments(r.segments, segs)
		} else {
			hit = len(r.segments) == 1 && matchSegment(r.segments[0], segs[len(segs)-1])
		}
		if hit {
			ignored = !r.negate
		}
	}
	return ignored
}

func matchSegments(pattern, segs []string) bool {
	for len(pattern) > 0 {
		if pattern[0] == "**" {
			rest := pattern[1:]
			if len(rest) == 0 {
				// A trailing "/**" matches what is inside a folder, not the
				// folder itself, so "notes/**" with "!notes/keep.md" can
				// still re-include the one file, as in git.
				return len(segs) > 0
			}
			for i := 0; i <= len(segs); i++ {
				if matchSegments(rest, segs[i:]) {
					return true
				}
			}
			return false
		}
		if len(segs) == 0 || !matchSegment(pattern[0], segs[0]) {
			return false
		}
		pattern, segs = pattern[1:], segs[1:]
	}
	return len(segs) == 0
}

func matchSegment(pattern, name string) bool {
	ok, err := path.Match(pattern, name)
	return err == nil && ok
}
