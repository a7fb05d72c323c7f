package actions

import (
	"fmt"
	"github.com/quire-ink/quire/codex/clip"
	"github.com/quire-ink/quire/llm/untrusted"
	"strings"
)

// A prepared action is an action's text made safe to send: untrusted
// lines sanitized once, so that each ask only fills in its target.

// Prepared is an action whose own text has been checked and
// rendered once, so that building its message for a target is cheap: a
// code action list builds one for every action each time it is asked.
type Prepared struct {
	Action
	name string
	body string
}

// Prepare checks and renders the action's name, prompt, goals and
// guardrails, as Message does.
func (a Action) Prepare() Prepared {
	name := untrusted.Line(a.Name)
	if name == "" {
		name = a.ID
	}
	var b strings.Builder
	if prompt, _ := untrusted.Sanitize(untrusted.Clean(a.Prompt)); prompt != "" {
		b.WriteString("\n")
		b.WriteString(prompt)
		b.WriteString("\n")
	}
	writeItems := func(title string, items []string) {
		var lines []string
		for _, it := range items {
			if s := untrusted.Line(it); s != "" {
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
	return Prepared{Action: a, name: name, body: b.String()}
}

// Message is the prepared action's message for target (see
// Action.Message); only the target is checked here.
func (p Prepared) Message(target string) string {
	target = untrusted.Line(target)
	if len(target) > maxTargetBytes {
		target = clip.BytesMarked(target, maxTargetBytes)
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
