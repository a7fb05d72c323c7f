package dialoguebench

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/quire-ink/quire/codex"
)

// Book is one annotated text: a PDNC novel or a LitBank excerpt.
type Book struct {
	Title string `json:"title"`
	// Text is the prose as the source has it; every offset is into it.
	Text       string      `json:"text"`
	Characters []Character `json:"characters"`
	Quotes     []Quote     `json:"quotes"`
	// SplitAtTags says the annotation gives speech a tag interrupts as
	// two quotations, not one of two parts (LitBank, not PDNC).
	SplitAtTags bool `json:"-"`
}

// Character is one person of the annotation's list: the codex a writer
// of the book would keep holds one entry for each.
type Character struct {
	ID      string   `json:"id"`
	Name    string   `json:"name"`
	Aliases []string `json:"aliases,omitempty"`
	// Gender is "female", "male" or "" (unknown or not annotated).
	Gender string `json:"gender,omitempty"`
}

// Quote is one annotated quotation.
type Quote struct {
	ID string `json:"id"`
	// Spans are its words without their quotation marks, in text order:
	// more than one when a tag or narration interrupts it.
	Spans []codex.Range `json:"spans"`
	// Speaker is the speaking character's ID; when the speaker is none
	// of Characters (LitBank's people with no proper name, a name PDNC
	// spells as no character does), it is the annotation's own name
	// and the speaker is reported as not in the codex.
	Speaker string `json:"speaker"`
	// Type is PDNC's quotation type: how the text says who speaks.
	Type QuoteType `json:"type,omitempty"`
}

// QuoteType is PDNC's quoteType: Explicit ("said Emma"), Anaphoric ("she
// said") or Implicit (no tag at all). LitBank's quotations have none.
type QuoteType string

const (
	Explicit  QuoteType = "Explicit"
	Anaphoric QuoteType = "Anaphoric"
	Implicit  QuoteType = "Implicit"
)

// QuoteTypes are the types scored apart, in the order tables show them.
func QuoteTypes() [3]QuoteType { return [3]QuoteType{Explicit, Anaphoric, Implicit} }

// typeIndex is t's place in QuoteTypes, -1 for none.
func typeIndex(t QuoteType) int {
	switch t {
	case Explicit:
		return 0
	case Anaphoric:
		return 1
	case Implicit:
		return 2
	}
	return -1
}

// EntryID is the codex entry ID of the character whose ID is id.
func EntryID(id string) string { return "characters/" + id + ".md" }

// Codex is the codex of the book's characters a writer would keep: one
// entry per character with its name, its aliases and, where the
// annotation gives one, its gender as a custom gender: field; nothing
// more, so that quire learns the rest from the prose. The entries are
// parsed from Markdown the ordinary way.
func (b Book) Codex() []*codex.Entry {
	var out []*codex.Entry
	for _, c := range b.Characters {
		var src strings.Builder
		src.WriteString("---\ntype: character\nname: " + yamlString(c.Name) + "\n")
		var aliases []string
		add := func(a string) {
			if a = strings.TrimSpace(a); a != "" && a != c.Name && !slices.Contains(aliases, a) {
				aliases = append(aliases, a)
			}
		}
		for _, a := range c.Aliases {
			add(a)
		}
		if described(c.Name) != "" {
			for _, a := range append([]string{c.Name}, c.Aliases...) {
				add(described(a))
			}
		}
		if len(aliases) > 0 {
			src.WriteString("aliases:\n")
			for _, a := range aliases {
				src.WriteString("  - " + yamlString(a) + "\n")
			}
		}
		if c.Gender != "" {
			src.WriteString("gender: " + c.Gender + "\n")
		}
		src.WriteString("---\n")
		if e, _ := codex.Parse(EntryID(c.ID), []byte(src.String()), codex.TypeCharacter); e != nil {
			out = append(out, e)
		}
	}
	return out
}

// described is the form a book writes a descriptive name in, "the
// mariner" for PDNC's "The Mariner": the annotation capitalizes every
// word of every name, but prose writes a description in lower case, and
// so would the codex of a writer who calls a character by one. quire
// matches names in the case the codex gives them (a lower-case "hope" is
// no Hope), so the annotation's form alone would find "the Caterpillar"
// but never "the stranger". "" for a name that opens with no "The".
func described(name string) string {
	rest, ok := strings.CutPrefix(name, "The ")
	if !ok || strings.TrimSpace(rest) == "" {
		return ""
	}
	return strings.ToLower(name)
}

// character finds a character by ID.
func (b Book) character(id string) (Character, bool) {
	for _, c := range b.Characters {
		if c.ID == id {
			return c, true
		}
	}
	return Character{}, false
}

// yamlString quotes s for YAML: a JSON string is a YAML one.
func yamlString(s string) string {
	q, _ := json.Marshal(s)
	return string(q)
}
