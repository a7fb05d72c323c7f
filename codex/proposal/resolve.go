package proposal

import (
	"fmt"
	"strings"

	"github.com/quire-ink/quire/codex"
)

// canonTarget is the codex a proposal is made against.
type canonTarget struct {
	Store *codex.Store
}

// resolveExact finds the one entry of type t that name names exactly (by
// name, title, file name or alias): a proposal never guesses.
func (ct *canonTarget) resolveExact(t codex.Type, name string) (*codex.Entry, error) {
	cat := ct.Store.Catalog()
	ms := cat.Lookup(name, t)
	var exact []codex.Match
	var near []string
	for _, m := range ms {
		switch m.Kind {
		case codex.MatchName, codex.MatchTitle, codex.MatchStem, codex.MatchAlias:
			exact = append(exact, m)
		default:
			if len(near) < maxCandidates {
				near = append(near, m.Entry.Name)
			}
		}
	}
	if len(exact) == 0 {
		te := errorf(NotFound, "no %s entry is named %q", t, name)
		for _, m := range cat.Lookup(name, "") {
			if m.Entry.Type != t && (m.Kind == codex.MatchName || m.Kind == codex.MatchTitle || m.Kind == codex.MatchAlias || m.Kind == codex.MatchStem) {
				te.Message += fmt.Sprintf("; %s (%s) is a %s: use entryType %s", m.Entry.Name, m.Entry.ID, m.Entry.Type, m.Entry.Type)
				break
			}
		}
		if len(near) > 0 {
			te.Message += "; did you mean one of the candidates? Use its exact name"
		} else {
			te.Message += fmt.Sprintf("; use list_codex_entries to see every %s, or propose_codex_create for a new one", t)
		}
		te.Candidates = near
		return nil, te
	}
	best := exact[0]
	var tied []string
	for _, m := range exact[1:] {
		if m.Kind == best.Kind && m.Score == best.Score {
			tied = append(tied, fmt.Sprintf("%s (%s)", m.Entry.Name, m.Entry.ID))
		}
	}
	if len(tied) > 0 {
		te := errorf(Ambiguous, "%q names more than one %s entry equally (%s); use the full name of the one meant",
			name, t, strings.Join(append([]string{fmt.Sprintf("%s (%s)", best.Entry.Name, best.Entry.ID)}, tied...), ", "))
		te.Candidates = append([]string{best.Entry.Name}, namesOf(exact[1:], best)...)
		return nil, te
	}
	return best.Entry, nil
}

func namesOf(ms []codex.Match, best codex.Match) []string {
	var out []string
	for _, m := range ms {
		if m.Kind == best.Kind && m.Score == best.Score {
			out = append(out, m.Entry.Name)
		}
	}
	return out
}
