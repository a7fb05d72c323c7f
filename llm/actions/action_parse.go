package actions

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/clip"
	"github.com/quire-ink/quire/codex/settings"
	"github.com/quire-ink/quire/llm"
	"github.com/quire-ink/quire/llm/untrusted"
)

// Reading actions from where the writer keeps them (quire.yaml's actions:
// list and .quire/actions/*.md) into Actions, with every problem reported
// as data with its source and line, apart from what an Action is.

// Load reads the writer's actions from root/quire.yaml (actions:)
// and root/.quire/actions/*.md (by file name) and merges them after
// Core. Missing files are no problem; unreadable ones are errors.
func Load(root string) ([]Action, []Problem) {
	f, err := settings.ReadBook(os.DirFS(root))
	if err != nil {
		return LoadFrom(root, nil, []Problem{actionError(SourceQuireYAML, 0, "cannot read: %v", errors.Unwrap(err))})
	}
	return LoadFrom(root, f, nil)
}

// LoadFrom is Load with quire.yaml already read (f; nil
// when it could not be, problems then saying why).
func LoadFrom(root string, f *settings.File, problems []Problem) ([]Action, []Problem) {
	var fromYAML, fromFiles []Action
	switch {
	case f == nil:
	case f.Doc == nil && f.Err != nil:
		line, _ := settings.Position(f.Err)
		msg := strings.TrimPrefix(strings.TrimPrefix(f.Err.Error(), f.Name+": "), fmt.Sprintf("yaml: line %d: ", line))
		problems = append(problems, actionError(SourceQuireYAML, line, "%s", strings.TrimPrefix(msg, "yaml: ")))
	case f.Doc != nil:
		var ps []Problem
		fromYAML, ps = ParseYAML(f.Doc)
		problems = append(problems, ps...)
	}
	dir := filepath.Join(root, filepath.FromSlash(Dir))
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		problems = append(problems, actionError(Dir, 0, "cannot read: %v", err))
	}
	for _, e := range entries { // ReadDir sorts by name
		if e.IsDir() || !strings.EqualFold(path.Ext(e.Name()), ".md") {
			continue
		}
		source := Dir + "/" + e.Name()
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			problems = append(problems, actionError(source, 0, "cannot read: %v", err))
			continue
		}
		a, ps := ParseFile(e.Name(), data)
		problems = append(problems, ps...)
		if a.ID != "" {
			fromFiles = append(fromFiles, a)
		}
	}
	merged, ps := Merge(Core(), fromYAML, fromFiles)
	return merged, append(problems, ps...)
}

// SettingsProblems are the problems of the actions: section of a
// settings file: an action that cannot be read, and one that takes the id
// of a core action or of another action in the file. Each is set aside on
// its own, so none of them rejects the file. The language server shows
// them on quire.yaml and `quire check` lists them: both call this.
func SettingsProblems(f *settings.File) []Problem {
	actions, problems := ParseYAML(f.Value("actions"))
	_, merged := Merge(Core(), actions)
	return slices.DeleteFunc(append(problems, merged...), func(p Problem) bool { return p.Source != SourceQuireYAML })
}

// ParseYAML reads quire.yaml's actions: node, the value of the key
// (a list of mappings with the keys id, name, scope, persona, usage,
// goals, guardrails and prompt) or the whole document node (kind
// yaml.DocumentNode), from which the actions: key is taken:
//
//	actions:
//	  - id: harbor-scenes
//	    name: Harbor scene check
//	    scope: file
//	    persona: worldbuilding-auditor
//	    usage: After drafting a scene at the docks.
//	    goals: [Tides, boats and trade fit the world]
//	    guardrails: [Do not rewrite the prose]
//	    prompt: |
//	      Read the chapter with get_manuscript_context, ref "current" ...
//
// An action with an error is left out; the others are kept. A nil or
// empty node is no actions. Lines are quire.yaml's.
func ParseYAML(node *yaml.Node) ([]Action, []Problem) {
	node = codex.FollowAlias(node)
	if node == nil || node.Kind == 0 {
		return nil, nil
	}
	if node.Kind == yaml.DocumentNode {
		if len(node.Content) == 0 {
			return nil, nil
		}
		top := codex.FollowAlias(node.Content[0])
		if top == nil || top.Kind != yaml.MappingNode {
			return nil, nil
		}
		node = codex.FollowAlias(settings.MappingValueFold(top, "actions"))
		if node == nil {
			return nil, nil
		}
	}
	if node.Kind == yaml.ScalarNode && (node.Tag == "!!null" || node.Value == "") {
		return nil, nil
	}
	if node.Kind != yaml.SequenceNode {
		return nil, []Problem{actionError(SourceQuireYAML, node.Line, "actions must be a list of actions (- id: …)")}
	}
	var out []Action
	var problems []Problem
	seen := map[string]int{}
	for i, item := range node.Content {
		if i == maxUserActions {
			problems = append(problems, actionError(SourceQuireYAML, item.Line,
				"%d actions; at most %d, the rest are ignored", len(node.Content), maxUserActions))
			break
		}
		item = codex.FollowAlias(item)
		if item == nil || item.Kind != yaml.MappingNode {
			line := node.Line
			if item != nil {
				line = item.Line
			}
			problems = append(problems, actionError(SourceQuireYAML, line, "an action must be a mapping with id, name, scope, persona and prompt"))
			continue
		}
		r := actionReader{source: SourceQuireYAML}
		a, ok := r.read(item, "", nil)
		problems = append(problems, r.problems...)
		if !ok {
			continue
		}
		if first, dup := seen[a.ID]; dup {
			problems = append(problems, actionError(SourceQuireYAML, a.Line,
				"action id %q is already used at quire.yaml line %d; this definition is ignored (ids must be unique)", a.ID, first))
			continue
		}
		seen[a.ID] = a.Line
		out = append(out, a)
	}
	return out, problems
}

// ParseFile reads an action file, .quire/actions/<name>.md: YAML
// front matter between two lines of exactly "---" (the first line of the
// file), with the keys id, name, scope, persona, usage, goals and
// guardrails, and then a Markdown body that is the prompt:
//
//	---
//	name: Harbor scene check
//	scope: file
//	persona: worldbuilding-auditor
//	goals:
//	  - Tides, boats and trade fit the world
//	---
//	Read the chapter with get_manuscript_context, ref "current", ...
//
// id defaults to the file name without .md. The body is the prompt with
// blank lines at either end removed; a prompt: key is refused. name may
// be the file's base name or its path; Source is
// ".quire/actions/<base name>". On any error the Action is zero.
func ParseFile(name string, data []byte) (Action, []Problem) {
	base := path.Base(strings.ReplaceAll(name, "\\", "/"))
	source := Dir + "/" + base
	stem := base
	if ext := path.Ext(base); strings.EqualFold(ext, ".md") {
		stem = strings.TrimSuffix(base, ext)
	}
	fail := func(line int, format string, args ...any) (Action, []Problem) {
		return Action{}, []Problem{actionError(source, line, format, args...)}
	}
	if len(data) > maxActionFileBytes {
		return fail(0, "the file is %d bytes; an action file is at most %d", len(data), maxActionFileBytes)
	}
	if !utf8.Valid(data) {
		return fail(0, "the file is not UTF-8 text")
	}
	text := strings.TrimPrefix(string(data), "\uFEFF")
	text = strings.ReplaceAll(text, "\r\n", "\n")
	lines := strings.SplitAfter(text, "\n")
	if len(lines) == 0 || strings.TrimRight(lines[0], " \t\n") != "---" {
		return fail(1, "an action file starts with front matter between --- lines (name, scope, persona, …), then the prompt")
	}
	end := -1
	for i := 1; i < len(lines); i++ {
		if strings.TrimRight(lines[i], " \t\n") == "---" {
			end = i
			break
		}
	}
	if end < 0 {
		return fail(1, "the front matter is not closed by a --- line")
	}
	front := strings.Join(lines[1:end], "")
	body := strings.Join(lines[end+1:], "")
	// The body's first line is file line end+2; skip leading blank lines.
	// An empty body is reported at the closing --- line.
	bodyLine := end + 2
	if strings.TrimSpace(body) == "" {
		bodyLine = end + 1
	}
	for bodyLine > end+1 {
		nl := strings.IndexByte(body, '\n')
		if nl < 0 || strings.TrimSpace(body[:nl]) != "" {
			break
		}
		body = body[nl+1:]
		bodyLine++
	}
	body = strings.TrimRightFunc(body, unicode.IsSpace)

	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(front), &doc); err != nil {
		line, msg := yamlErrorLine(err)
		if line > 0 {
			line++
		}
		return fail(line, "front matter: %s", msg)
	}
	var m *yaml.Node
	if len(doc.Content) > 0 {
		m = codex.FollowAlias(doc.Content[0])
	}
	if m == nil || (m.Kind == yaml.ScalarNode && (m.Tag == "!!null" || m.Value == "")) {
		m = &yaml.Node{Kind: yaml.MappingNode, Line: 1}
	}
	if m.Kind != yaml.MappingNode {
		return fail(m.Line+1, "the front matter must be a mapping (name: …, scope: …, persona: …)")
	}
	r := actionReader{source: source, lineOffset: 1}
	a, ok := r.read(m, stem, &bodyPrompt{text: body, line: bodyLine})
	if !ok {
		return Action{}, r.problems
	}
	a.Line = 1
	return a, r.problems
}

// bodyPrompt is an action file's prompt and the file line it starts on.
type bodyPrompt struct {
	text string
	line int
}

// actionReader validates one action mapping, collecting problems.
type actionReader struct {
	source     string
	lineOffset int // added to node lines (front matter starts on line 2)
	problems   []Problem
	failed     bool
}

func (r *actionReader) errorf(n *yaml.Node, format string, args ...any) {
	r.failed = true
	r.problems = append(r.problems, actionError(r.source, r.line(n), format, args...))
}

func (r *actionReader) line(n *yaml.Node) int {
	if n == nil || n.Line <= 0 {
		return 0
	}
	return n.Line + r.lineOffset
}

var actionKeys = []string{"id", "name", "scope", "persona", "usage", "goals", "guardrails", "prompt"}

// read validates m. defaultID is used when m has no id (an action file's
// stem); body, when set, is the prompt and a prompt key is refused.
func (r *actionReader) read(m *yaml.Node, defaultID string, body *bodyPrompt) (Action, bool) {
	a := Action{Source: r.source, Line: r.line(m)}
	fields := map[string]*yaml.Node{}
	keys := map[string]*yaml.Node{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := codex.FollowAlias(m.Content[i]), codex.FollowAlias(m.Content[i+1])
		if k == nil || k.Kind != yaml.ScalarNode {
			r.errorf(m.Content[i], "an action key must be a word (%s)", strings.Join(actionKeys, ", "))
			continue
		}
		key := k.Value
		switch {
		case !slices.Contains(actionKeys, key):
			hint := ""
			switch strings.ToLower(strings.ReplaceAll(strings.ReplaceAll(key, "_", ""), "-", "")) {
			case "usagenotes", "notes":
				hint = `; did you mean "usage"?`
			case "goal":
				hint = `; did you mean "goals"?`
			case "guardrail":
				hint = `; did you mean "guardrails"?`
			case "archetype", "role", "advisor":
				hint = `; did you mean "persona"?`
			case "title", "label":
				hint = `; did you mean "name"?`
			}
			r.errorf(k, "unknown action key %q (%s)%s", clip.Bytes(key, 40), strings.Join(actionKeys, ", "), hint)
			continue
		case key == "prompt" && body != nil:
			r.errorf(k, "an action file's prompt is its body after the front matter, not a prompt: key")
			continue
		}
		if prev, dup := keys[key]; dup {
			r.errorf(k, "%s is given twice (first at line %d)", key, r.line(prev))
			continue
		}
		keys[key] = k
		fields[key] = v
	}
	text := func(key string, limit int, oneLine bool) string {
		v, ok := fields[key]
		if !ok || v == nil || (v.Kind == yaml.ScalarNode && v.Tag == "!!null") {
			return ""
		}
		if v.Kind != yaml.ScalarNode {
			r.errorf(v, "%s must be text", key)
			return ""
		}
		if len(v.Value) > limit {
			r.errorf(v, "%s is %d bytes; at most %d", key, len(v.Value), limit)
			return ""
		}
		if oneLine {
			return untrusted.OneLine(v.Value)
		}
		return strings.TrimSpace(v.Value)
	}

	// id
	if n, given := fields["id"]; given {
		before := len(r.problems)
		a.ID = text("id", maxActionIDBytes, true)
		switch {
		case len(r.problems) > before: // too long or not text, reported
		case a.ID == "":
			r.errorf(n, "id is empty; give a slug such as %q", "harbor-scenes")
		case checkActionID(a.ID) != "":
			r.errorf(n, "%s", checkActionID(a.ID))
		}
	} else if defaultID != "" {
		a.ID = defaultID
		if msg := checkActionID(a.ID); msg != "" {
			r.errorf(m, "%s; the id comes from the file name, so rename the file or give an id: key", msg)
		}
	} else {
		r.errorf(m, "an action needs an id (a slug such as %q)", "harbor-scenes")
	}

	// name
	before := len(r.problems)
	a.Name = text("name", maxActionNameBytes, true)
	if _, ok := fields["name"]; !ok {
		r.errorf(m, "action %s needs a name (what the code action is called)", quoteID(a.ID))
	} else if a.Name == "" && len(r.problems) == before {
		r.errorf(fields["name"], "name is empty")
	}

	// scope
	scope := text("scope", 64, true)
	switch s := strings.ToLower(scope); s {
	case ScopeSelection, ScopeFile, ScopeProject:
		a.Scope = s
	case "":
		if n, ok := fields["scope"]; ok {
			r.errorf(n, "scope is empty; use selection, file or project")
		} else {
			r.errorf(m, "action %s needs a scope: selection, file or project", quoteID(a.ID))
		}
	default:
		r.errorf(fields["scope"], "scope %q is not selection, file or project", clip.Bytes(scope, 40))
	}

	// persona
	persona := text("persona", 64, true)
	if persona == "" {
		if n, ok := fields["persona"]; ok {
			r.errorf(n, "persona is empty; use one of %s", strings.Join(llm.PersonaIDs(), ", "))
		} else {
			r.errorf(m, "action %s needs a persona: one of %s", quoteID(a.ID), strings.Join(llm.PersonaIDs(), ", "))
		}
	} else if p, ok := llm.PersonaByID(persona); ok {
		a.Persona = p.ID
	} else {
		r.errorf(fields["persona"], "no persona %q (personas: %s)", clip.Bytes(persona, 40), strings.Join(llm.PersonaIDs(), ", "))
	}

	// usage: for the writer only, not checked for injection.
	a.Usage = text("usage", maxActionUsageBytes, false)

	// name, goals and guardrails reach the model: flag them.
	if n := fields["name"]; n != nil && a.Name != "" {
		r.flag(n, "name", n.Value)
	}
	a.Goals = r.items(fields, "goals")
	a.Guardrails = r.items(fields, "guardrails")

	// prompt
	raw, promptAt, block := "", 0, false
	switch {
	case body != nil:
		promptAt, block = body.line, true
		if len(body.text) > maxActionPromptBytes {
			r.failed = true
			r.problems = append(r.problems, actionError(r.source, body.line,
				"the prompt (the body) is %d bytes; at most %d", len(body.text), maxActionPromptBytes))
		} else if strings.TrimSpace(body.text) == "" {
			r.failed = true
			r.problems = append(r.problems, actionError(r.source, body.line,
				"the prompt is empty; write what the persona should do after the front matter"))
		} else {
			raw = body.text
		}
	default:
		n, given := fields["prompt"]
		switch {
		case !given:
			r.errorf(m, "action %s needs a prompt (what the persona should do)", quoteID(a.ID))
		case n == nil || (n.Kind == yaml.ScalarNode && n.Tag == "!!null"):
			r.errorf(keys["prompt"], "prompt is empty")
		case n.Kind != yaml.ScalarNode:
			r.errorf(n, "prompt must be text")
		case len(n.Value) > maxActionPromptBytes:
			r.errorf(n, "prompt is %d bytes; at most %d", len(n.Value), maxActionPromptBytes)
		case strings.TrimSpace(n.Value) == "":
			r.errorf(n, "prompt is empty")
		default:
			raw = n.Value
			promptAt = r.line(n)
			// A block scalar's text starts on the line below its | or >.
			if n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
				promptAt++
				block = true
			}
		}
	}
	if raw != "" {
		a.Prompt = strings.TrimSpace(raw)
		clean, flagged := untrusted.Sanitize(raw)
		for _, f := range flagged {
			line := promptAt
			if block {
				line += f.Line
			}
			r.warnFlag(line, "prompt", f)
		}
		if len(flagged) > 0 && strings.TrimSpace(clean) == "" {
			r.failed = true
			r.problems = append(r.problems, actionError(r.source, promptAt,
				"nothing of the prompt is left once the flagged sentences are removed"))
		}
	}
	if r.failed {
		return Action{}, false
	}
	return a, true
}

// items reads goals or guardrails: a list of lines, or one line.
func (r *actionReader) items(fields map[string]*yaml.Node, key string) []string {
	n, ok := fields[key]
	if !ok || n == nil || (n.Kind == yaml.ScalarNode && (n.Tag == "!!null" || n.Value == "")) {
		return nil
	}
	var nodes []*yaml.Node
	switch n.Kind {
	case yaml.ScalarNode:
		nodes = []*yaml.Node{n}
	case yaml.SequenceNode:
		nodes = n.Content
	default:
		r.errorf(n, "%s must be a list of lines", key)
		return nil
	}
	if len(nodes) > maxActionItems {
		r.errorf(n, "%d %s; at most %d", len(nodes), key, maxActionItems)
		return nil
	}
	var out []string
	for _, item := range nodes {
		item = codex.FollowAlias(item)
		if item == nil || item.Kind != yaml.ScalarNode {
			r.errorf(n, "each of %s must be a line of text", key)
			continue
		}
		if len(item.Value) > maxActionItemBytes {
			r.errorf(item, "a line of %s is %d bytes; at most %d", key, len(item.Value), maxActionItemBytes)
			continue
		}
		s := untrusted.OneLine(item.Value)
		if s == "" {
			continue
		}
		r.flag(item, key, s)
		out = append(out, s)
	}
	return out
}

// flag warns about the flagged sentences of a one-line field.
func (r *actionReader) flag(n *yaml.Node, field, s string) {
	_, flagged := untrusted.Sanitize(untrusted.OneLine(s))
	for _, f := range flagged {
		r.warnFlag(r.line(n), field, f)
	}
}

func (r *actionReader) warnFlag(line int, field string, f untrusted.Flagged) {
	r.problems = append(r.problems, Problem{
		Source:   r.source,
		Line:     line,
		Severity: SeverityWarning,
		Message: fmt.Sprintf("%s: %q reads as an instruction to the model (%s), not an ask for the persona; it is left out of the prompt",
			field, clip.Bytes(untrusted.OneLine(f.Text), 80), strings.Join(f.Labels, ", ")),
	})
}

func quoteID(id string) string {
	if id == "" {
		return "without an id"
	}
	return strconv.Quote(id)
}

var actionIDPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

// checkActionID says what is wrong with id as an action id, or "".
func checkActionID(id string) string {
	switch {
	case len(id) > maxActionIDBytes:
		return fmt.Sprintf("id %q is %d bytes; at most %d", clip.Bytes(id, 60), len(id), maxActionIDBytes)
	case !actionIDPattern.MatchString(id):
		return fmt.Sprintf("id %q is not a slug: lower-case letters, digits and hyphens, starting with a letter or digit", clip.Bytes(id, 60))
	}
	return ""
}

func actionError(source string, line int, format string, args ...any) Problem {
	if line < 0 {
		line = 0
	}
	return Problem{Source: source, Line: line, Severity: SeverityError, Message: fmt.Sprintf(format, args...)}
}

var yamlLineRE = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// yamlErrorLine splits "yaml: line 3: msg" into 3 and "msg".
func yamlErrorLine(err error) (int, string) {
	msg := err.Error()
	if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
		if n, err := strconv.Atoi(m[1]); err == nil && n >= 0 {
			return n, m[2]
		}
	}
	return 0, strings.TrimPrefix(msg, "yaml: ")
}
