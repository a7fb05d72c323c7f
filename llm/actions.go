package llm

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
)

// An advisor action is a named, reusable ask that the server offers as a
// code action: "Continuity check" on a chapter, "Line edit" on a
// selection. Core actions ship in the binary and are locked; the writer
// adds their own in quire.yaml (actions:) or as one Markdown file each in
// .quire/actions/. All follow one strict template, so reviewing one is
// mechanical:
//
//	id          slug, [a-z0-9][a-z0-9-]*, at most 48 bytes
//	name        what the code action is called, one line, at most 80 bytes
//	scope       selection | file | project
//	persona     the board member who answers (PersonaByID)
//	usage       when to use it, for the writer; never sent to the model
//	goals       up to 10 lines, each at most 300 bytes
//	guardrails  up to 10 lines, each at most 300 bytes
//	prompt      what the persona is asked to do, at most 4,000 bytes
//
// A user action's text is untrusted: sentences that read as an attempt to
// steer the model itself (overriding its instructions, reassigning its
// role, asking for its prompt, chat role tags) are reported as warnings and
// left out of the message the persona receives.

// Action scopes: what an action runs on.
const (
	ScopeSelection = "selection"
	ScopeFile      = "file"
	ScopeProject   = "project"
)

// Action sources other than an action file.
const (
	SourceCore      = "core"
	SourceQuireYAML = "quire.yaml"
	// ActionsDir is where action files live, relative to the project root.
	ActionsDir = ".quire/actions"
)

// Severities of an ActionProblem.
const (
	SeverityError   = "error"
	SeverityWarning = "warning"
)

// Bounds on an action's fields, in bytes.
const (
	maxActionIDBytes     = 48
	maxActionNameBytes   = 80
	maxActionUsageBytes  = 500
	maxActionItemBytes   = 300
	maxActionItems       = 10
	maxActionPromptBytes = 4000
	// maxUserActions bounds quire.yaml's actions: list.
	maxUserActions = 100
	// maxActionFileBytes bounds an action file before it is parsed.
	maxActionFileBytes = 16 << 10
	// maxTargetBytes bounds the target line of a Message.
	maxTargetBytes = 300
)

// Action is one advisor action.
type Action struct {
	// ID is the stable, unique slug ("continuity-check").
	ID string
	// Name is the code action's label ("Continuity check").
	Name string
	// Scope is ScopeSelection, ScopeFile or ScopeProject.
	Scope string
	// Persona is the id of the board member who answers.
	Persona string
	// Usage says when the action helps; it is for the writer only.
	Usage      string
	Goals      []string
	Guardrails []string
	// Prompt is the ask, as the writer wrote it; Message leaves out its
	// flagged sentences.
	Prompt string
	// Core is set on the shipped actions, which cannot be changed.
	Core bool
	// Source is "core", "quire.yaml" or ".quire/actions/<file>.md".
	Source string
	// Line is the line in Source where the action is defined (its list
	// item in quire.yaml, 1 in an action file); 0 for core actions.
	Line int
}

// ActionProblem is a diagnostic about an action definition. An error
// means the action was rejected; a warning means it was kept, with
// flagged text left out of its message.
type ActionProblem struct {
	// Source is "quire.yaml" or ".quire/actions/<file>.md".
	Source string
	// Line is 1-based; 0 when the problem has no line.
	Line     int
	Message  string
	Severity string
}

// String formats the problem as "quire.yaml: line 12: message", with
// "warning: " before the message of a warning.
func (p ActionProblem) String() string {
	var b strings.Builder
	b.WriteString(p.Source)
	if p.Line > 0 {
		fmt.Fprintf(&b, ": line %d", p.Line)
	}
	b.WriteString(": ")
	if p.Severity == SeverityWarning {
		b.WriteString("warning: ")
	}
	b.WriteString(p.Message)
	return b.String()
}

// Label is the code action title: "Continuity Editor: Continuity check".
func (a Action) Label() string {
	name := sanitizeLine(a.Name)
	if name == "" {
		name = a.ID
	}
	if p, ok := PersonaByID(a.Persona); ok {
		return p.Name + ": " + name
	}
	return name
}

// Applies reports whether the action is offered in a context: a
// selection action needs a selection, a file action needs a chapter file,
// a project action is always offered.
func (a Action) Applies(hasSelection bool, isChapter bool) bool {
	switch a.Scope {
	case ScopeSelection:
		return hasSelection
	case ScopeFile:
		return isChapter
	case ScopeProject:
		return true
	}
	return false
}

// Message is the ask sent to the action's persona when it runs on target,
// which describes what it runs on ("the selection", `chapter "Slack
// Water" (manuscript/03-slack-water.md)`, "the whole book"); empty means
// the scope's default. Every field is sanitized as a user action's is:
// flagged sentences are left out, the name, target, goals and guardrails
// become one line each, and control characters go.
func (a Action) Message(target string) string {
	return a.Prepare().Message(target)
}

// PreparedAction is an action whose own text has been checked and
// rendered once, so that building its message for a target is cheap: a
// code action list builds one for every action each time it is asked.
type PreparedAction struct {
	Action
	name string
	body string
}

// Prepare checks and renders the action's name, prompt, goals and
// guardrails, as Message does.
func (a Action) Prepare() PreparedAction {
	name := sanitizeLine(a.Name)
	if name == "" {
		name = a.ID
	}
	var b strings.Builder
	if prompt, _ := sanitizeUntrusted(cleanText(a.Prompt)); prompt != "" {
		b.WriteString("\n")
		b.WriteString(prompt)
		b.WriteString("\n")
	}
	writeItems := func(title string, items []string) {
		var lines []string
		for _, it := range items {
			if s := sanitizeLine(it); s != "" {
				lines = append(lines, s)
			}
		}
		if len(lines) == 0 {
			return
		}
		fmt.Fprintf(&b, "\n%s:\n", title)
		for _, s := range lines {
			b.WriteString("- ")
			b.WriteString(s)
			b.WriteString("\n")
		}
	}
	writeItems("Goals", a.Goals)
	writeItems("Guardrails", a.Guardrails)
	return PreparedAction{Action: a, name: name, body: b.String()}
}

// Message is the prepared action's message for target (see
// Action.Message); only the target is checked here.
func (p PreparedAction) Message(target string) string {
	target = sanitizeLine(target)
	if len(target) > maxTargetBytes {
		target = truncateUTF8(target, maxTargetBytes) + "…"
	}
	if target == "" {
		target = defaultTarget(p.Scope)
	}
	return strings.TrimRight(fmt.Sprintf("Run the advisor action %q on %s.\n", p.name, target)+p.body, "\n")
}

func defaultTarget(scope string) string {
	switch scope {
	case ScopeSelection:
		return "the selection"
	case ScopeFile:
		return "the current chapter"
	case ScopeProject:
		return "the whole book"
	}
	return "the current document"
}

// ActionByID finds the action id names in actions.
func ActionByID(actions []Action, id string) (Action, bool) {
	id = strings.ToLower(strings.TrimSpace(id))
	for _, a := range actions {
		if a.ID == id {
			return a.clone(), true
		}
	}
	return Action{}, false
}

func (a Action) clone() Action {
	a.Goals = slices.Clone(a.Goals)
	a.Guardrails = slices.Clone(a.Guardrails)
	return a
}

// MergeActions puts core and the writer's actions together. Core actions
// come first and are locked: a user action with a core id is rejected
// with an error saying to copy it under a new id. Among user actions an id
// seen before rejects the later one, with an error naming both places.
// Pass user actions in a stable order (quire.yaml, then action files by
// name). The result is core actions, then user actions, each by name.
func MergeActions(core []Action, user ...[]Action) ([]Action, []ActionProblem) {
	var out []Action
	var problems []ActionProblem
	coreByID := map[string]Action{}
	for _, a := range core {
		if _, dup := coreByID[a.ID]; dup || a.ID == "" {
			continue
		}
		a = a.clone()
		a.Core = true
		if a.Source == "" {
			a.Source = SourceCore
		}
		coreByID[a.ID] = a
		out = append(out, a)
	}
	userByID := map[string]Action{}
	for _, list := range user {
		for _, a := range list {
			a = a.clone()
			a.Core = false
			if c, ok := coreByID[a.ID]; ok {
				problems = append(problems, actionError(a.Source, a.Line,
					"action %q is the core action %q, which cannot be changed; to customize it, copy it under a new id such as %q",
					a.ID, c.Name, a.ID+"-custom"))
				continue
			}
			if a.ID == "" {
				problems = append(problems, actionError(a.Source, a.Line, "an action needs an id"))
				continue
			}
			if first, ok := userByID[a.ID]; ok {
				problems = append(problems, actionError(a.Source, a.Line,
					"action id %q is already used at %s; this definition is ignored (ids must be unique)",
					a.ID, place(first.Source, first.Line)))
				continue
			}
			userByID[a.ID] = a
			out = append(out, a)
		}
	}
	slices.SortStableFunc(out, func(x, y Action) int {
		if x.Core != y.Core {
			if x.Core {
				return -1
			}
			return 1
		}
		if c := strings.Compare(strings.ToLower(x.Name), strings.ToLower(y.Name)); c != 0 {
			return c
		}
		return strings.Compare(x.ID, y.ID)
	})
	return out, problems
}

func place(source string, line int) string {
	if line > 0 {
		return fmt.Sprintf("%s line %d", source, line)
	}
	return source
}

// LoadActions reads the writer's actions from root/quire.yaml (actions:)
// and root/.quire/actions/*.md (by file name) and merges them after
// CoreActions. Missing files are no problem; unreadable ones are errors.
func LoadActions(root string) ([]Action, []ActionProblem) {
	var problems []ActionProblem
	var fromYAML, fromFiles []Action
	data, err := os.ReadFile(filepath.Join(root, "quire.yaml"))
	switch {
	case err == nil:
		var doc yaml.Node
		if err := yaml.Unmarshal(data, &doc); err != nil {
			line, msg := yamlErrorLine(err)
			problems = append(problems, actionError(SourceQuireYAML, line, "%s", msg))
		} else {
			var ps []ActionProblem
			fromYAML, ps = ParseActionsYAML(&doc)
			problems = append(problems, ps...)
		}
	case !errors.Is(err, os.ErrNotExist):
		problems = append(problems, actionError(SourceQuireYAML, 0, "cannot read: %v", err))
	}
	dir := filepath.Join(root, filepath.FromSlash(ActionsDir))
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		problems = append(problems, actionError(ActionsDir, 0, "cannot read: %v", err))
	}
	for _, e := range entries { // ReadDir sorts by name
		if e.IsDir() || !strings.EqualFold(path.Ext(e.Name()), ".md") {
			continue
		}
		source := ActionsDir + "/" + e.Name()
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			problems = append(problems, actionError(source, 0, "cannot read: %v", err))
			continue
		}
		a, ps := ParseActionFile(e.Name(), data)
		problems = append(problems, ps...)
		if a.ID != "" {
			fromFiles = append(fromFiles, a)
		}
	}
	merged, ps := MergeActions(CoreActions(), fromYAML, fromFiles)
	return merged, append(problems, ps...)
}

// ParseActionsYAML reads quire.yaml's actions: node, the value of the key
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
func ParseActionsYAML(node *yaml.Node) ([]Action, []ActionProblem) {
	node = resolveAlias(node)
	if node == nil || node.Kind == 0 {
		return nil, nil
	}
	if node.Kind == yaml.DocumentNode {
		if len(node.Content) == 0 {
			return nil, nil
		}
		top := resolveAlias(node.Content[0])
		if top == nil || top.Kind != yaml.MappingNode {
			return nil, nil
		}
		node = resolveAlias(mappingValue(top, "actions"))
		if node == nil {
			return nil, nil
		}
	}
	if node.Kind == yaml.ScalarNode && (node.Tag == "!!null" || node.Value == "") {
		return nil, nil
	}
	if node.Kind != yaml.SequenceNode {
		return nil, []ActionProblem{actionError(SourceQuireYAML, node.Line, "actions must be a list of actions (- id: …)")}
	}
	var out []Action
	var problems []ActionProblem
	seen := map[string]int{}
	for i, item := range node.Content {
		if i == maxUserActions {
			problems = append(problems, actionError(SourceQuireYAML, item.Line,
				"%d actions; at most %d, the rest are ignored", len(node.Content), maxUserActions))
			break
		}
		item = resolveAlias(item)
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

// ParseActionFile reads an action file, .quire/actions/<name>.md: YAML
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
func ParseActionFile(name string, data []byte) (Action, []ActionProblem) {
	base := path.Base(strings.ReplaceAll(name, "\\", "/"))
	source := ActionsDir + "/" + base
	stem := base
	if ext := path.Ext(base); strings.EqualFold(ext, ".md") {
		stem = strings.TrimSuffix(base, ext)
	}
	fail := func(line int, format string, args ...any) (Action, []ActionProblem) {
		return Action{}, []ActionProblem{actionError(source, line, format, args...)}
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
		m = resolveAlias(doc.Content[0])
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
	problems   []ActionProblem
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
		k, v := resolveAlias(m.Content[i]), resolveAlias(m.Content[i+1])
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
			r.errorf(k, "unknown action key %q (%s)%s", truncateUTF8(key, 40), strings.Join(actionKeys, ", "), hint)
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
			return promptLine(v.Value)
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
		r.errorf(fields["scope"], "scope %q is not selection, file or project", truncateUTF8(scope, 40))
	}

	// persona
	persona := text("persona", 64, true)
	if persona == "" {
		if n, ok := fields["persona"]; ok {
			r.errorf(n, "persona is empty; use one of %s", strings.Join(personaIDs(), ", "))
		} else {
			r.errorf(m, "action %s needs a persona: one of %s", quoteID(a.ID), strings.Join(personaIDs(), ", "))
		}
	} else if p, ok := PersonaByID(persona); ok {
		a.Persona = p.ID
	} else {
		r.errorf(fields["persona"], "no persona %q (personas: %s)", truncateUTF8(persona, 40), strings.Join(personaIDs(), ", "))
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
		clean, flagged := sanitizeUntrusted(raw)
		for _, f := range flagged {
			line := promptAt
			if block {
				line += f.line
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
		item = resolveAlias(item)
		if item == nil || item.Kind != yaml.ScalarNode {
			r.errorf(n, "each of %s must be a line of text", key)
			continue
		}
		if len(item.Value) > maxActionItemBytes {
			r.errorf(item, "a line of %s is %d bytes; at most %d", key, len(item.Value), maxActionItemBytes)
			continue
		}
		s := promptLine(item.Value)
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
	_, flagged := sanitizeUntrusted(promptLine(s))
	for _, f := range flagged {
		r.warnFlag(r.line(n), field, f)
	}
}

func (r *actionReader) warnFlag(line int, field string, f flaggedSentence) {
	r.problems = append(r.problems, ActionProblem{
		Source:   r.source,
		Line:     line,
		Severity: SeverityWarning,
		Message: fmt.Sprintf("%s: %q reads as an instruction to the model (%s), not an ask for the persona; it is left out of the prompt",
			field, truncateUTF8(promptLine(f.text), 80), strings.Join(f.labels, ", ")),
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
		return fmt.Sprintf("id %q is %d bytes; at most %d", truncateUTF8(id, 60), len(id), maxActionIDBytes)
	case !actionIDPattern.MatchString(id):
		return fmt.Sprintf("id %q is not a slug: lower-case letters, digits and hyphens, starting with a letter or digit", truncateUTF8(id, 60))
	}
	return ""
}

func actionError(source string, line int, format string, args ...any) ActionProblem {
	if line < 0 {
		line = 0
	}
	return ActionProblem{Source: source, Line: line, Severity: SeverityError, Message: fmt.Sprintf(format, args...)}
}

func resolveAlias(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 8; i++ {
		n = n.Alias
	}
	if n != nil && n.Kind == yaml.AliasNode {
		return nil
	}
	return n
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

func truncateUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// sanitizeLine is one untrusted line as it may enter a prompt: one line,
// flagged sentences left out.
func sanitizeLine(s string) string {
	clean, _ := sanitizeUntrusted(promptLine(s))
	return promptLine(clean)
}

// cleanText normalizes multi-line untrusted text: CRLF to LF, control
// characters other than newline and tab removed, runs of blank lines
// folded to one, and the ends trimmed.
func cleanText(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\t':
			return r
		case r == '\r' || r == '\u2028' || r == '\u2029':
			return '\n'
		case unicode.IsControl(r) || r == utf8.RuneError:
			return -1
		}
		return r
	}, s)
	lines := strings.Split(s, "\n")
	var out []string
	blank := false
	for _, l := range lines {
		l = strings.TrimRightFunc(l, unicode.IsSpace)
		if l == "" {
			blank = len(out) > 0
			continue
		}
		if blank {
			out = append(out, "")
		}
		blank = false
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// Untrusted text: injection detection.

// injectionPattern is one kind of attempt to steer the model itself.
type injectionPattern struct {
	label string
	re    *regexp.Regexp
}

// injectionPatterns run on normalized text (lower case, runs of spaces one
// space, runs with a newline one newline, no format characters, straight
// quotes). They are narrow on purpose: fiction is full of instructions,
// systems and characters who act as something, so a pattern needs words
// addressed to the model ("your instructions", "previous instructions",
// "system prompt") or a chat role marker.
var injectionPatterns = []injectionPattern{
	// "ignore all previous instructions", "disregard the above rules"
	{"overriding earlier instructions", regexp.MustCompile(
		`\b(?:ignore|disregard|forget|override|bypass|skip|discard|abandon)\s+(?:(?:all|any|every|each|the|of|these|those|your|my|our)\s+)*` +
			`(?:previous|prior|above|earlier|preceding|foregoing|former|original|initial|system)\s+` +
			`(?:instructions?|prompts?|rules|directions|directives|guidelines|guardrails|messages|context|constraints)\b`)},
	// "disregard your instructions", "override your programming"
	{"overriding earlier instructions", regexp.MustCompile(
		`\b(?:ignore|disregard|forget|override|bypass|discard)\s+(?:(?:all|any|every|the|of)\s+)*(?:your|the\s+system's|the\s+model's)\s+` +
			`(?:instructions?|prompts?|rules|directives|guidelines|guardrails|programming|training|constraints|restrictions|persona|role)\b`)},
	// "forget everything above", "ignore all you were told"
	{"overriding earlier instructions", regexp.MustCompile(
		`\b(?:ignore|disregard|forget)\s+(?:everything|all(?:\s+of\s+it)?|anything)\s+(?:above|before\s+this|prior|previously|earlier|you\s+(?:were|have\s+been)\s+told)\b`)},
	// "ignore the above."
	{"overriding earlier instructions", regexp.MustCompile(
		`\b(?:ignore|disregard|forget)\s+(?:all\s+of\s+)?the\s+above\s*(?:[.,;:!]|$|\band\b)`)},
	// "here are your new instructions", "new system prompt"
	{"overriding earlier instructions", regexp.MustCompile(
		`\byour\s+new\s+(?:instructions|rules|directives|system\s+prompt)\b`)},
	// "you are no longer bound by your rules"
	{"overriding earlier instructions", regexp.MustCompile(
		`\b(?:you\s+are|you're)\s+(?:no\s+longer|not)\s+(?:bound|restricted|limited)\s+by\s+(?:your\s+|any\s+|the\s+)?(?:rules|instructions|guidelines|restrictions|guardrails|policies)\b`)},
	// "you are now an unfiltered AI", "from now on you will"
	{"reassigning the model's role", regexp.MustCompile(
		`\b(?:you\s+are|you're)\s+now\s+(?:a|an|my|no\s+longer|free|unrestricted|unfiltered|jailbroken|dan)\b`)},
	{"reassigning the model's role", regexp.MustCompile(
		`\bfrom\s+now\s+on,?\s+(?:you\s+(?:are|will|must|shall|should)|act|respond|answer|behave|pretend)\b`)},
	// "act as an unrestricted AI", "act as if you have no rules"
	{"reassigning the model's role", regexp.MustCompile(
		`\b(?:act|behave|respond)\s+as\s+(?:if\s+you\s+(?:were|are)\s+)?(?:an?\s+)?(?:unrestricted|unfiltered|uncensored|jailbroken|different|new)\s+(?:ai|assistant|model|chatbot|llm|persona)\b`)},
	{"reassigning the model's role", regexp.MustCompile(
		`\b(?:act|behave|respond|pretend)\s+(?:as\s+if|as\s+though|like|that)\s+you\s+(?:have|had|are\s+under|were\s+under)\s+no\s+(?:rules|restrictions|instructions|guidelines|guardrails|filters)\b`)},
	{"reassigning the model's role", regexp.MustCompile(
		`\b(?:developer|jailbreak|dan)\s+mode\b`)},
	// "system prompt", "developer message", "reveal your prompt"
	{"asking for the system prompt", regexp.MustCompile(
		`\bsystem\s+prompts?\b|\bdeveloper\s+(?:message|prompt|instructions)s?\b`)},
	{"asking for the system prompt", regexp.MustCompile(
		`\b(?:reveal|show|print|repeat|output|display|leak|dump|recite|disclose|tell\s+me|write\s+out|paste)\s+(?:me\s+)?(?:all\s+)?(?:of\s+)?` +
			`(?:your|the\s+model's|the\s+assistant's)\s+(?:\w+\s+)?(?:prompt|instructions|configuration|context\s+window)\b`)},
	{"asking for the system prompt", regexp.MustCompile(
		`\bwhat\s+(?:are|were)\s+your\s+(?:\w+\s+)?instructions\b`)},
	// "<|system|>", "<|im_start|>", "[INST]", "<<SYS>>"
	{"a chat role tag", regexp.MustCompile(
		`<\|[a-z_]{2,20}\|>|<\|?\s*/?\s*(?:system|assistant|developer|im_start|im_end|endoftext)\s*\|?>|\[/?(?:inst|system|sys)\]|<</?sys>>`)},
	// a line that opens a chat turn: "### System", "SYSTEM:", "**Assistant:**"
	{"a chat role tag", regexp.MustCompile(
		`(?m)^\s*(?:#{1,6}\s*|\*\*\s*)?(?:system|assistant|developer)\s*(?:\*\*)?\s*(?::|$)`)},
}

// injectionFlags names the kinds of model-steering text found in text,
// each once, in pattern order; nil when the text is clean.
func injectionFlags(text string) []string {
	norm, _ := normalizeForScan(text)
	var out []string
	for _, p := range injectionPatterns {
		if !slices.Contains(out, p.label) && p.re.MatchString(norm) {
			out = append(out, p.label)
		}
	}
	return out
}

// normalizeForScan lowers text for the patterns and maps each byte of the
// result back to the byte offset in text it came from.
func normalizeForScan(text string) (string, []int) {
	var b strings.Builder
	var from []int
	pendingSpace, pendingNL := false, false
	spaceAt := 0
	put := func(s string, at int) {
		b.WriteString(s)
		for range len(s) {
			from = append(from, at)
		}
	}
	for i, r := range text {
		switch {
		case r == '\n' || r == '\r' || r == '\u2028' || r == '\u2029':
			if !pendingSpace && !pendingNL {
				spaceAt = i
			}
			pendingNL = true
			continue
		case unicode.IsSpace(r):
			if !pendingSpace && !pendingNL {
				spaceAt = i
			}
			pendingSpace = true
			continue
		case unicode.Is(unicode.Cf, r) || unicode.IsControl(r):
			continue
		}
		if pendingNL {
			put("\n", spaceAt)
		} else if pendingSpace {
			put(" ", spaceAt)
		}
		pendingSpace, pendingNL = false, false
		switch r {
		case '\u2018', '\u2019', '\u02bc':
			r = '\''
		case '\u201c', '\u201d':
			r = '"'
		case '\uff5c': // fullwidth vertical line, as in <｜system｜>
			r = '|'
		}
		put(string(unicode.ToLower(r)), i)
	}
	return b.String(), from
}

// flaggedSentence is a sentence left out of a prompt.
type flaggedSentence struct {
	line   int // 0-based line within the text
	text   string
	labels []string
}

// sanitizeUntrusted removes every sentence of text that overlaps an
// injection match and returns the rest, with the removed sentences. A
// sentence ends after . ! ? or … (and closing quotes or brackets)
// followed by space, or at the end of a line; a line left with nothing
// but a list marker goes as a whole.
//
// Removing a sentence can join its neighbours into a new match, so passes
// repeat until the text is clean; lines found after the first pass are
// those of the text the pass before left.
func sanitizeUntrusted(text string) (string, []flaggedSentence) {
	clean, flagged := sanitizePass(text)
	for i := 0; len(flagged) > 0 && i < 64; i++ {
		next, more := sanitizePass(clean)
		if len(more) == 0 {
			break
		}
		clean, flagged = next, append(flagged, more...)
	}
	return clean, flagged
}

func sanitizePass(text string) (string, []flaggedSentence) {
	norm, from := normalizeForScan(text)
	type span struct {
		start, end int
		label      string
	}
	var spans []span
	for _, p := range injectionPatterns {
		for _, m := range p.re.FindAllStringIndex(norm, -1) {
			if m[1] <= m[0] {
				continue
			}
			start := from[m[0]]
			end := len(text)
			if m[1] < len(from) {
				end = from[m[1]]
			}
			// A match ends after its last rune, before the next one.
			last := from[m[1]-1]
			_, size := utf8.DecodeRuneInString(text[last:])
			if last+size < end {
				end = last + size
			}
			spans = append(spans, span{start, end, p.label})
		}
	}
	if len(spans) == 0 {
		return text, nil
	}
	var flagged []flaggedSentence
	var out []string
	lineStart := 0
	for lineNo, line := range strings.Split(text, "\n") {
		var kept strings.Builder
		removed := false
		for _, s := range splitSentences(line) {
			a, b := lineStart+s[0], lineStart+s[1]
			var labels []string
			for _, sp := range spans {
				if sp.start < b && sp.end > a && !slices.Contains(labels, sp.label) {
					labels = append(labels, sp.label)
				}
			}
			if len(labels) == 0 {
				kept.WriteString(line[s[0]:s[1]])
				continue
			}
			removed = true
			flagged = append(flagged, flaggedSentence{line: lineNo, text: strings.TrimSpace(line[s[0]:s[1]]), labels: labels})
		}
		lineStart += len(line) + 1
		k := strings.TrimRightFunc(kept.String(), unicode.IsSpace)
		if removed && isBareListMarker(k) {
			continue
		}
		out = append(out, k)
	}
	return strings.TrimSpace(cleanText(strings.Join(out, "\n"))), flagged
}

// isBareListMarker reports whether s is blank or only a Markdown list
// marker or quote marker.
func isBareListMarker(s string) bool {
	s = strings.TrimSpace(s)
	switch s {
	case "", "-", "*", "+", ">":
		return true
	}
	if strings.HasSuffix(s, ".") || strings.HasSuffix(s, ")") {
		_, err := strconv.Atoi(s[:len(s)-1])
		return err == nil
	}
	return false
}

// splitSentences cuts one line into sentences, as [start, end) byte
// ranges covering the line; trailing space belongs to the sentence before.
func splitSentences(line string) [][2]int {
	var out [][2]int
	start := 0
	i := 0
	for i < len(line) {
		r, size := utf8.DecodeRuneInString(line[i:])
		i += size
		if r != '.' && r != '!' && r != '?' && r != '…' {
			continue
		}
		for i < len(line) {
			r2, s2 := utf8.DecodeRuneInString(line[i:])
			if !strings.ContainsRune(`.!?…"')]”’»`, r2) {
				break
			}
			i += s2
		}
		if i < len(line) {
			r2, _ := utf8.DecodeRuneInString(line[i:])
			if !unicode.IsSpace(r2) {
				continue
			}
		}
		for i < len(line) {
			r2, s2 := utf8.DecodeRuneInString(line[i:])
			if !unicode.IsSpace(r2) {
				break
			}
			i += s2
		}
		out = append(out, [2]int{start, i})
		start = i
	}
	if start < len(line) || len(out) == 0 {
		out = append(out, [2]int{start, len(line)})
	}
	return out
}
