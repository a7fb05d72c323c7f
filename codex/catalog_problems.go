package codex

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Problems lists every codex problem, sorted by file and position: what
// parsing found in each entry and its soul, files skipped as unreadable,
// names or aliases claimed by more than one entry, and links to entries
// or sections that do not exist. Each is reported in the file where the
// writer can fix it.
func (c *Catalog) Problems() []Problem { return c.problems() }

// ProblemsIn lists the problems of one file.
func (c *Catalog) ProblemsIn(path string) []Problem {
	all := c.problems()
	lo, _ := slices.BinarySearchFunc(all, path, func(p Problem, path string) int {
		return strings.Compare(p.Path, path)
	})
	hi := lo
	for hi < len(all) && all[hi].Path == path {
		hi++
	}
	return all[lo:hi]
}

func (c *Catalog) findProblems(skipped []Problem) []Problem {
	out := slices.Clone(skipped)
	for _, e := range c.sorted {
		out = append(out, e.Problems...)
		if e.Soul != nil {
			out = append(out, e.Soul.Problems...)
		}
	}
	type claim struct {
		entry *Entry
		what  string
		// alias is the index of the alias in the entry, -1 for its name.
		alias int
		r     Range
	}
	claims := map[string][]claim{}
	var order []string
	for _, e := range c.sorted {
		mine := map[string]bool{}
		stake := func(k, what string, alias int, r Range) {
			if k == "" || mine[k] {
				return
			}
			mine[k] = true
			if _, ok := claims[k]; !ok {
				order = append(order, k)
			}
			claims[k] = append(claims[k], claim{e, what, alias, r})
		}
		k := c.keys.at(e)
		stake(k.name, "name", -1, e.NameRange)
		for i, a := range k.aliases {
			r := Range{}
			if i < len(e.AliasRanges) {
				r = e.AliasRanges[i]
			}
			stake(a, "alias", i, r)
		}
	}
	for _, k := range order {
		cs := claims[k]
		if len(cs) < 2 {
			continue
		}
		for _, mine := range cs {
			// A name many entries claim names a few of them and counts
			// the rest, so that each problem stays short however many
			// entries share it.
			var others []string
			more := 0
			for _, other := range cs {
				switch {
				case other.entry == mine.entry:
				case len(others) < maxClaimsNamed:
					others = append(others, fmt.Sprintf("%s of %s (%s)", other.what, other.entry.Name, other.entry.ID))
				default:
					more++
				}
			}
			also := strings.Join(others, " and the ")
			if more > 0 {
				also = fmt.Sprintf("%s, and of %d more entries", strings.Join(others, ", the "), more)
			}
			out = append(out, Problem{Path: mine.entry.ID, Code: CodeDuplicateName, Severity: SeverityWarning,
				Message: fmt.Sprintf("%s %q is also the %s; mentions of it are ambiguous",
					mine.what, mine.entry.displayKey(k, mine.alias), also),
				Range: mine.r})
		}
	}
	// Many links share a target; resolve each target once.
	resolved := map[string]*Entry{}
	for _, e := range c.sorted {
		out = c.linkProblems(out, resolved, e.ID, e.Links)
		if e.Soul != nil {
			out = c.linkProblems(out, resolved, e.Soul.ID, e.Soul.Links)
		}
	}
	slices.SortStableFunc(out, func(a, b Problem) int {
		return cmp.Or(strings.Compare(a.Path, b.Path), cmp.Compare(a.Range.Start, b.Range.Start))
	})
	return CapProblems(out)
}

// displayKey is the name or alias as the entry writes it.
func (e *Entry) displayKey(norm string, alias int) string {
	switch {
	case alias < 0:
		return e.Name
	case alias < len(e.Aliases):
		return e.Aliases[alias]
	}
	return norm
}

// LinkProblems are the problems of the links of the file at path (an
// entry's as edited, a chapter's): a link that names no entry, or a
// section its entry does not have, as the codex's own are reported.
func (c *Catalog) LinkProblems(path string, links []Link) []Problem {
	if len(links) == 0 {
		return nil
	}
	return c.linkProblems(nil, map[string]*Entry{}, path, links)
}

func (c *Catalog) linkProblems(out []Problem, resolved map[string]*Entry, path string, links []Link) []Problem {
	for _, l := range links {
		name := l.LinkName()
		target, ok := resolved[name]
		if !ok {
			target, _ = c.Resolve(name)
			resolved[name] = target
		}
		if target == nil {
			out = append(out, Problem{Path: path, Code: CodeBrokenLink, Severity: SeverityWarning,
				Message: fmt.Sprintf("no codex entry is named %q", name), Range: l.TargetRange})
			continue
		}
		if sec := l.LinkSection(); sec != "" {
			if _, ok := target.Section(sec); !ok {
				out = append(out, Problem{Path: path, Code: CodeBrokenLink, Severity: SeverityWarning,
					Message: fmt.Sprintf("%s has no section %q", target.Name, sec), Range: l.TargetRange})
			}
		}
	}
	return out
}
