package server

import (
	"fmt"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/count"
	"github.com/quire-ink/quire/manuscript"
)

// givenRename is what a rename does to the places that call an entry by
// its given name alone (manuscript.GivenName), which the codex does not
// list: "Teodora sat" of Teodora Quill.
type givenRename struct {
	old, new string
	// renamed are the places given the new name's given name; left, the
	// places left as written because the new name has none.
	renamed, left int
}

// renameGiven adds to changes the edits that give the places among e's
// occurrences, occs, that call e by its given name the given name of
// newName, when it has one that differs ("Teodora Quill" renamed "Dora
// Quill": "Teodora sat" becomes "Dora sat"). Were they left, they would
// name no one after the rename. A place already in seen is skipped, and
// the others are added to it: a series file is a place of every book of
// the series, edited and counted once.
func (t *target) renameGiven(e *codex.Entry, occs []occurrence, newName string, changes map[protocol.DocumentURI][]protocol.TextEdit, seen renamePlaces) givenRename {
	old, ok := manuscript.GivenName(e)
	if !ok {
		return givenRename{}
	}
	next, hasNext := manuscript.GivenName(&codex.Entry{Type: e.Type, Name: newName, Aliases: e.Aliases, Exclude: e.Exclude})
	if hasNext && codex.Normalize(next) == codex.Normalize(old) {
		return givenRename{}
	}
	g := givenRename{old: old, new: next}
	var places []occurrence
	for _, o := range occs {
		if o.mention.Entry != e.ID || !o.mention.Alias || o.mention.Declined {
			continue
		}
		written := manuscript.WithoutClitic(o.text[o.mention.Range.Start:o.mention.Range.End])
		if codex.Normalize(written) != codex.Normalize(old) {
			continue // an alias
		}
		o.mention.Range.End = o.mention.Range.Start + len(written)
		places = append(places, o)
	}
	for i, loc := range t.locations(places) {
		if !seen.mark(loc.URI, loc.Range) {
			continue
		}
		if !hasNext {
			g.left++
			continue
		}
		o := places[i]
		word := next
		// Text in capitals keeps them.
		if w := o.text[o.mention.Range.Start:o.mention.Range.End]; w == strings.ToUpper(w) && w != strings.ToLower(w) {
			word = strings.ToUpper(next)
		}
		changes[loc.URI] = append(changes[loc.URI], protocol.TextEdit{Range: loc.Range, NewText: word})
		g.renamed++
	}
	return g
}

// and is g with the places of h, the same entry's in another book of
// its series.
func (g givenRename) and(h givenRename) givenRename {
	if g.old == "" {
		g.old, g.new = h.old, h.new
	}
	g.renamed += h.renamed
	g.left += h.left
	return g
}

// message says what became of the given name's places, for the
// rename's message; "" when there were none.
func (g givenRename) message(name, newName string) string {
	switch {
	case g.renamed == 1:
		return fmt.Sprintf(" One place that called %s “%s” alone now says “%s”.", name, g.old, g.new)
	case g.renamed > 1:
		return fmt.Sprintf(" %s that called %s “%s” alone now say “%s”.", count.Of(g.renamed, "place"), name, g.old, g.new)
	case g.left > 0:
		verb := "are"
		if g.left == 1 {
			verb = "is"
		}
		return fmt.Sprintf(" %s calling %s “%s” alone %s left as written: %s has no first name quire finds alone, so add “%s” as an alias if they still mean %s.",
			count.Of(g.left, "place"), name, g.old, verb, newName, g.old, newName)
	}
	return ""
}
