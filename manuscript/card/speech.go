package card

import (
	"fmt"
	"strings"

	"github.com/quire-ink/quire/codex/clip"
	"github.com/quire-ink/quire/manuscript/dialogue"
)

// Speech is the hover card of a line of dialogue: who speaks it, how
// quire decided, and who it may be instead when unsure, written for the
// writer with the line that settles it. name gives an entry ID's name;
// tag is the text of the utterance's tag, "" when none decided.
func Speech(u *dialogue.Utterance, name func(id string) string, tag string) string {
	var b strings.Builder
	switch {
	case !u.Uncertain:
		fmt.Fprintf(&b, "**%s** speaks.", Escape(name(u.Speaker)))
	case len(u.Candidates) > 0:
		fmt.Fprintf(&b, "*Uncertain:* **%s**, perhaps.", Escape(name(u.Candidates[0])))
		if len(u.Candidates) > 1 {
			others := make([]string, 0, len(u.Candidates)-1)
			for _, id := range u.Candidates[1:] {
				others = append(others, Escape(name(id)))
			}
			fmt.Fprintf(&b, " Or %s.", joinOr(others))
		}
	default:
		b.WriteString("*Uncertain:* quire cannot tell who speaks this line.")
	}
	b.WriteString("\n\n")
	b.WriteString(RuleExplanation(u.Rule, u.Clue, Escape(tag)))
	if u.Words == 1 {
		b.WriteString("\n\n1 word spoken.")
	} else {
		fmt.Fprintf(&b, "\n\n%d words spoken.", u.Words)
	}
	switch {
	case u.Uncertain:
		// The quick fixes write that line (server/speaker_action.go).
		b.WriteString(" To say who speaks, pick them from the quick fixes, or add `<!-- speaker: Name -->` after the line.")
	case u.Rule != dialogue.RuleWriter:
		b.WriteString(" To say who speaks, add `<!-- speaker: Name -->` after the line.")
	}
	return b.String()
}

// RuleExplanation says how a rule of the attribution chain decided, in a
// writer's words, quoting the tag that did when there is one; for a
// pronoun, whom the clue took it to be (dialogue.Clue).
func RuleExplanation(r dialogue.Rule, clue dialogue.Clue, tag string) string {
	quoted := ""
	if tag = strings.Join(strings.Fields(tag), " "); tag != "" {
		quoted = fmt.Sprintf(" (“%s”)", clip.Words(tag, 60))
	}
	switch r {
	case dialogue.RuleWriter:
		return "You said so, in the line after it."
	case dialogue.RuleExplicit:
		return "Decided by the speech tag" + quoted + "."
	case dialogue.RulePronoun:
		if who := clueText(clue); who != "" {
			return "Decided by the pronoun in the tag" + quoted + ": " + who
		}
		return "Decided by the pronoun in the tag" + quoted + ": the character it most likely refers to nearby."
	case dialogue.RuleNarration:
		if who := clueText(clue); who != "" {
			return "Decided by the paragraph's narration" + quoted + ", whose pronoun is " + who
		}
		return "Decided by the paragraph's narration" + quoted + ", which names this character."
	case dialogue.RuleVocative:
		return "Decided by the line before, which speaks to this character: by name, or in its tag (\"said Emma to Harriet\", \"he asked the vicar\", \"said Mr. Bennet to his wife\")."
	case dialogue.RuleTurn:
		return "Decided by turn-taking: the conversation's speakers take turns, and a paragraph is one speaker's."
	}
	return "No tag, name or turn of a conversation says who speaks."
}

// clueText is whom a clue takes a pronoun to be, as the end of a
// sentence; "" for none.
func clueText(c dialogue.Clue) string {
	switch c {
	case dialogue.CluePOV:
		return "the chapter's point of view (its `pov:`)."
	case dialogue.ClueNarrator:
		return "the narrator, as the lines around the book's “I” lines show by speaking to them by name."
	case dialogue.ClueParagraph:
		return "the character this paragraph's narration names."
	case dialogue.ClueParagraphBefore:
		return "the character the paragraph before is about."
	case dialogue.ClueBeat:
		return "the character the narration after the line before is about."
	case dialogue.ClueTurnsAhead:
		return "the speaker the conversation's later turns leave this line to, as its lines take turns."
	case dialogue.ClueFollowed:
		return "the character this chapter follows."
	case dialogue.ClueAddressed:
		return "the character the line before spoke to."
	case dialogue.ClueConversation:
		return "one of this conversation's speakers."
	case dialogue.ClueNarration:
		return "the character the narration's own “he” or “she” has been about."
	case dialogue.ClueLastNamed:
		return "the last character named before the line whom the pronoun fits."
	case dialogue.ClueEarlier:
		return "a character who spoke, or was named, earlier in the chapter."
	case dialogue.ClueLineBefore:
		return "the speaker of the line before, as no one else nearby fits."
	}
	return ""
}
