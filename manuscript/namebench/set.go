package namebench

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

// Mention is one proper-name mention: bytes of Text and the entity named.
type Mention struct {
	Start  int    `json:"start"`
	End    int    `json:"end"`
	Entity string `json:"entity"`
}
