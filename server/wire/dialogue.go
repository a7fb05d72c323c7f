package wire

import (
	"strings"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/manuscript/dialogue"
	"github.com/quire-ink/quire/server/textdoc"
)

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

// Speaks says utterance u is given to the character id: its speaker,
// or, when quire is unsure, its best guess (the first candidate), as
// hover, the speaker hints and "Lines of" show it.
func Speaks(u *dialogue.Utterance, id string) bool { return u.Best() == id }
