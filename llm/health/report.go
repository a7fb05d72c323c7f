// Package health builds quire's health report: one line per thing a
// writer needs working (the binary, the book, its index, the provider,
// the model, the key, trust, the series), each with a status and, when
// something fails, what to do. The command line (`quire doctor`) and the
// language server (quire/doctor) gather what they know and hand it to
// Build, so both say the same; the package knows nothing of LSP.
package health

import (
	"cmp"
	"slices"
	"strings"
)

// Status is how one check came out.
type Status string

const (
	OK      Status = "ok"
	Warning Status = "warning"
	Problem Status = "problem"
)

// rank orders statuses worst first.
func (s Status) rank() int {
	switch s {
	case Problem:
		return 0
	case Warning:
		return 1
	}
	return 2
}

// Check is one line of the report. Detail and Fix are the writer's
// words; neither ever holds a key.
type Check struct {
	Name   string `json:"name"`
	Status Status `json:"status"`
	Detail string `json:"detail"`
	// Fix says what to do; empty when the check is ok.
	Fix string `json:"fix,omitempty"`
	// System is the operating system's own words behind a problem (why
	// no keychain answered, say), for a bug report: --json carries it,
	// the text a writer reads does not.
	System string `json:"system,omitempty"`
}

// Report is every check, in the order Build makes them.
type Report struct {
	Checks []Check `json:"checks"`
}

// HasProblem says a check is a problem: something the writer must fix
// before quire works as asked (`quire doctor` then exits 1).
func (r Report) HasProblem() bool {
	return slices.ContainsFunc(r.Checks, func(c Check) bool { return c.Status == Problem })
}

// WorstFirst is the report with problems first, then warnings, each
// group in Build's order: a one-message client shows what matters on
// its first lines.
func (r Report) WorstFirst() Report {
	out := slices.Clone(r.Checks)
	slices.SortStableFunc(out, func(a, b Check) int { return cmp.Compare(a.Status.rank(), b.Status.rank()) })
	return Report{Checks: out}
}

// Text is the report as lines: "ok       book: ..." and, under a failing
// check, "         fix: ...".
func (r Report) Text() string {
	var b strings.Builder
	for _, c := range r.Checks {
		b.WriteString(c.Line())
		b.WriteByte('\n')
	}
	return b.String()
}

// Line is one check as a single line, its fix after it.
func (c Check) Line() string {
	line := string(c.Status) + strings.Repeat(" ", max(1, 9-len(c.Status))) + c.Name + ": " + c.Detail
	if c.Fix != "" {
		line += " — " + c.Fix
	}
	return line
}
