package manuscript

import (
	"fmt"

	"github.com/quire-ink/quire/codex"
)

// OutlineProblems are what the writer should hear about the chapter's
// outline under r: scene notes that cannot be used, statuses the book
// does not know (in a note or the front matter), and synopses written
// for text that has changed since (stale, by the hash kept beside them;
// a note, not a warning: the prose moved on, nothing is wrong).
func (u *Unit) OutlineProblems(r SceneRules) []codex.Problem {
	out := append([]codex.Problem(nil), u.SceneProblems(r)...)
	ch, stale, _ := u.NoteOf(r, 0)
	out = append(out, ch.Problems...)
	if stale {
		out = append(out, staleSynopsis(u.Path, ch.SynopsisRange, "chapter"))
	}
	for _, s := range u.Scenes(r) {
		if s.Note.Stale(s.Hash) {
			out = append(out, staleSynopsis(u.Path, s.Note.SynopsisRange, fmt.Sprintf("scene (%s)", s.Title())))
		}
	}
	return out
}

// NoteOf is what scene n of the unit says of itself (0: the chapter, in
// its front matter), and whether its synopsis is stale: written for
// prose that has changed since, by the hash kept beside it (the prose is
// hashed only when a hash is kept to compare). ok is false when the
// chapter has no scene n.
func (u *Unit) NoteOf(r SceneRules, n int) (note SceneNote, stale, ok bool) {
	if n == 0 {
		note = u.ChapterNote(r)
		return note, note.SynopsisHash != "" && note.Stale(u.ProseHash()), true
	}
	scenes := u.Scenes(r)
	if n < 0 || n > len(scenes) {
		return SceneNote{}, false, false
	}
	s := scenes[n-1]
	return s.Note, s.Note.Stale(s.Hash), true
}

func staleSynopsis(path string, at codex.Range, what string) codex.Problem {
	return codex.Problem{Path: path, Code: CodeStaleSynopsis, Severity: codex.SeverityInfo, Range: at,
		Message: fmt.Sprintf("this synopsis was written before the %s last changed; read it again and update it, or mark it current if it still holds", what)}
}
