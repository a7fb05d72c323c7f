package continuity

import (
	"fmt"
	"strings"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/clip"
	"github.com/quire-ink/quire/manuscript/dialogue"
)

// maxQuotedSpeech bounds the speech a diagnostic quotes when the
// writer's speaker line, not a tag, gives it to the dead.
const maxQuotedSpeech = 60

// afterDeath flags a character dead as of the chapter who speaks or acts
// there. The check does not run in a flashback (Check skips it).
//
// Who speaks is the chapter's dialogue attribution (manuscript/dialogue):
// a line whose speaker is certain, by a speech tag that names them
// (`"Go," said Jory.`, `Jory said, "Go."`) or by the writer's
// `<!-- speaker: Jory -->` line, is flagged at the tag (at the speech,
// for the writer's line). A line whose speaker quire only guesses (a
// pronoun, the narration, the turns of a conversation) is never
// flagged, even when the guess is the dead character: a false alarm
// costs the writer more than a slip missed.
//
// Acting is the narration's: the name as the subject of a clause, before
// a verb of action or of speech (`Jory climbed the stair`, `Jory asked
// for the lamp`). Being named, remembered, mourned or possessed (`Jory's
// boots`) is no act; neither is a name after which the sentence only
// says what he was or had done (`Jory was`, `Jory had`), a name inside
// speech (someone speaks of Jory) or a name in a speech tag (the
// attribution has decided who speaks there).
func (c *checker) afterDeath() {
	var utts []dialogue.Utterance
	if c.canon.mortal && c.maySpeakDead() {
		utts = c.utterances()
	}
	for i := range utts {
		u := &utts[i]
		if u.Uncertain || u.Speaker == "" || u.Rule != dialogue.RuleExplicit && u.Rule != dialogue.RuleWriter {
			continue
		}
		if c.flashbackAt(u.Marks[0].Start) {
			continue
		}
		a, ok := c.deadAsOf(u.Speaker, u.Marks[0].Start)
		if !ok {
			continue
		}
		r := u.Tag
		if u.Rule != dialogue.RuleExplicit || r.End <= r.Start {
			r = u.Marks[0]
		}
		c.dead(a, u.Speaker, r, "speaks")
	}
	p := c.p
	next := 0 // the first utterance that may hold a mention yet, by its end
	for _, m := range c.mentions {
		if c.flashbackAt(m.Range.Start) {
			continue
		}
		a, ok := c.deadAsOf(m.Entry, m.Range.Start)
		if !ok {
			continue
		}
		if possessive(p.text, m.Range.End) {
			continue
		}
		for next < len(utts) && spokenEnd(&utts[next]) <= m.Range.Start {
			next++
		}
		// The narration between two lines may be the tag of either.
		if next < len(utts) && inSpeech(&utts[next], m.Range) || next+1 < len(utts) && inSpeech(&utts[next+1], m.Range) {
			continue
		}
		i := p.tokenAt(m.Range.Start) // the name's first word
		j := p.tokenAt(m.Range.End)   // the word after the name
		if i >= len(p.tokens) || j >= len(p.tokens) || p.tokens[j].sentence != p.tokens[i].sentence ||
			!isSpace(p.text[m.Range.End:p.tokens[j].start]) || !actingVerb(p.tokens[j].lower) || !c.clauseStart(i) {
			continue
		}
		c.dead(a, m.Entry, codex.Range{Start: m.Range.Start, End: p.tokens[j].end}, "acts")
	}
}

// deadAsOf is the character id as of the chapter, when dead there. Only
// an entry with story time (a status, progressions) can be dead: the
// rest are not worked out as of the chapter at all.
func (c *checker) deadAsOf(id string, off int) (codex.AsOf, bool) {
	if _, ok := c.canon.stories[id]; !ok {
		return codex.AsOf{}, false
	}
	a, ok := c.entryAsOf(id, off)
	if !ok || !a.Dead() || a.Entry.Type != codex.TypeCharacter && a.Entry.Type != "" {
		return codex.AsOf{}, false
	}
	return a, true
}

// maySpeakDead says the chapter may give speech to a dead character,
// so its speech is worth attributing: it names one, or holds an HTML
// comment (a speaker line may name one the prose does not).
func (c *checker) maySpeakDead() bool {
	for _, m := range c.mentions {
		if _, ok := c.deadAsOf(m.Entry, m.Range.Start); ok && !c.flashbackAt(m.Range.Start) {
			return true
		}
	}
	return strings.Contains(c.u.Text[c.body.Start:c.body.End], "<!--")
}

// utterances are the chapter's speech, attributed by the chain of
// manuscript/dialogue, with the chapter's names as the matcher found
// them and the book's quotation marks. The cast is the characters the
// chapter names (Cast.Within): attribution then costs what the chapter
// costs, however many characters the codex holds.
func (c *checker) utterances() []dialogue.Utterance {
	ch := dialogue.Chapter{
		Text:     c.u.Text,
		Body:     c.body,
		Skip:     c.u.Code,
		Mentions: c.named,
		POV:      c.povID(),
		POVs:     c.scenePOVs(),
	}
	return dialogue.Analyze(ch, c.canon.cast.Within(ch), c.opts.Dialogue)
}

// scenePOVs are where a scene's own pov takes over, for the "I" of its
// tags.
func (c *checker) scenePOVs() []dialogue.POVFrom {
	var out []dialogue.POVFrom
	for i, m := range c.moments {
		if c.scenes == nil || m.Meta.POV == c.u.Meta.POV && len(out) == 0 {
			continue
		}
		out = append(out, dialogue.POVFrom{From: c.scenes[i].Range.Start, ID: c.characterNamed(m.Meta.POV)})
	}
	return out
}

// povID is the character the chapter's pov: names by a name or alias
// (a progression's too), "" when it names none: the chapter's "I".
func (c *checker) povID() string { return c.characterNamed(c.u.Meta.POV) }

// characterNamed is the character name names, "" when none.
func (c *checker) characterNamed(name string) string {
	if name == "" {
		return ""
	}
	for _, e := range c.canon.Named(name) {
		if e.Type == codex.TypeCharacter {
			return e.ID
		}
	}
	return ""
}

// speechTag is u's tag when it is a speech verb beside a name (rule
// explicit): the narration the attribution read as saying who speaks.
// The other rules' tags are a pronoun, a name in the narration or the
// writer's line, which say nothing of acting.
func speechTag(u *dialogue.Utterance) codex.Range {
	if u.Rule != dialogue.RuleExplicit || u.Tag.End <= u.Tag.Start {
		return codex.Range{}
	}
	return u.Tag
}

// spokenEnd is where u's speech and speech tag end.
func spokenEnd(u *dialogue.Utterance) int {
	return max(u.Span().End, speechTag(u).End)
}

// inSpeech says r lies in u's speech, from its first mark to its last
// (a tag that interrupts it included), or in its speech tag.
func inSpeech(u *dialogue.Utterance, r codex.Range) bool {
	s, tag := u.Span(), speechTag(u)
	return r.Start >= s.Start && r.Start < s.End || r.Start >= tag.Start && r.Start < tag.End
}

// dead adds the after-death diagnostic of a, the entry id, who speaks or
// acts at r.
func (c *checker) dead(a codex.AsOf, id string, r codex.Range, act string) {
	death := "dead"
	rel := related(a, "status", "status: "+a.Status)
	for _, pr := range a.Applied {
		if v, ok := pr.Changes.Get("status"); ok {
			if s, _ := v.(string); strings.EqualFold(strings.TrimSpace(s), a.Status) {
				if ch, ok := c.t.From(id, c.progressionIndex(id, pr)); ok {
					death = fmt.Sprintf("dead from chapter %s, %q, on", ch.Label(), ch.Title)
				}
				rel = progressionRelated(a.Entry, pr, "status: "+a.Status)
				if pr.Note != "" {
					rel.Message += " — " + pr.Note
				}
			}
		}
	}
	c.add(Diagnostic{Code: CodeAfterDeath, Range: r, Entry: id,
		Message: fmt.Sprintf("%q: %s %s here, but in the codex %s is %s; mark the chapter `flashback: true` if it is told from before",
			clip.Runes(strings.Join(strings.Fields(c.u.Text[r.Start:r.End]), " "), maxQuotedSpeech), a.Entry.Name, act, a.Entry.Name, death),
		Related: []Related{rel}})
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
