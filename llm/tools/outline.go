package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/quire-ink/quire/codex/clip"
	"github.com/quire-ink/quire/llm/provider"
	"github.com/quire-ink/quire/llm/toolloop"
	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/manuscript/outline"
)

// OutlineName is the outline tool, as the model calls it.
const OutlineName = "get_outline"

// Bounds of a get_outline answer: the chapters it gives card by card,
// the scenes of one chapter, one synopsis, and the bytes of the cards in
// all, within the tool loop's 64 KB of output. The book's counts are
// always given whole.
const (
	maxOutlineChapters = 120
	maxOutlineScenes   = 30
	maxOutlineSynopsis = 400
	maxOutlineBytes    = 56 << 10
)

// outlineArgs are get_outline's arguments.
type outlineArgs struct {
	From *string `json:"from"`
	To   *string `json:"to"`
}

// outlineResult is what get_outline returns.
type outlineResult struct {
	From string `json:"from"`
	To   string `json:"to"`
	// Book counts what the range holds, whatever the bounds left out.
	Book outlineCounts `json:"book"`
	Acts []outlineAct  `json:"acts"`
	Note string        `json:"note"`
}

type outlineCounts struct {
	Chapters int `json:"chapters"`
	Scenes   int `json:"scenes"`
	Words    int `json:"words"`
	// WithSynopsis counts the scenes and chapters that have one, Stale
	// those whose text changed since it was written.
	WithSynopsis int `json:"withSynopsis"`
	Stale        int `json:"stale"`
}

type outlineAct struct {
	Title    string           `json:"title,omitempty"`
	Chapters []outlineChapter `json:"chapters"`
}

// outlineCard is what a chapter and a scene both say.
type outlineCard struct {
	Synopsis  string `json:"synopsis,omitempty"`
	Stale     bool   `json:"stale,omitempty"`
	Status    string `json:"status,omitempty"`
	POV       string `json:"pov,omitempty"`
	Day       *int   `json:"day,omitempty"`
	Location  string `json:"location,omitempty"`
	Flashback bool   `json:"flashback,omitempty"`
	Words     int    `json:"words"`
}

type outlineChapter struct {
	Chapter string `json:"chapter"`
	Path    string `json:"path"`
	outlineCard
	Scenes        []outlineScene `json:"scenes"`
	ScenesOmitted int            `json:"scenesOmitted,omitempty"`
}

// outlineScene is a scene's card: its title when it has one of its own,
// and its point of view, day, location and flashback only where they
// differ from its chapter's, to keep a whole book within one answer. It
// names no codex entry (who appears is read through the codex): a
// reader blind to canon reads it too.
type outlineScene struct {
	Scene int    `json:"scene"`
	Title string `json:"title,omitempty"`
	outlineCard
}

const outlineNote = "The writer's outline: each chapter and its scenes (split at scene breaks and headings) with the synopsis, status, point of view, story day and location the writer gave them, " +
	"and the words of each. A synopsis marked stale was written before its text last changed: trust the prose over it. " +
	"A scene with no synopsis is not summarized here: read it with get_manuscript_context (its chapter's number, title or path) when it matters."

func outlineTool(src *Sources) provider.Tool {
	ref := chapterRefSchema
	return provider.Tool{
		Name: OutlineName,
		Description: fmt.Sprintf("Read the book's outline: its acts, chapters and scenes as cards, each with the writer's synopsis (marked stale when the text changed since), "+
			"status, point of view, story day, location and length. "+
			"It is the compact view of the whole book: read it first for questions about structure, pacing, arcs, turning points or where something happens, "+
			"then read only the chapters that matter with get_manuscript_context. "+
			"from and to narrow it to a range of chapters (from alone reads to the end, to alone from the start; both left out, the whole book). "+
			"A scene gives its point of view, day and location only where they differ from its chapter's. "+
			"At most %d chapters and %d KB come back in one answer, a whole novel as a rule; a warning says from which chapter to ask again.", maxOutlineChapters, maxOutlineBytes>>10),
		Parameters: objectSchema(map[string]any{
			"from": ref("Optional: the first chapter"),
			"to":   ref("Optional: the last chapter"),
		}),
		Run: func(ctx context.Context, raw json.RawMessage) (any, []string, error) {
			data, warnings, err := src.outline(ctx, raw)
			return data, warnings, src.scrubErr(err)
		},
	}
}

func (src *Sources) outline(ctx context.Context, raw json.RawMessage) (any, []string, error) {
	var args outlineArgs
	if err := decodeArgs(raw, &args); err != nil {
		return nil, nil, err
	}
	asked := dialogueRange(args.From, args.To)
	read := src.reading(Lookup{Tool: OutlineName, Ref: asked})
	snap := src.Snapshot()
	if snap == nil {
		return nil, nil, toolloop.Errorf(toolloop.CodeToolFailed, "no manuscript is open for this turn")
	}
	units, err := src.chapterRange(snap, args.From, args.To)
	if err != nil {
		return nil, nil, err
	}
	out := &outlineResult{Acts: []outlineAct{}, Note: outlineNote}
	if len(units) == 0 {
		return out, []string{"the manuscript has no chapters yet"}, nil
	}
	out.From = chapterName(units[0].Label(), units[0].Title)
	out.To = chapterName(units[len(units)-1].Label(), units[len(units)-1].Title)
	settings := src.Outline
	if settings.Rules.Equal(manuscript.SceneRules{}) {
		settings.Rules = src.Continuity.Scenes
	}
	o, err := outline.Build(ctx, snap, src.canon().Catalog(), outline.Options{Settings: settings,
		From: units[0].Position, To: units[len(units)-1].Position})
	if err != nil {
		return nil, nil, toolloop.Errorf(toolloop.CodeToolFailed, "the outline could not be read: %v", err)
	}
	var warnings []string
	size, given := 0, 0
	var cutAt *outline.Chapter
	via := describeCall(Lookup{Tool: OutlineName, Ref: asked})
	if asked == "" {
		via += " (the whole book)"
	}
	for _, a := range o.Acts {
		act := outlineAct{Title: a.Title, Chapters: []outlineChapter{}}
		for i := range a.Chapters {
			ch := &a.Chapters[i]
			out.Book.Chapters++
			out.Book.Words += ch.Words
			out.Book.Scenes += len(ch.Scenes)
			countSynopsis(&out.Book, ch.Card)
			for _, s := range ch.Scenes {
				countSynopsis(&out.Book, s.Card)
			}
			if cutAt != nil {
				continue
			}
			card := src.outlineChapter(ch)
			b, _ := json.Marshal(card)
			if given == maxOutlineChapters || size+len(b) > maxOutlineBytes && given > 0 {
				cutAt = ch
				continue
			}
			size += len(b) + 1
			given++
			act.Chapters = append(act.Chapters, card)
			src.evidence.noteOutlined(ch.Path, via)
		}
		if len(act.Chapters) > 0 {
			out.Acts = append(out.Acts, act)
		}
	}
	read.outlinedCount(given)
	if cutAt != nil {
		warnings = append(warnings, fmt.Sprintf("the outline gives %d of the range's %d chapters to stay within limits (at most %d chapters, %d KB); "+
			"ask again with from %q to read on", given, out.Book.Chapters, maxOutlineChapters, maxOutlineBytes>>10, cutAt.Title))
	}
	if missing := out.Book.Scenes - out.Book.WithSynopsis; out.Book.WithSynopsis == 0 {
		warnings = append(warnings, "no chapter or scene in the range has a synopsis yet: the outline gives their point of view, day, length and characters only; read the chapters that matter with get_manuscript_context")
	} else if missing > 0 {
		warnings = append(warnings, fmt.Sprintf("about %d scenes have no synopsis; read those that matter with get_manuscript_context", missing))
	}
	return out, warnings, nil
}

func countSynopsis(c *outlineCounts, card outline.Card) {
	if card.Synopsis != "" {
		c.WithSynopsis++
		if card.Stale {
			c.Stale++
		}
	}
}

// outlineChapter is ch as the model reads it.
func (src *Sources) outlineChapter(ch *outline.Chapter) outlineChapter {
	card := func(c outline.Card) outlineCard {
		out := outlineCard{Synopsis: src.scrub(clip.Runes(c.Synopsis, maxOutlineSynopsis)), Stale: c.Stale, Status: c.Status,
			POV: c.POV, Location: c.Location, Flashback: c.Flashback, Words: c.Words}
		if c.HasDay {
			d := c.Day
			out.Day = &d
		}
		return out
	}
	out := outlineChapter{Chapter: chapterName(ch.Label, ch.Title), Path: ch.Path, outlineCard: card(ch.Card), Scenes: []outlineScene{}}
	for i, s := range ch.Scenes {
		if i == maxOutlineScenes {
			out.ScenesOmitted = len(ch.Scenes) - i
			break
		}
		sc := outlineScene{Scene: s.Number, outlineCard: card(s.Card)}
		if s.Title != fmt.Sprintf("Scene %d", s.Number) {
			sc.Title = s.Title
		}
		// What the scene shares with its chapter is said once, there.
		if sc.POV == out.POV {
			sc.POV = ""
		}
		if sc.Location == out.Location {
			sc.Location = ""
		}
		if sc.Day != nil && out.Day != nil && *sc.Day == *out.Day {
			sc.Day = nil
		}
		if sc.Flashback == out.Flashback {
			sc.Flashback = false
		}
		out.Scenes = append(out.Scenes, sc)
	}
	return out
}

// describeCall is a lookup as the writer reads it in an answer's
// manifest: the tool and what it was asked.
func describeCall(l Lookup) string {
	var parts []string
	for _, p := range []struct{ label, v string }{{"", l.Name}, {"", l.Query}, {"type", l.EntryType}} {
		if p.v == "" {
			continue
		}
		if p.label != "" {
			parts = append(parts, p.label+" "+p.v)
		} else {
			parts = append(parts, fmt.Sprintf("%q", p.v))
		}
	}
	if l.Ref != "" {
		if l.Tool == ManuscriptName {
			parts = append(parts, fmt.Sprintf("%q", l.Ref))
		} else {
			parts = append(parts, "chapters "+l.Ref)
		}
	}
	if len(parts) == 0 {
		return l.Tool
	}
	return l.Tool + " " + strings.Join(parts, ", ")
}
