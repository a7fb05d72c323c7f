package dialogue

import (
	"slices"
	"sync"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
)

// Within is the part of the cast a chapter can give speech to: the
// characters its mentions name (the other entries an ambiguous name may
// be included), its point-of-view character, and those its speaker
// lines name, and the relatives of those it names by a titled family
// name (a kinship tag's: kin.go), in codex order. Analyze decides with
// it exactly as with the whole cast, since no rule gives a line to any
// other character; what it costs then grows with the chapter, not with
// the codex (attribution reads every character of its cast once per
// chapter). A caller that checks one chapter at a time against a codex
// of thousands of entries (the continuity checks, on every edit) passes
// Within's cast.
func (c *Cast) Within(ch Chapter) *Cast {
	if c == nil {
		return nil
	}
	keep := make([]bool, len(c.chars))
	add := func(id string) {
		if i, ok := c.byID[id]; ok {
			keep[i] = true
		}
	}
	for _, m := range ch.Mentions {
		add(m.Entry)
		for _, id := range m.Others {
			add(id)
		}
	}
	add(ch.POV)
	for _, p := range ch.POVs {
		add(p.ID)
	}
	// The speaker lines, found as attribution finds them; their names
	// are looked up in one index of the cast's names, made only for a
	// chapter that has such a line.
	var names map[string]string
	for _, r := range manuscript.HTMLComments(ch.Text, codex.Range{End: len(ch.Text)}) {
		name, ok := speakerComment(ch.Text[r.Start:r.End])
		if !ok {
			continue
		}
		if names == nil {
			names = c.nameIndex()
		}
		add(names[codex.Normalize(name)])
	}
	// A kinship tag ("said his wife") may give a line to a relative the
	// chapter does not name: the named characters' titled family.
	for i, k := range slices.Clone(keep) {
		if k {
			for _, family := range append(c.birthFamilies(i), familyOf(c.chars[i].Name)) {
				for _, j := range c.relativesOf(family) {
					keep[j] = true
				}
			}
		}
	}
	out := &Cast{byID: map[string]int{}}
	for i, ch := range c.chars {
		if keep[i] {
			out.byID[ch.ID] = len(out.chars)
			out.chars = append(out.chars, ch)
			out.ids = append(out.ids, c.ids[i])
		}
	}
	out.families = sync.OnceValue(out.titledFamilies)
	return out
}

// nameIndex maps each name and alias of the cast, normalized, to the
// first character in codex order that has it: what Find answers.
func (c *Cast) nameIndex() map[string]string {
	out := map[string]string{}
	for _, ch := range c.chars {
		for _, f := range ch.Forms {
			if k := codex.Normalize(f); out[k] == "" {
				out[k] = ch.ID
			}
		}
	}
	return out
}
