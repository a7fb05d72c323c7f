package wire

import (
	"strings"

	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/manuscript/dialogue"
	"github.com/quire-ink/quire/server/textdoc"
)

// DialogueParams are quire/dialogue's: the book's utterances, of one
// speaker (a character's name or alias) and one chapter (a number, title
// or path) when given.
type DialogueParams struct {
	BookParams
	Speaker string `json:"speaker,omitempty" ts:"string,optional"`
	Chapter string `json:"chapter,omitempty" ts:"string,optional"`
}

// Dialogue is quire/dialogue's answer and `quire dialogue --json`.
type Dialogue struct {
	Utterances []DialogueRecord `json:"utterances" ts:"DialogueRecord[]"`
	// Omitted counts the utterances left out of a long answer (quire
	// /dialogue answers at most 10,000): ask by chapter or speaker.
	Omitted int `json:"omitted,omitempty" ts:"number,optional"`
}

// DialogueRecord is one utterance: where it is, the words spoken, who
// speaks it (or who it may be) and the rule that decided (docs/dialogue.md).
type DialogueRecord struct {
	Chapter DialogueChapter `json:"chapter"`
	// Text is the words spoken, the spans' text joined by a space.
	Text  string         `json:"text"`
	Spans []DialogueSpan `json:"spans" ts:"DialogueSpan[]"`
	// Speaker is the speaker's entry ID, null when quire cannot tell.
	Speaker     *string `json:"speaker" ts:"string | null"`
	SpeakerName *string `json:"speakerName" ts:"string | null"`
	Uncertain   bool    `json:"uncertain"`
	// Candidates are who an uncertain utterance may be, best first.
	Candidates []DialogueCharacter `json:"candidates" ts:"DialogueCharacter[]"`
	// Rule is writer, explicit, pronoun, narration, vocative,
	// turn-taking or none.
	Rule string `json:"rule"`
	// Clue is, for a pronoun, the reading of the text around the line
	// that resolved it: pov, narrator, paragraph, paragraph-before,
	// beat, turns-ahead, followed, addressed, conversation, narration,
	// last-named, earlier or line-before (docs/dialogue.md).
	Clue string `json:"clue,omitempty" ts:"string,optional"`
	// Tag is the text that decided the speaker, when one did.
	Tag   *DialogueTag `json:"tag" ts:"DialogueTag | null"`
	Words int          `json:"words"`
}

// DialogueChapter names the chapter of an utterance.
type DialogueChapter struct {
	Path     string `json:"path"`
	Number   int    `json:"number,omitempty" ts:"number,optional"`
	Position int    `json:"position,omitempty" ts:"number,optional"`
	Title    string `json:"title"`
	// URI is the chapter's file, for an editor to open (quire/dialogue
	// only).
	URI string `json:"uri,omitempty" ts:"string,optional"`
}

// DialogueSpan is a stretch of a chapter's text by byte offsets and by
// line and column: lines counted from 1, columns from 1 in UTF-16 code
// units (one less is the LSP position).
type DialogueSpan struct {
	Start     int `json:"start"`
	End       int `json:"end"`
	Line      int `json:"line"`
	Column    int `json:"column"`
	EndLine   int `json:"endLine"`
	EndColumn int `json:"endColumn"`
}

// DialogueTag is the text that decided a speaker.
type DialogueTag struct {
	DialogueSpan
	Text string `json:"text"`
}

// DialogueCharacter is a character an utterance may be spoken by.
type DialogueCharacter struct {
	Entry string `json:"entry"`
	Name  string `json:"name"`
}

// LinesOfParams are quire.linesOf's: the character named at Position in
// the document URI (a name in prose or front matter, or the speaker of
// the line there), or the one Name names.
type LinesOfParams struct {
	BookParams
	Position *protocol.Position `json:"position,omitempty" ts:"Position,optional"`
	Name     string             `json:"name,omitempty" ts:"string,optional"`
}

// SpeakerHints is quire.toggleSpeakerHints's answer.
type SpeakerHints struct {
	On bool `json:"on"`
}

// DialogueRecordOf is utterance u of chapter c as a record, for `quire
// dialogue --json` and quire/dialogue alike; lines is c's line index and
// name gives an entry ID's name.
func DialogueRecordOf(c *manuscript.Unit, lines *textdoc.Lines, u *dialogue.Utterance, name func(string) string) DialogueRecord {
	r := DialogueRecord{
		Chapter:    DialogueChapter{Path: c.Path, Number: c.Number, Position: c.Position, Title: c.Title},
		Spans:      make([]DialogueSpan, 0, len(u.Spans)),
		Uncertain:  u.Uncertain,
		Candidates: []DialogueCharacter{},
		Rule:       string(u.Rule),
		Clue:       string(u.Clue),
		Words:      u.Words,
	}
	texts := make([]string, 0, len(u.Spans))
	for _, s := range u.Spans {
		r.Spans = append(r.Spans, DialogueSpanOf(lines, s))
		texts = append(texts, c.Text[s.Start:s.End])
	}
	r.Text = strings.Join(texts, " ")
	if u.Speaker != "" {
		id, n := u.Speaker, name(u.Speaker)
		r.Speaker, r.SpeakerName = &id, &n
	}
	if u.Uncertain {
		for _, id := range u.Candidates {
			r.Candidates = append(r.Candidates, DialogueCharacter{Entry: id, Name: name(id)})
		}
	}
	if u.Tag != (codex.Range{}) && u.Tag.End <= len(c.Text) {
		r.Tag = &DialogueTag{DialogueSpan: DialogueSpanOf(lines, u.Tag), Text: c.Text[u.Tag.Start:u.Tag.End]}
	}
	return r
}

// DialogueSpanOf is the byte range r of a text with its 1-based lines and
// UTF-16 columns.
func DialogueSpanOf(lines *textdoc.Lines, r codex.Range) DialogueSpan {
	start, end := lines.Position(r.Start), lines.Position(r.End)
	return DialogueSpan{Start: r.Start, End: r.End,
		Line: int(start.Line) + 1, Column: int(start.Character) + 1,
		EndLine: int(end.Line) + 1, EndColumn: int(end.Character) + 1}
}
