package dialogue

import "github.com/quire-ink/quire/codex"

// Utterance is one piece of speech: what one character says from an
// opening mark to its closing one. Speech a tag interrupts ("I cannot,"
// said Emma, "agree.") and speech that runs over several paragraphs are
// one utterance of several spans.
type Utterance struct {
	// Spans are the spoken words without their quotation marks, in text
	// order; byte offsets into the chapter's text.
	Spans []codex.Range `json:"spans"`
	// Marks are the same spans with their opening and closing marks (a
	// closing mark may be missing, as in a paragraph of speech that
	// continues in the next one).
	Marks []codex.Range `json:"marks"`
	// Speaker is the codex entry ID of the character who speaks; empty
	// when quire cannot tell (then Uncertain is set and Candidates says
	// who it may be).
	Speaker string `json:"speaker,omitempty"`
	// Uncertain says the rules did not settle the speaker.
	Uncertain bool `json:"uncertain,omitempty"`
	// Candidates are the characters the speaker may be, best first. For
	// an uncertain utterance the first is quire's best guess.
	Candidates []string `json:"candidates,omitempty"`
	// Rule says how the speaker was decided.
	Rule Rule `json:"rule"`
	// Clue says, for a pronoun, which reading of the text around the
	// line chose its character (the one this paragraph names, the
	// character the chapter follows, the last named, …); empty for the
	// other rules and for a pronoun resolved through a relative.
	Clue Clue `json:"clue,omitempty"`
	// Tag is the text that decided the speaker (the speech verb and name,
	// the pronoun, the vocative), when one did; empty otherwise.
	Tag codex.Range `json:"tag,omitzero"`
	// Words counts the spoken words.
	Words int `json:"words"`
}

// Span is the utterance's whole extent, from its first mark to its last.
func (u *Utterance) Span() codex.Range {
	return codex.Range{Start: u.Marks[0].Start, End: u.Marks[len(u.Marks)-1].End}
}

// Best is the speaker when certain, else the best candidate, else "":
// whom hover, the speaker hints, "Lines of" and --speaker give the line.
func (u *Utterance) Best() string {
	if u.Speaker != "" {
		return u.Speaker
	}
	if len(u.Candidates) > 0 {
		return u.Candidates[0]
	}
	return ""
}

// Rule names the link of the attribution chain that decided a speaker.
type Rule string

const (
	// RuleWriter: the writer said who speaks, in a line of the chapter.
	RuleWriter Rule = "writer"
	// RuleExplicit: a speech verb beside a name or alias ("said Emma").
	RuleExplicit Rule = "explicit"
	// RulePronoun: a speech verb beside a pronoun ("she said"), resolved
	// to the last character mentioned whom it fits.
	RulePronoun Rule = "pronoun"
	// RuleNarration: the paragraph's narration names one character who
	// acts there ("Emma smiled. 'Indeed.'").
	RuleNarration Rule = "narration"
	// RuleVocative: a neighbouring utterance addresses the speaker by
	// name ("my dear Mr. Bennet").
	RuleVocative Rule = "vocative"
	// RuleTurn: the turns of a conversation between two characters.
	RuleTurn Rule = "turn-taking"
	// RuleNone: no rule decided; the utterance is uncertain.
	RuleNone Rule = "none"
)

// Clue is the reading of the text around a line that resolved its tag's
// pronoun to a character: the step of the pronoun's chain (attribute.go)
// that chose it. Hover shows it beside the rule, so a writer can see why
// quire guesses the character it does; the dialogue benchmark counts
// how often each is right (docs/dialogue.md).
type Clue string

const (
	// CluePOV: "I" is the chapter's point of view (`pov:`).
	CluePOV Clue = "pov"
	// ClueNarrator: "I" is the narrator the lines around the chapter's
	// "I" lines show, in this chapter or across the book.
	ClueNarrator Clue = "narrator"
	// ClueParagraph: the character the narration of the line's own
	// paragraph names.
	ClueParagraph Clue = "paragraph"
	// ClueParagraphBefore: the character a sentence of the paragraph of
	// narration just before opens on.
	ClueParagraphBefore Clue = "paragraph-before"
	// ClueBeat: the character the narration after the line before, in
	// its paragraph, opens a sentence on ("Wickham only shook his head.").
	ClueBeat Clue = "beat"
	// ClueTurnsAhead: the speaker the conversation's later turns give
	// this turn (its lines alternate).
	ClueTurnsAhead Clue = "turns-ahead"
	// ClueFollowed: the character the chapter's narration follows.
	ClueFollowed Clue = "followed"
	// ClueAddressed: the character the line before spoke to by name.
	ClueAddressed Clue = "addressed"
	// ClueConversation: a speaker of the conversation's lines before.
	ClueConversation Clue = "conversation"
	// ClueNarration: the character the narration's own he or she has
	// been about just before the line.
	ClueNarration Clue = "narration"
	// ClueLastNamed: the character named last before the line whom the
	// pronoun fits.
	ClueLastNamed Clue = "last-named"
	// ClueEarlier: a character who spoke, or was named, earlier in the
	// chapter.
	ClueEarlier Clue = "earlier"
	// ClueLineBefore: the speaker of the line before, when nothing else
	// in reach fits.
	ClueLineBefore Clue = "line-before"
)

// Clues lists the clues in the order the pronoun's chain tries them
// (pronoun.go), the order tables list them in.
func Clues() []Clue {
	return []Clue{CluePOV, ClueNarrator, ClueParagraph, ClueParagraphBefore, ClueBeat, ClueTurnsAhead,
		ClueFollowed, ClueAddressed, ClueConversation, ClueNarration, ClueLastNamed, ClueEarlier, ClueLineBefore}
}
