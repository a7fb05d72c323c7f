package advisor

import (
	"maps"
	"slices"
)

// Under returns the book's settings over the user's: what the book sets
// wins; rules add up, the user's first; a persona the book configures
// takes the book's scope when it gives one, and both sets of rules.
func (s Settings) Under(book Settings) Settings {
	out := book
	str := func(dst *string, v string) {
		if *dst == "" {
			*dst = v
		}
	}
	str(&out.Title, s.Title)
	str(&out.Genre, s.Genre)
	str(&out.AudienceAge, s.AudienceAge)
	str(&out.AudienceLens, s.AudienceLens)
	out.Rules = append(slices.Clone(s.Rules), book.Rules...)
	if len(s.Personas)+len(book.Personas) > 0 {
		out.Personas = maps.Clone(s.Personas)
		if out.Personas == nil {
			out.Personas = map[string]PersonaSettings{}
		}
		for id, bp := range book.Personas {
			up := out.Personas[id]
			if bp.Tools.IsZero() {
				bp.Tools = up.Tools
			}
			bp.Rules = append(slices.Clone(up.Rules), bp.Rules...)
			out.Personas[id] = bp
		}
	}
	if out.Limits.MaxArgumentBytes == 0 {
		out.Limits.MaxArgumentBytes = s.Limits.MaxArgumentBytes
	}
	if out.Limits.MaxOutputBytes == 0 {
		out.Limits.MaxOutputBytes = s.Limits.MaxOutputBytes
	}
	if out.Limits.MaxCallsPerRound == 0 {
		out.Limits.MaxCallsPerRound = s.Limits.MaxCallsPerRound
	}
	if out.Limits.MaxAnswerBytes == 0 {
		out.Limits.MaxAnswerBytes = s.Limits.MaxAnswerBytes
	}
	if out.Rounds == 0 {
		out.Rounds = s.Rounds
	}
	if len(s.Groups) > 0 {
		groups := maps.Clone(s.Groups)
		maps.Copy(groups, book.Groups)
		out.Groups = groups
	}
	return out
}
