// Package actions reads, checks and prepares the advisor's actions:
// named, reusable asks of one persona that the server offers as code
// actions. It lies above the advisor (package llm), whose board names the
// personas an action may ask.
//
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
//	persona     the board member who answers (llm.PersonaByID)
//	usage       when to use it, for the writer; never sent to the model
//	goals       up to 10 lines, each at most 300 bytes
//	guardrails  up to 10 lines, each at most 300 bytes
//	prompt      what the persona is asked to do, at most 4,000 bytes
//
// A user action's text is untrusted: sentences that read as an attempt to
// steer the model itself (overriding its instructions, reassigning its
// role, asking for its prompt, chat role tags) are reported as warnings and
// left out of the message the persona receives (package untrusted).
package actions

import (
	"fmt"
	"strings"

	"github.com/quire-ink/quire/llm"
	"github.com/quire-ink/quire/llm/untrusted"
)

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
	// Dir is where action files live, relative to the project root.
	Dir = ".quire/actions"
)

// Severities of an Problem.
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

// Problem is a diagnostic about an action definition. An error
// means the action was rejected; a warning means it was kept, with
// flagged text left out of its message.
type Problem struct {
	// Source is "quire.yaml" or ".quire/actions/<file>.md".
	Source string
	// Line is 1-based; 0 when the problem has no line.
	Line     int
	Message  string
	Severity string
}

// String formats the problem as "quire.yaml: line 12: message", with
// "warning: " before the message of a warning.
func (p Problem) String() string {
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
	name := untrusted.Line(a.Name)
	if name == "" {
		name = a.ID
	}
	if p, ok := llm.PersonaByID(a.Persona); ok {
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
