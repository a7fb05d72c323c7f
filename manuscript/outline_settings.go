package manuscript

import (
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/quire-ink/quire/codex/settings"
)

// OutlineSettings are quire.yaml's outline: section (docs/outline.md):
// where scenes break, the statuses a writer gives, and the acts the
// chapters group into.
type OutlineSettings struct {
	Rules SceneRules
	// Acts group the chapters in the outline, each from the chapter its
	// From names to the next act's; none means by folder, where the
	// chapters lie in more than one.
	Acts []ActSetting
}

// ActSetting is one act as quire.yaml names it.
type ActSetting struct {
	Title string
	// From is a chapter reference (number, title or path).
	From string
	// Line is where the act is written, for a problem about it.
	Line int
}

// maxActs and maxStatuses bound what the section may list.
const (
	maxActs     = 100
	maxStatuses = 20
)

// outlineKeys are the keys of the outline: section.
var outlineKeys = []string{"scene_headings", "scene_breaks", "statuses", "acts"}

// ReadOutlineSettings reads the outline: section of the book's
// quire.yaml, else of the writer's config.yaml (the book's wins whole).
// A value that cannot be used leaves its setting at the default and is
// a problem located in its file.
func ReadOutlineSettings(l *settings.Loaded) (OutlineSettings, []*settings.Problem) {
	var out OutlineSettings
	if l == nil || l.Book == nil || l.User == nil {
		return out, nil
	}
	file, sec := l.LayerOf("outline")
	if sec == nil {
		return out, nil
	}
	if sec.Kind != yaml.MappingNode {
		return out, []*settings.Problem{file.At(sec, "outline: must be a mapping, such as outline: {statuses: [idea, draft, revised, final]}")}
	}
	var problems []*settings.Problem
	bad := func(n *yaml.Node, format string, args ...any) {
		problems = append(problems, file.At(n, format, args...))
	}
	for i := 0; i+1 < len(sec.Content); i += 2 {
		k, v := sec.Content[i], sec.Content[i+1]
		switch k.Value {
		case "scene_headings":
			h, ok := readSceneHeadings(v)
			if !ok {
				bad(v, "outline: scene_headings is all (every heading but the chapter's title opens a scene), none, or a level from 1 to 6 (headings of that level and above open one)")
				continue
			}
			out.Rules.Headings = h
		case "scene_breaks":
			list, ok := stringList(v, 20)
			if !ok {
				bad(v, "outline: scene_breaks is a list of lines that break scenes besides *** and ---, such as [\"§\", \"~\"]")
				continue
			}
			out.Rules.Breaks = list
		case "statuses":
			list, ok := stringList(v, maxStatuses)
			if !ok || len(list) == 0 {
				bad(v, "outline: statuses is a list of up to %d words, such as [idea, draft, revised, final]", maxStatuses)
				continue
			}
			out.Rules.Statuses = list
		case "acts":
			acts, ok := readActs(v)
			if !ok {
				bad(v, "outline: acts is a list of up to %d acts, each a title and the chapter it starts at, such as - {title: Act Two, from: 9}", maxActs)
				continue
			}
			out.Acts = acts
		default:
			bad(k, "outline: has no setting %q; it has %s", k.Value, strings.Join(outlineKeys, ", "))
		}
	}
	return out, problems
}

func readSceneHeadings(v *yaml.Node) (int, bool) {
	if v.Kind != yaml.ScalarNode {
		return 0, false
	}
	switch s := strings.ToLower(strings.TrimSpace(v.Value)); s {
	case "all", "":
		return HeadingsAll, true
	case "none", "false", "off":
		return HeadingsNone, true
	default:
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > 6 {
			return 0, false
		}
		return n, true
	}
}

// stringList reads a list of at most limit non-empty words or marks.
func stringList(v *yaml.Node, limit int) ([]string, bool) {
	if v.Kind != yaml.SequenceNode || len(v.Content) > limit {
		return nil, false
	}
	out := make([]string, 0, len(v.Content))
	for _, c := range v.Content {
		if c.Kind != yaml.ScalarNode || strings.TrimSpace(c.Value) == "" {
			return nil, false
		}
		out = append(out, strings.TrimSpace(c.Value))
	}
	return out, true
}

func readActs(v *yaml.Node) ([]ActSetting, bool) {
	if v.Kind != yaml.SequenceNode || len(v.Content) > maxActs {
		return nil, false
	}
	var out []ActSetting
	for _, c := range v.Content {
		if c.Kind != yaml.MappingNode {
			return nil, false
		}
		var a struct {
			Title string `yaml:"title"`
			From  any    `yaml:"from"`
		}
		if err := c.Decode(&a); err != nil || strings.TrimSpace(a.Title) == "" || a.From == nil {
			return nil, false
		}
		out = append(out, ActSetting{Title: strings.TrimSpace(a.Title), From: strings.TrimSpace(fmt.Sprint(a.From)), Line: c.Line})
	}
	return out, true
}
