package manuscript

import (
	"fmt"
	"path"
	"strings"
)

// DefaultGlobs find chapters when quire.yaml names none: every Markdown
// file under manuscript/, at any depth (parts may be folders).
var DefaultGlobs = []string{"manuscript/**/*.md", "manuscript/**/*.markdown"}

// glob is one compiled pattern: slash-separated segments matched with
// path.Match, where a "**" segment spans any number of folders.
type glob struct {
	pattern  string
	segments []string
}

func compileGlob(pattern string) (glob, error) {
	p := strings.TrimPrefix(strings.TrimSpace(strings.ReplaceAll(pattern, "\\", "/")), "./")
	if p == "" {
		return glob{}, fmt.Errorf("manuscript glob %q: empty", pattern)
	}
	if strings.HasPrefix(p, "/") || strings.HasPrefix(p, "../") || p == ".." || strings.Contains(p, "/../") {
		return glob{}, fmt.Errorf("manuscript glob %q: must stay inside the project", pattern)
	}
	segs := strings.Split(p, "/")
	for _, s := range segs {
		if s == "**" {
			continue
		}
		if _, err := path.Match(s, ""); err != nil {
			return glob{}, fmt.Errorf("manuscript glob %q: %w", pattern, err)
		}
	}
	return glob{pattern: pattern, segments: segs}, nil
}

// base is the folder the pattern's fixed prefix names: the walk for it
// starts there, not at the project root.
func (g glob) base() string {
	var fixed []string
	for _, s := range g.segments[:len(g.segments)-1] {
		if s == "**" || strings.ContainsAny(s, "*?[\\") {
			break
		}
		fixed = append(fixed, s)
	}
	return path.Join(fixed...)
}

func (g glob) match(rel string) bool {
	return matchSegments(g.segments, strings.Split(rel, "/"))
}

func matchSegments(pat, name []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			// Collapse runs of "**"; then try every split point.
			for len(pat) > 0 && pat[0] == "**" {
				pat = pat[1:]
			}
			if len(pat) == 0 {
				return true
			}
			for i := 0; i <= len(name); i++ {
				if matchSegments(pat, name[i:]) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], name[0]); !ok {
			return false
		}
		pat, name = pat[1:], name[1:]
	}
	return len(name) == 0
}
