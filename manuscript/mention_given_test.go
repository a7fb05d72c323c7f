package manuscript

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/quire-ink/quire/codex"
)

// Which names have a given name the matcher finds alone.
func TestGivenName(t *testing.T) {
	for _, tt := range []struct {
		frontMatter string
		want        string
	}{
		{"name: Teodora Quill", "Teodora"},
		{"name: Jean-Luc Picard", "Jean-Luc"},
		{"name: Ebba Strand\naliases: [Warden Strand]", "Ebba"},
		{"name: Mary Ann Evans", "Mary"},
		{"name: Scarlett O'Hara", "Scarlett"},
		{"name: Teodora", ""},                          // one word: the name itself
		{"name: Mara Vell\naliases: [Mara]", ""},       // listed already
		{"name: Mara Vell\nexclude: [Mara]", ""},       // the writer said no
		{"name: Captain Wentworth", ""},                // a title: the next word may be the family's
		{"name: Mr. Darcy", ""},                        // an abbreviated one
		{"name: Madame Aubrac", ""},                    // a form of address
		{"name: Old Jory", ""},                         // an everyday word
		{"name: Little Nell", ""},                      // a nickname's adjective
		{"name: Christian Grey", ""},                   // a word of faith
		{"name: Moss Kettering", "Moss"},               // an everyday word people are named
		{"name: Will Turner", "Will"},                  // and another
		{"name: May Ellery", ""},                       // a month
		{"name: The Caterpillar", ""},                  // an article
		{"name: Lucy's Mother", ""},                    // someone else's
		{"name: J. Alfred Prufrock", ""},               // an initial
		{"name: teodora quill", ""},                    // not written as a name
		{"name: Teodora 2", ""},                        // nor this
		{"type: location\nname: Lucas Lodge", ""},      // no person
		{"type: organization\nname: Harbor Tally", ""}, // nor this
	} {
		t.Run(tt.frontMatter, func(t *testing.T) {
			got, ok := GivenName(parseEntry(t, "codex/e.md", tt.frontMatter))
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.want != "", ok)
		})
	}
}

// A given name that is an everyday word too is said so: the matcher
// finds it only inside a sentence.
func TestGivenNameEveryday(t *testing.T) {
	for _, tt := range []struct {
		frontMatter string
		everyday    bool
	}{
		{"name: Will Turner", true},
		{"name: Rose Tremaine", true},
		{"name: Teodora Quill", false},
	} {
		_, everyday, ok := givenName(parseEntry(t, "codex/e.md", tt.frontMatter))
		assert.True(t, ok, tt.frontMatter)
		assert.Equal(t, tt.everyday, everyday, tt.frontMatter)
	}
}

// A character's given name alone is a mention of them, and gives way to
// every form another entry lists.
func TestGivenNameMentions(t *testing.T) {
	for _, tt := range []struct {
		name string
		cat  *codex.Catalog
		text string
		want []seen
	}{
		{"the given name alone is the character's",
			catalogOf(t, "teodora", "name: Teodora Quill"),
			"Teodora turned the Ledger. “Sit,” said Teodora Quill.",
			[]seen{{entry: "teodora", text: "Teodora", alias: true}, {entry: "teodora", text: "Teodora Quill"}}},
		{"another entry's alias is that entry's",
			catalogOf(t, "lucas", "name: Mr. Lucas\naliases: [Lucas]", "fane", "name: Lucas Fane"),
			"Lucas came, and Lucas Fane.",
			[]seen{{entry: "lucas", text: "Lucas", alias: true}, {entry: "fane", text: "Lucas Fane"}}},
		{"another entry's name is that entry's",
			catalogOf(t, "ebba", "name: Ebba", "strand", "name: Ebba Strand"),
			"Ebba came.",
			[]seen{{entry: "ebba", text: "Ebba"}}},
		{"two given names alike are either's",
			catalogOf(t, "jane-b", "name: Jane Bennet", "jane-f", "name: Jane Fairfax"),
			"Jane came.",
			[]seen{{entry: "jane-b", text: "Jane", alias: true, others: []string{"jane-f"}}}},
		{"an exclusion holds",
			catalogOf(t, "hesper", "name: Hesper Vane\nexclude: [Hesper Street]"),
			"Hesper walked down Hesper Street.",
			[]seen{{entry: "hesper", text: "Hesper", alias: true}}},
		{"an everyday given name inside a sentence is the character's",
			catalogOf(t, "will", "name: Will Turner"),
			"The boat was late, and Will waited. “Come,” said Will.",
			[]seen{{entry: "will", text: "Will", alias: true}, {entry: "will", text: "Will", alias: true}}},
		{"an everyday given name that opens a sentence is the word",
			catalogOf(t, "will", "name: Will Turner"),
			"Will you come? It was late.\n\nWill it rain?",
			[]seen{}},
		{"an everyday given name that opens a quotation is the word",
			catalogOf(t, "will", "name: Will Turner"),
			`She asked, "Will you come?" and then, “Will it rain?” and ‘Will you?’`,
			[]seen{}},
		{"an everyday given name in capitals is the word",
			catalogOf(t, "will", "name: Will Turner"),
			"the LAST WILL AND TESTAMENT",
			[]seen{}},
		{"an everyday given name after a closing mark is the character's",
			catalogOf(t, "will", "name: Will Turner"),
			`"Come," Will said.`,
			[]seen{{entry: "will", text: "Will", alias: true}}},
		{"listed as an alias it is found everywhere",
			catalogOf(t, "will", "name: Will Turner\naliases: [Will]"),
			"Will waited.",
			[]seen{{entry: "will", text: "Will", alias: true}}},
		{"a place has none",
			catalogOf(t, "lodge", "type: location\nname: Corwin Lodge"),
			"Corwin came to Corwin Lodge.",
			[]seen{{entry: "lodge", text: "Corwin Lodge"}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, seenIn(tt.text, NewMatcher(tt.cat).Scan(tt.text)))
		})
	}
}

// The given name is read from the type as well as the name: an entry
// made a character finds more, so the scans made before are stale.
func TestGivenNameChangesTheVersion(t *testing.T) {
	place := NewMatcher(catalogOf(t, "corwin", "type: location\nname: Corwin Hale"))
	person := NewMatcher(catalogOf(t, "corwin", "name: Corwin Hale"))
	assert.NotEqual(t, place.version, person.version)
	assert.Empty(t, place.Scan("Corwin came."))
	assert.Len(t, person.Scan("Corwin came."), 1)
}
