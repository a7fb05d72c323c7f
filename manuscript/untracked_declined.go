package manuscript

import (
	"cmp"
	"maps"
	"slices"
	"strings"

	"github.com/quire-ink/quire/codex"
)

// Untracked names in Russian, whose names the matcher finds declined
// (codex/declension.go): a name's other cases are one suggestion with it.

// withoutDeclinedForms leaves out the suggestions whose name is another
// suggestion's name or alias in another case ("Николая" beside
// Николай): an entry of that name finds them (codex/declension.go), and its
// count holds them.
func withoutDeclinedForms(groups []*untrackedGroup) []*untrackedGroup {
	declined := map[string]bool{}
	for _, g := range groups {
		for _, f := range append([]string{g.name}, g.aliases...) {
			for _, d := range codex.DeclinedForms(f) {
				declined[codex.Normalize(d)] = true
			}
		}
	}
	if len(declined) == 0 {
		return groups
	}
	return slices.DeleteFunc(groups, func(g *untrackedGroup) bool { return declined[codex.Normalize(g.name)] })
}

// foldToNominatives joins the suggestions that are other cases of one
// Russian name ("Москву", "Москве", "Москвы") into one suggestion of its
// nominative (Москва), whose entry finds them all: the suggestion of
// the nominative when there is one, else a new one, first seen where
// the most used of them is. Of the nominatives their endings fit, the
// one that explains the most words the book writes wins, itself
// included when the book writes it (writes): "Петербург" (written, with
// Петербурга and Петербурге) beats Петербурга (with Петербурге), and
// "Ласка" (with Ласку) beats Ласк, written nowhere, in a tie. A new
// suggestion takes two or more; each joins one.
func foldToNominatives(groups []*untrackedGroup, writes func(string) bool) []*untrackedGroup {
	fits := map[string][]int{}
	for i, g := range groups {
		if len(g.aliases) > 0 || strings.ContainsRune(g.name, ' ') {
			continue
		}
		for _, n := range codex.NominativesOf(g.name) {
			fits[n] = append(fits[n], i)
		}
	}
	if len(fits) == 0 {
		return groups
	}
	named := map[string]int{}
	for i, g := range groups {
		named[g.name] = i
	}
	// explains counts the written words a nominative explains; self
	// says the book writes the nominative too, which wins a tie.
	explains, self := map[string]int{}, map[string]int{}
	for n, members := range fits {
		if _, ok := named[n]; ok || writes(n) {
			self[n] = 1
		}
		explains[n] = self[n] + len(members)
	}
	noms := slices.Collect(maps.Keys(fits))
	slices.SortFunc(noms, func(a, b string) int {
		return cmp.Or(cmp.Compare(explains[b], explains[a]), cmp.Compare(self[b], self[a]), strings.Compare(a, b))
	})
	joined := make([]bool, len(groups))
	var folded []*untrackedGroup
	for _, n := range noms {
		members := slices.DeleteFunc(slices.Clone(fits[n]), func(i int) bool { return joined[i] })
		own, suggested := named[n]
		if suggested && joined[own] || len(members) == 0 || !suggested && len(members) < 2 {
			continue
		}
		g := &untrackedGroup{name: n}
		if suggested {
			g = groups[own]
			joined[own] = true
		} else {
			most := slices.MaxFunc(members, func(a, b int) int { return cmp.Compare(groups[a].tally, groups[b].tally) })
			g.first = groups[most].first
		}
		folded = append(folded, g)
		for _, i := range members {
			joined[i] = true
			g.forms = append(g.forms, groups[i].forms...)
			g.tally += groups[i].tally
		}
	}
	out := folded
	for i, g := range groups {
		if !joined[i] {
			out = append(out, g)
		}
	}
	return out
}
