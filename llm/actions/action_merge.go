package actions

import (
	"fmt"
	"slices"
	"strings"
)

// Merging the core actions with the writer's: which one wins an id, and
// how a clash is reported, kept apart from reading them.

// ByID finds the action id names in actions.
func ByID(actions []Action, id string) (Action, bool) {
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

// Merge puts core and the writer's actions together. Core actions
// come first and are locked: a user action with a core id is rejected
// with an error saying to copy it under a new id. Among user actions an id
// seen before rejects the later one, with an error naming both places.
// Pass user actions in a stable order (quire.yaml, then action files by
// name). The result is core actions, then user actions, each by name.
func Merge(core []Action, user ...[]Action) ([]Action, []Problem) {
	var out []Action
	var problems []Problem
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
