package continuity

import (
	"fmt"
	"strings"

	"github.com/quire-ink/quire/codex"
)

// afterDeath flags a character dead as of the chapter who speaks (`said
// Jory`, `Jory said`, `Jory asked`) or acts as the subject of a clause
// (`Jory climbed the stair`). Being named, remembered, mourned or
// possessed (`Jory's boots`) is no act; neither is a name after which
// the sentence only says what he was or had done (`Jory was`, `Jory had`).
// The check does not run in a flashback (Check skips it).
func (c *checker) afterDeath() {
	p := c.p
	for _, m := range c.mentions {
		// Only an entry with story time (a status, progressions) can be
		// dead: the rest are not worked out as of the chapter at all.
		if _, ok := c.canon.stories[m.Entry]; !ok {
			continue
		}
		a, ok := c.entryAsOf(m.Entry)
		if !ok || !a.Dead() || a.Entry.Type != codex.TypeCharacter && a.Entry.Type != "" {
			continue
		}
		if possessive(p.text, m.Range.End) {
			continue
		}
		i := p.tokenAt(m.Range.Start) // the name's first word
		j := p.tokenAt(m.Range.End)   // the word after the name
		if i >= len(p.tokens) {
			continue
		}
		var r codex.Range
		var act string
		switch {
		case i > 0 && speechVerbs[p.tokens[i-1].lower] && isSpace(p.gap(i-1)) && p.tokens[i-1].sentence == p.tokens[i].sentence:
			// "said Jory"
			r = codex.Range{Start: p.tokens[i-1].start, End: m.Range.End}
			act = "speaks"
		case j < len(p.tokens) && p.tokens[j].sentence == p.tokens[i].sentence && isSpace(p.text[m.Range.End:p.tokens[j].start]):
			w := p.tokens[j].lower
			switch {
			case speechVerbs[w]:
				act = "speaks"
			case actingVerb(w) && c.clauseStart(i):
				act = "acts"
			default:
				continue
			}
			r = codex.Range{Start: m.Range.Start, End: p.tokens[j].end}
		default:
			continue
		}
		death := "dead"
		rel := related(a, "status", "status: "+a.Status)
		for _, pr := range a.Applied {
			if v, ok := pr.Changes.Get("status"); ok {
				if s, _ := v.(string); strings.EqualFold(strings.TrimSpace(s), a.Status) {
					if ch, ok := c.t.From(m.Entry, c.progressionIndex(m.Entry, pr)); ok {
						death = fmt.Sprintf("dead from chapter %d, %q, on", ch.Position, ch.Title)
					}
					rel = progressionRelated(a.Entry, pr, "status: "+a.Status)
					if pr.Note != "" {
						rel.Message += " — " + pr.Note
					}
				}
			}
		}
		c.add(Diagnostic{Code: CodeAfterDeath, Range: r, Entry: m.Entry,
			Message: fmt.Sprintf("%q: %s %s here, but in the codex %s is %s; mark the chapter `flashback: true` if it is told from before", p.text[r.Start:r.End], a.Entry.Name, act, a.Entry.Name, death),
			Related: []Related{rel}})
	}
}

// progressionIndex finds which of the entry's progressions p is.
func (c *checker) progressionIndex(id string, p codex.Progression) int {
	s, _ := c.t.story(id)
	for i, q := range s.Progressions {
		if q.Range == p.Range && q.File == p.File {
			return i
		}
	}
	return -1
}

// clauseStart reports whether token i opens a clause: the sentence's
// first word, the first after a closing quote or a semicolon, or after
// "and", "but", "then" that follow a comma.
func (c *checker) clauseStart(i int) bool {
	p := c.p
	if i == 0 || p.tokens[i-1].sentence != p.tokens[i].sentence {
		return true
	}
	g := p.gap(i - 1)
	if strings.ContainsAny(g, "\"”;:—") || strings.Contains(g, "’ ") || strings.Contains(g, "' ") {
		return true
	}
	if clauseOpeners[p.tokens[i-1].lower] && i > 1 && strings.Contains(p.gap(i-2), ",") {
		return true
	}
	return false
}
