package server

import (
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex/settings"
	"github.com/quire-ink/quire/manuscript/goals"
	"github.com/quire-ink/quire/manuscript/snapshot"
)

// goalProblems reads the goals: of one quire.yaml into c and returns what
// cannot be used as warnings on that file: a bad goal is left unset on
// its own, the rest of the file stands.
func goalProblems(c *bookConfig, f *settings.File) []configProblem {
	var problems []*settings.Problem
	c.goals, problems = goals.SettingsFrom(&settings.Loaded{Book: f, User: &settings.File{}})
	// snapshots: likewise: a bad length leaves the default.
	_, snapProblems := snapshot.PolicyFrom(&settings.Loaded{Book: f, User: &settings.File{}})
	problems = append(problems, snapProblems...)
	out := make([]configProblem, 0, len(problems))
	for _, p := range problems {
		out = append(out, configProblem{line: p.Line, message: p.Error(), severity: protocol.DiagnosticSeverityWarning, local: true})
	}
	return out
}
