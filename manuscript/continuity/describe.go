package continuity

import (
	"fmt"
	"strings"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
)

// Applied is a progression that holds in a chapter, with the chapter it
// holds from.
type Applied struct {
	codex.Progression
	From Chapter `json:"fromChapter"`
}

// Applied lists the progressions of e that hold in ch, each with the
// chapter it starts at.
func (t *Timeline) Applied(e *codex.Entry, ch Chapter) []Applied {
	s, ok := t.story(e.ID)
	if !ok {
		return nil
	}
	var out []Applied
	for i, p := range s.Progressions {
		from, ok := t.From(e.ID, i)
		if ok && t.reached(from.Position, ch) {
			out = append(out, Applied{Progression: p, From: from})
		}
	}
	return out
}

// AsOfLine says, for a writer, which canon of e a chapter sees: the line
// hover and the advisor's tools put above an entry shown as of a
// chapter. It is empty when e has no progressions.
func (t *Timeline) AsOfLine(e *codex.Entry, ch Chapter) string {
	s, ok := t.story(e.ID)
	if !ok || len(s.Progressions) == 0 {
		return ""
	}
	where := fmt.Sprintf("As of chapter %s, %q", ch.Label(), ch.Title)
	if ch.Title == "" {
		where = "As of " + ch.Path
	}
	if ch.Scene > 0 {
		where += fmt.Sprintf(", scene %d", ch.Scene)
	}
	if ch.Meta.Flashback && ch.Meta.HasDay {
		where += fmt.Sprintf(" (a flashback to day %d)", ch.Meta.Day)
	}
	applied := t.Applied(e, ch)
	if len(applied) == 0 {
		return where + ": none of its progressions apply yet."
	}
	parts := make([]string, len(applied))
	for i, a := range applied {
		var changes []string
		for _, f := range a.Changes {
			changes = append(changes, f.Key+": "+showValue(f.Value))
		}
		if a.Note != "" {
			changes = append(changes, "note")
		}
		if a.File != "" {
			// The book overrides the entry: say which side each holds from.
			changes = append(changes, "series canon")
		}
		parts[i] = fmt.Sprintf("from chapter %s, %q (%s)", a.From.Label(), a.From.Title, strings.Join(changes, ", "))
	}
	noun := "progression applies"
	if len(applied) > 1 {
		noun = "progressions apply"
	}
	return fmt.Sprintf("%s: %d of %d %s: %s.", where, len(applied), len(s.Progressions), noun, strings.Join(parts, "; "))
}

// Report is everything story time finds wrong in a book: the
// diagnostics of each chapter, and the problems of chapter front matter
// and of progressions and style rules as written.
type Report struct {
	Diagnostics []Diagnostic    `json:"diagnostics"`
	Problems    []codex.Problem `json:"problems"`
}

// CheckAll checks every chapter of snap, the snapshot t was built from,
// for `quire check`.
func CheckAll(t *Timeline, snap *manuscript.Snapshot) Report {
	var r Report
	r.Problems = append(r.Problems, t.canon.problems...)
	r.Problems = append(r.Problems, t.problems...)
	for _, u := range snap.Units() {
		r.Problems = append(r.Problems, u.Meta.Problems...)
		r.Problems = append(r.Problems, u.OutlineProblems(t.canon.opts.Scenes)...)
		r.Diagnostics = append(r.Diagnostics, Check(t, u)...)
	}
	return r
}

// showValue shows a field's value as a writer wrote it: a list as its
// items separated by commas.
func showValue(v any) string {
	if list, ok := v.([]any); ok {
		items := make([]string, len(list))
		for i, item := range list {
			items[i] = fmt.Sprint(item)
		}
		return strings.Join(items, ", ")
	}
	return fmt.Sprint(v)
}
