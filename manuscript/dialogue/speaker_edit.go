package dialogue

import (
	"slices"
	"strings"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
)

// SpeakerEdit is a change to a chapter's text: New replaces Range.
type SpeakerEdit struct {
	Range codex.Range
	New   string
}

// SpeakerChoice is one character a line may be given to, and the edit
// that gives it.
type SpeakerChoice struct {
	ID, Name string
	Edit     SpeakerEdit
}

// SpeakerLines are the edits that write the writer's line saying each
// character of ids speaks utterance i of an (`<!-- speaker: Name -->`,
// Name as name gives it), or rewrite the line the utterance already has,
// in the order of ids. an is ch's analysis. A character whose name the
// line would read as another's (two characters of one name) is left out.
//
// Where the line goes follows from how it is read (indexComments): at
// the end of the line the utterance ends on, else right after its last
// mark (another speech follows on that line), else after its first.
// Each place is tried by reading the chapter again with the line in it,
// after an (AnalyzeAfter: only the conversation the line is in); the
// first where the utterance is then the character's by the writer's
// rule, and no utterance comes or goes, is the place for every name.
// None is offered where there is none.
func SpeakerLines(an *Analysis, ch Chapter, i int, ids []string, name func(id string) string) []SpeakerChoice {
	utts := an.Utterances()
	if i < 0 || i >= len(utts) || len(utts[i].Marks) == 0 {
		return nil
	}
	var choices []SpeakerChoice
	for _, id := range ids {
		if n := name(id); n != "" && !strings.Contains(n, "-->") {
			if found, ok := an.cast.Find(n); ok && found == id {
				choices = append(choices, SpeakerChoice{ID: id, Name: n})
			}
		}
	}
	if len(choices) == 0 {
		return nil
	}
	u := utts[i]
	var places []codex.Range
	if u.Rule == RuleWriter && u.Tag.End > u.Tag.Start && u.Tag.End <= len(ch.Text) {
		places = append(places, u.Tag)
	}
	last, first := u.Marks[len(u.Marks)-1], u.Marks[0]
	for _, at := range []int{lineEnd(ch.Text, last.End), last.End, lineEnd(ch.Text, first.End), first.End} {
		if !slices.Contains(places, codex.Range{Start: at, End: at}) {
			places = append(places, codex.Range{Start: at, End: at})
		}
	}
	edit := func(r codex.Range, name string) SpeakerEdit {
		line := "<!-- speaker: " + name + " -->"
		if r.End == r.Start {
			line = " " + line
		}
		return SpeakerEdit{Range: r, New: line}
	}
	for _, r := range places {
		if speaksAfter(an, ch, first.Start, edit(r, choices[0].Name), choices[0].ID) {
			for k := range choices {
				choices[k].Edit = edit(r, choices[k].Name)
			}
			return choices
		}
	}
	return nil
}

// lineEnd is where the line holding off ends, before its line break and
// the spaces before it.
func lineEnd(text string, off int) int {
	end := len(text)
	if k := strings.IndexByte(text[off:], '\n'); k >= 0 {
		end = off + k
	}
	for end > off && (text[end-1] == ' ' || text[end-1] == '\t' || text[end-1] == '\r') {
		end--
	}
	return end
}

// speaksAfter says that with edit e made to ch, analyzed as an, the
// utterance that began at start is id's by the writer's rule, and ch
// holds as many utterances as before.
func speaksAfter(an *Analysis, ch Chapter, start int, e SpeakerEdit, id string) bool {
	delta := len(e.New) - (e.Range.End - e.Range.Start)
	shift := func(off int) int {
		if off >= e.Range.End {
			return off + delta
		}
		return off
	}
	shiftRange := func(r codex.Range) codex.Range { return codex.Range{Start: shift(r.Start), End: shift(r.End)} }
	edited := ch
	edited.Text = ch.Text[:e.Range.Start] + e.New + ch.Text[e.Range.End:]
	edited.Body = codex.Range{Start: ch.Body.Start, End: shift(ch.Body.End)}
	edited.Skip = make([]codex.Range, len(ch.Skip))
	for k, r := range ch.Skip {
		edited.Skip[k] = shiftRange(r)
	}
	edited.Mentions = make([]manuscript.Mention, len(ch.Mentions))
	for k, m := range ch.Mentions {
		m.Range = shiftRange(m.Range)
		edited.Mentions[k] = m
	}
	edited.POVs = make([]POVFrom, len(ch.POVs))
	for k, p := range ch.POVs {
		p.From = shift(p.From)
		edited.POVs[k] = p
	}
	got := AnalyzeAfter(an, edited, an.cast, an.opts).Utterances()
	if len(got) != len(an.utts) {
		return false
	}
	for _, u := range got {
		if len(u.Marks) > 0 && u.Marks[0].Start == shift(start) {
			return u.Rule == RuleWriter && u.Speaker == id
		}
	}
	return false
}
