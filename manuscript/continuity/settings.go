package continuity

import (
	"github.com/quire-ink/quire/codex/settings"
	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/manuscript/dialogue"
)

// OptionsFrom decodes the continuity sections of a book's settings,
// `traits:`, `checks:` and `spelling:`, each the book's when it sets it, else the
// writer's config.yaml's. What cannot be used is a problem with its line
// and column, named with the file it is in (Problem.File: quire.yaml or
// the config.yaml's path), and is left out: the checks run at their
// default levels. It also reads the `dialogue:` section the checks use
// to find who speaks (Options.Dialogue), when one is set; its problems
// are dialogue.ReadSettings' to report, not these.
func OptionsFrom(l *settings.Loaded) (Options, []*settings.Problem) {
	var o Options
	var problems []*settings.Problem
	if l == nil {
		return o, nil
	}
	if f, n := l.LayerOf("traits"); n != nil {
		if err := n.Decode(&o.Traits); err != nil {
			o.Traits = nil
			problems = append(problems, f.At(n, "traits is a list of field names, such as [eyes, hair, scar]"))
		}
	}
	if f, n := l.LayerOf("checks"); n != nil {
		if err := n.Decode(&o.Checks); err != nil {
			o.Checks = nil
			problems = append(problems, f.At(n, "checks maps check names to off, error, warning or info, such as {after-death: off}"))
		} else {
			for _, msg := range o.Validate() {
				problems = append(problems, f.At(n, "%s", msg))
			}
		}
	}
	if f, n := l.LayerOf("spelling"); n != nil {
		if err := n.Decode(&o.Spelling); err != nil {
			o.Spelling = nil
			problems = append(problems, f.At(n, "spelling is a list of words that are no misspelling of a name, such as [Sevrine, Marra]"))
		}
	}
	if _, n := l.LayerOf("dialogue"); n != nil {
		o.Dialogue, _ = dialogue.ReadSettings(l)
	}
	if _, n := l.LayerOf("outline"); n != nil {
		outline, _ := manuscript.ReadOutlineSettings(l)
		o.Scenes, o.Dialogue.Scenes = outline.Rules, outline.Rules
	}
	return o, problems
}
