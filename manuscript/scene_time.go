package manuscript

import "github.com/quire-ink/quire/codex"

// HasSceneNotes says whether any HTML block of the unit is a scene note:
// only then can a scene's story time differ from its chapter's, and only
// then need a reader of story time split the chapter.
func (u *Unit) HasSceneNotes() bool {
	for _, c := range u.Code {
		if c.End <= len(u.Text) && c.Start < c.End && u.Text[c.Start] == '<' {
			if _, ok := noteYAML(u.Text[c.Start:c.End]); ok {
				return true
			}
		}
	}
	return false
}

// SceneTimes is the story time of each of the unit's scenes: the
// chapter's front matter, with each key a scene's note gives in its
// place (pov, location, flashback). A day is the scene's own, else the
// last one the chapter or an earlier scene that is no flashback gave
// (days run on through a chapter as they run on through the book); a
// scene the note marks a flashback without a day has none, and sees
// canon as of its place in the book. Problems stay with the notes.
func SceneTimes(u *Unit, scenes []Scene) []ChapterMeta {
	out := make([]ChapterMeta, len(scenes))
	ch := u.Meta
	ch.Problems = nil
	day, hasDay, dayRange := ch.Day, ch.HasDay, ch.DayRange
	for i, s := range scenes {
		m, n := ch, s.Note.Meta
		if n.POV != "" {
			m.POV, m.POVRange = n.POV, n.POVRange
		}
		if n.Location != "" {
			m.Location, m.LocationRange = n.Location, n.LocationRange
		}
		if n.FlashbackRange != (codex.Range{}) {
			m.Flashback, m.FlashbackRange = n.Flashback, n.FlashbackRange
		}
		switch {
		case n.HasDay:
			m.Day, m.HasDay, m.DayRange = n.Day, true, n.DayRange
		case n.Flashback:
			m.Day, m.HasDay, m.DayRange = 0, false, codex.Range{}
		default:
			m.Day, m.HasDay, m.DayRange = day, hasDay, dayRange
		}
		if n.HasDay && !m.Flashback {
			day, hasDay, dayRange = n.Day, true, n.DayRange
		}
		out[i] = m
	}
	return out
}

// LastDay is the day a chapter ends on: the last day its front matter
// or a scene that is no flashback gives, for the chapter after it to be
// compared with.
func LastDay(u *Unit, r SceneRules) (day int, at codex.Range, ok bool) {
	if u.Meta.HasDay && !u.Meta.Flashback {
		day, at, ok = u.Meta.Day, u.Meta.DayRange, true
	}
	if !u.HasSceneNotes() {
		return day, at, ok
	}
	scenes := u.Scenes(r)
	for i, m := range SceneTimes(u, scenes) {
		if n := scenes[i].Note.Meta; n.HasDay && !m.Flashback {
			day, at, ok = n.Day, n.DayRange, true
		}
	}
	return day, at, ok
}
