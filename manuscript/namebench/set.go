package namebench

import "slices"

// Set is the benchmark's data: novels whose excerpts name entities, with
// every proper-name mention marked.
type Set struct {
	Novels []Novel `json:"novels"`
}

// Novel is one excerpt of a novel, as the novel's text has it.
type Novel struct {
	Title    string    `json:"title"`
	Text     string    `json:"text"`
	Entities []Entity  `json:"entities"`
	Mentions []Mention `json:"mentions"`
}

// Entity is one person, place, organization or vehicle of a novel, with
// every form of its name the excerpt uses.
type Entity struct {
	ID string `json:"id"`
	// Type is LitBank's: PER, LOC, GPE, FAC, ORG or VEH.
	Type  string   `json:"type"`
	Forms []string `json:"forms"`
}

// NameAndAliases are the entity as a writer who listed every form of it
// would enter it: the longest form its name, the others its aliases,
// longest first.
func (e Entity) NameAndAliases() (name string, aliases []string) {
	forms := slices.Clone(e.Forms)
	slices.SortStableFunc(forms, func(a, b string) int { return len(b) - len(a) })
	return forms[0], forms[1:]
}

// Mention is one proper-name mention: bytes of Text and the entity named.
type Mention struct {
	Start  int    `json:"start"`
	End    int    `json:"end"`
	Entity string `json:"entity"`
	// Within says the name is inside a longer mention of its own entity,
	// which LitBank marks as a whole and not the name ("the village of
	// Raveloe"): it is scored only where names within count.
	Within bool `json:"within,omitempty"`
}

// AsMarked is the novel with only the names LitBank marks itself: none
// found within a longer mention of the same entity.
func (n Novel) AsMarked() Novel {
	out := n
	out.Mentions = nil
	for _, m := range n.Mentions {
		if !m.Within {
			out.Mentions = append(out.Mentions, m)
		}
	}
	return out
}
