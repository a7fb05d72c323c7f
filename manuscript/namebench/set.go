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
	// Added is empty for a name LitBank marks itself; else the kind of
	// name the benchmark adds from LitBank's annotation (AddedWithin,
	// AddedCapital), scored only where that kind counts.
	Added string `json:"added,omitempty"`
}

// Marks is the novel with the names LitBank marks itself and those the
// benchmark adds of the kinds given: with none, LitBank's own marks.
func (n Novel) Marks(added ...string) Novel {
	out := n
	out.Mentions = nil
	for _, m := range n.Mentions {
		if m.Added == "" || slices.Contains(added, m.Added) {
			out.Mentions = append(out.Mentions, m)
		}
	}
	return out
}
