package server

import (
	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/server/wire"
)

// The canon and manuscript requests answer with the domain packages'
// values in the protocol's types. The conversions are Go struct
// conversions where the shapes allow, so a field added to one side and
// not the other stops the build instead of vanishing from the wire.

// entriesOf is a list of entries for the wire: never null, as clients
// iterate it without a check.
func entriesOf(rs []codex.Result) []wire.CodexEntry {
	out := make([]wire.CodexEntry, len(rs))
	for i, r := range rs {
		out[i] = wire.CodexEntry(r)
	}
	return out
}

// manuscriptContextOf is c for the wire; empty lists stay as they were
// (null or []), so the JSON is manuscript.Context's.
func manuscriptContextOf(c *manuscript.Context) wire.ManuscriptContext {
	out := wire.ManuscriptContext{Chars: c.Chars, Truncated: c.Truncated}
	if c.Units != nil {
		out.Units = make([]wire.ContextUnit, len(c.Units))
		for i, u := range c.Units {
			out.Units[i] = wire.ContextUnit(u)
		}
	}
	if c.Failed != nil {
		out.Failed = make([]wire.FailedRef, len(c.Failed))
		for i, f := range c.Failed {
			out.Failed[i] = wire.FailedRef{Ref: f.Ref, Error: f.Error}
			if f.Candidates != nil {
				out.Failed[i].Candidates = make([]wire.RefCandidate, len(f.Candidates))
				for j, cand := range f.Candidates {
					out.Failed[i].Candidates[j] = wire.RefCandidate(cand)
				}
			}
		}
	}
	return out
}
