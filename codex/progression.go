package codex

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Problem codes of story-time canon.
const (
	CodeProgression = "progression"
	CodeStyleRule   = "style-rule-format"
)

// Progression is a fact that holds from a chapter on: `from` names the
// chapter as the tools accept a reference (number, title or path), Note
// adds a line of canon from then on, and every other key replaces that
// field of the entry from then on.
type Progression struct {
	From      string `json:"from"`
	FromRange Range  `json:"fromRange"`
	Note      string `json:"note,omitempty"`
	// Changes are the replaced fields, keys as written, in order.
	Changes Fields `json:"changes,omitempty"`
	// Range covers the item's first line, where hover and problems point.
	Range Range `json:"range"`
	// File is the series file the progression is written in, absolute,
	// when a book entry overrides that series entry and the progression
	// is the series': its ranges are in that file, Source its text. Empty
	// for a progression in the entry's own file.
	File   string `json:"file,omitempty"`
	Source string `json:"-"`
}

// StyleRule is one rule of a style entry: avoid a form and prefer
// another, or keep a term in exactly one spelling.
type StyleRule struct {
	Avoid  string `json:"avoid,omitempty"`
	Prefer string `json:"prefer,omitempty"`
	Note   string `json:"note,omitempty"`
	// Term is the exact spelling; its variants of case, spacing and
	// hyphenation are flagged.
	Term string `json:"term,omitempty"`
	// Range covers the avoid or term value in the entry's file.
	Range Range `json:"range"`
}

// Story is what an entry's front matter says about story time: its
// progressions, its style rules, and the status as written (a status of
// life such as `dead` is no canon certainty, so Entry.Status cannot hold
// it).
type Story struct {
	// Status is the top-level `status` as written, lower-cased.
	Status       string        `json:"status,omitempty"`
	Progressions []Progression `json:"progressions,omitempty"`
	Rules        []StyleRule   `json:"rules,omitempty"`
	Problems     []Problem     `json:"problems,omitempty"`
}

// StoryOf reads the progressions and style rules of e from its source.
// Entries without either key cost a field lookup: the front matter is
// read again only where they are, so a catalog of thousands of entries
// is read in time proportional to the entries that use story time. It
// reads e's own file: Catalog.Story reads a book entry over a series
// entry with the series entry's progressions.
func StoryOf(e *Entry) Story {
	_, hasProg := e.Custom.Get("progressions")
	_, hasRules := e.Custom.Get("rules")
	if !hasProg && !hasRules && !e.lifeStatus {
		return Story{}
	}
	src := []byte(e.Source)
	fm := splitFrontMatter(src)
	if !fm.Present {
		return Story{}
	}
	d := newYAMLDoc(src, fm.YAML)
	var doc yaml.Node
	if yaml.Unmarshal([]byte(validPerByte(string(src[fm.YAML.Start:fm.YAML.End]))), &doc) != nil || len(doc.Content) == 0 {
		return Story{} // the entry already reports its broken YAML
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return Story{}
	}
	var s Story
	seen := map[string]bool{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], FollowAlias(root.Content[i+1])
		key := strings.ToLower(strings.TrimSpace(k.Value))
		if seen[key] {
			continue // the first wins, as Parse reports
		}
		seen[key] = true
		switch key {
		case "status":
			if v.Kind == yaml.ScalarNode {
				s.Status = strings.ToLower(strings.TrimSpace(v.Value))
			}
		case "progressions":
			s.readProgressions(d, e.ID, k, v)
		case "rules":
			if e.Type != TypeStyle {
				s.problem(d, e.ID, k, "`rules` are read only in style entries (type: style); these are ignored")
				continue
			}
			s.readRules(d, e.ID, k, v)
		}
	}
	s.Problems = CapProblems(s.Problems)
	return s
}

// statusOfLife says whether the entry's front matter has a status that
// is neither confirmed nor tentative (such as `dead`), reading its lines
// rather than its YAML: most entries have none. Parse asks, once; the
// entry keeps the answer (Entry.lifeStatus) for StoryOf.
func statusOfLife(e *Entry) bool {
	fm := e.Source[:min(max(e.Body.Start, 0), len(e.Source))]
	for line := range strings.Lines(fm) {
		// The key compared byte by byte, not the line lowered: this runs
		// for every entry of a catalog when a book opens. No rune outside
		// ASCII lowers to a letter of "status".
		const key = "status:"
		if len(line) < len(key) || !asciiFoldPrefix(line, key) {
			continue
		}
		rest := line[len(key):]
		switch strings.ToLower(strings.Trim(strings.TrimSpace(rest), `"'`)) {
		case "", "confirmed", "tentative":
		default:
			return true
		}
	}
	return false
}

// asciiFoldPrefix says whether s starts with prefix, a lower-case ASCII
// string, ignoring the case of ASCII letters.
func asciiFoldPrefix(s, prefix string) bool {
	for i := 0; i < len(prefix); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != prefix[i] {
			return false
		}
	}
	return true
}

func (s *Story) problem(d *yamlDoc, path string, n *yaml.Node, format string, args ...any) {
	if len(s.Problems) > MaxProblemsPerFile {
		return
	}
	s.Problems = append(s.Problems, Problem{Path: path, Code: CodeProgression, Severity: SeverityWarning,
		Message: fmt.Sprintf(format, args...), Range: d.nodeRange(n)})
}

func (s *Story) readProgressions(d *yamlDoc, path string, k, v *yaml.Node) {
	if v.Kind != yaml.SequenceNode {
		s.problem(d, path, v, "`progressions` must be a list of `- from: <chapter>` items")
		return
	}
	budget := maxYAMLNodes
	for _, item := range v.Content {
		item = FollowAlias(item)
		if len(s.Progressions) == MaxListItems {
			s.problem(d, path, item, "more than %d progressions; the rest are ignored", MaxListItems)
			return
		}
		if item.Kind != yaml.MappingNode {
			s.problem(d, path, item, "each progression is a set of keys starting with `from: <chapter>` (a number, title or path)")
			continue
		}
		p := Progression{Range: d.nodeRange(item)}
		hasFrom := false
		seen := map[string]bool{}
		for j := 0; j+1 < len(item.Content); j += 2 {
			ik, iv := item.Content[j], FollowAlias(item.Content[j+1])
			key := strings.TrimSpace(ik.Value)
			lower := strings.ToLower(key)
			if seen[lower] {
				s.problem(d, path, ik, "%q is given twice in this progression; the first is used", key)
				continue
			}
			seen[lower] = true
			switch lower {
			case "from":
				if iv.Kind != yaml.ScalarNode || strings.TrimSpace(iv.Value) == "" || iv.ShortTag() == "!!null" {
					s.problem(d, path, iv, "`from` names one chapter: its number, title or path")
					continue
				}
				p.From, p.FromRange, hasFrom = strings.TrimSpace(iv.Value), d.nodeRange(iv), true
			case "note":
				if iv.Kind != yaml.ScalarNode {
					s.problem(d, path, iv, "`note` is one line of canon, not a list or mapping")
					continue
				}
				p.Note = strings.TrimSpace(iv.Value)
			case "type", "progressions", "rules", "locked":
				s.problem(d, path, ik, "`%s` cannot change from a chapter on; it is ignored here", key)
			default:
				p.Changes = append(p.Changes, Field{Key: key, Value: nodeValue(iv, &budget)})
			}
		}
		if !hasFrom {
			s.problem(d, path, item, "this progression has no `from: <chapter>`, so it applies nowhere")
			continue
		}
		s.Progressions = append(s.Progressions, p)
	}
}

func (s *Story) readRules(d *yamlDoc, path string, k, v *yaml.Node) {
	if v.Kind != yaml.SequenceNode {
		s.problem(d, path, v, "`rules` must be a list of `- {avoid: …, prefer: …}` or `- {term: …}` items")
		return
	}
	for _, item := range v.Content {
		item = FollowAlias(item)
		if len(s.Rules) == MaxListItems {
			s.problem(d, path, item, "more than %d style rules; the rest are ignored", MaxListItems)
			return
		}
		if item.Kind != yaml.MappingNode {
			s.problem(d, path, item, "each style rule is `{avoid: …, prefer: …}` or `{term: …}`")
			continue
		}
		var r StyleRule
		var at *yaml.Node
		for j := 0; j+1 < len(item.Content); j += 2 {
			ik, iv := item.Content[j], FollowAlias(item.Content[j+1])
			key := strings.ToLower(strings.TrimSpace(ik.Value))
			if iv.Kind != yaml.ScalarNode || iv.ShortTag() == "!!null" {
				s.problem(d, path, iv, "`%s` of a style rule is one piece of text", ik.Value)
				continue
			}
			val := strings.TrimSpace(iv.Value)
			switch key {
			case "avoid":
				r.Avoid, at = val, iv
			case "prefer":
				r.Prefer = val
			case "note":
				r.Note = val
			case "term":
				r.Term = val
				if at == nil {
					at = iv
				}
			default:
				s.problem(d, path, ik, "a style rule knows avoid, prefer, note and term, not %q", ik.Value)
			}
		}
		switch {
		case r.Avoid == "" && r.Term == "":
			s.problem(d, path, item, "this style rule has neither `avoid` nor `term`, so it checks nothing")
			continue
		case r.Avoid != "" && r.Term != "":
			s.problem(d, path, item, "a style rule is either `avoid` or `term`; make these two rules")
			continue
		case len(r.Avoid) > MaxAliasBytes || len(r.Term) > MaxAliasBytes:
			s.problem(d, path, item, "a style rule's words are at most %d bytes; this rule is ignored", MaxAliasBytes)
			continue
		}
		r.Range = d.nodeRange(at)
		s.Rules = append(s.Rules, r)
	}
}
