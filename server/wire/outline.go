package wire

import (
	"github.com/quire-ink/quire/manuscript/outline"
)

// The book's outline (docs/outline.md): scenes, synopses and status.
const (
	// MethodOutline answers the book's outline (OutlineParams → Outline).
	MethodOutline = "quire/outline"
	// CommandOutline answers as quire/outline does.
	CommandOutline = "quire.outline"
	// CommandSetOutline sets a scene's or chapter's synopsis, status or
	// story time as a workspace edit the editor applies (SetOutlineParams
	// → SetOutlineResult); nothing is written without it.
	CommandSetOutline = "quire.setOutline"
	// CommandProposeSynopsis asks the advisor for a scene's or chapter's
	// synopsis (SynopsisParams → SynopsisProposal): a proposal the writer
	// applies or discards, as codex proposals are.
	CommandProposeSynopsis = "quire.proposeSynopsis"
)

// OutlineParams are quire/outline's: the outline of the chapters From
// to To (positions from 1; 0 leaves an end open), of the scenes of one
// point of view or status when given, with who speaks in each scene when
// Speakers is set.
type OutlineParams struct {
	BookParams
	From     int    `json:"from,omitempty" ts:"number,optional"`
	To       int    `json:"to,omitempty" ts:"number,optional"`
	POV      string `json:"pov,omitempty" ts:"string,optional"`
	Status   string `json:"status,omitempty" ts:"string,optional"`
	Speakers bool   `json:"speakers,omitempty" ts:"boolean,optional"`
}

// Outline is quire/outline's answer and `quire outline --json`.
type Outline struct {
	Acts     []OutlineAct `json:"acts" ts:"OutlineAct[]"`
	Statuses []string     `json:"statuses" ts:"string[]"`
	Chapters int          `json:"chapters"`
	Scenes   int          `json:"scenes"`
	Words    int          `json:"words"`
	// Stale counts the synopses written before their text last changed.
	Stale int `json:"stale"`
	// Total is the book's number of chapters, whatever was kept.
	Total int `json:"total"`
}

// OutlineAct is a run of chapters: an act quire.yaml names, a folder,
// or (title "") the whole book.
type OutlineAct struct {
	Title    string           `json:"title"`
	Chapters []OutlineChapter `json:"chapters" ts:"OutlineChapter[]"`
}

// OutlineCard is what a chapter's and a scene's card show. Line is
// where its text starts, from 1.
type OutlineCard struct {
	Title     string `json:"title"`
	Synopsis  string `json:"synopsis,omitempty" ts:"string,optional"`
	Stale     bool   `json:"stale,omitempty" ts:"boolean,optional"`
	Status    string `json:"status,omitempty" ts:"string,optional"`
	POV       string `json:"pov,omitempty" ts:"string,optional"`
	Location  string `json:"location,omitempty" ts:"string,optional"`
	Day       int    `json:"day,omitempty" ts:"number,optional"`
	HasDay    bool   `json:"hasDay,omitempty" ts:"boolean,optional"`
	Flashback bool   `json:"flashback,omitempty" ts:"boolean,optional"`
	Words     int    `json:"words"`
	Line      int    `json:"line"`
}

// OutlineChapter is a chapter's card and its scenes'; Path is
// project-relative, URI the file's.
type OutlineChapter struct {
	OutlineCard
	Path     string `json:"path"`
	URI      string `json:"uri"`
	Position int    `json:"position"`
	// Label is the chapter's number as quire shows it everywhere.
	Label  string         `json:"label"`
	Scenes []OutlineScene `json:"scenes" ts:"OutlineScene[]"`
}

// OutlineScene is a scene's card: Number is its place in its chapter,
// from 1; Appear the characters it names, Speak those given a line.
type OutlineScene struct {
	OutlineCard
	Number int      `json:"number"`
	Appear []string `json:"appear" ts:"string[]"`
	Speak  []string `json:"speak" ts:"string[]"`
}

// SetOutlineParams are quire.setOutline's: in the chapter URI, scene
// Scene (0: the chapter itself), set each field given (an empty string
// removes it). Current marks the synopsis as written for the text as it
// is now, changing nothing else.
type SetOutlineParams struct {
	URI      string  `json:"uri"`
	Scene    int     `json:"scene"`
	Synopsis *string `json:"synopsis,omitempty" ts:"string,optional"`
	Status   *string `json:"status,omitempty" ts:"string,optional"`
	Title    *string `json:"title,omitempty" ts:"string,optional"`
	POV      *string `json:"pov,omitempty" ts:"string,optional"`
	Day      *string `json:"day,omitempty" ts:"string,optional"`
	Location *string `json:"location,omitempty" ts:"string,optional"`
	Current  bool    `json:"current,omitempty" ts:"boolean,optional"`
}

// SetOutlineResult says whether the editor applied the edit.
type SetOutlineResult struct {
	Applied bool   `json:"applied"`
	Message string `json:"message"`
}

// SynopsisParams are quire.proposeSynopsis's: the scene Scene of the
// chapter URI (0: the chapter), and the persona to ask (the
// developmental editor when empty).
type SynopsisParams struct {
	URI     string `json:"uri"`
	Scene   int    `json:"scene"`
	Persona string `json:"persona,omitempty" ts:"string,optional"`
}

// SynopsisProposal is the advisor's synopsis, held as a proposal: apply
// it with quire.applyProposal and its id, or discard it.
type SynopsisProposal struct {
	ID       string `json:"id"`
	Synopsis string `json:"synopsis"`
	Message  string `json:"message"`
}

// OutlineOf is o on the wire; uri gives each chapter's file URI.
func OutlineOf(o *outline.Outline, uri func(path string) string) Outline {
	out := Outline{Acts: make([]OutlineAct, len(o.Acts)), Statuses: o.Statuses, Chapters: o.Chapters,
		Scenes: o.Scenes, Words: o.Words, Stale: o.Stale, Total: o.Total}
	for i, a := range o.Acts {
		act := OutlineAct{Title: a.Title, Chapters: make([]OutlineChapter, len(a.Chapters))}
		for j, ch := range a.Chapters {
			c := OutlineChapter{OutlineCard: OutlineCard(ch.Card), Path: ch.Path, URI: uri(ch.Path), Position: ch.Position, Label: ch.Label,
				Scenes: make([]OutlineScene, len(ch.Scenes))}
			for k, s := range ch.Scenes {
				c.Scenes[k] = OutlineScene{OutlineCard: OutlineCard(s.Card), Number: s.Number, Appear: s.Appear, Speak: s.Speak}
			}
			act.Chapters[j] = c
		}
		out.Acts[i] = act
	}
	return out
}
