package codex

import "strings"

// Type is an entry's kind, always lower-case and singular.
type Type string

const (
	TypeCharacter    Type = "character"
	TypeLocation     Type = "location"
	TypeOrganization Type = "organization"
	TypeItem         Type = "item"
	TypeConcept      Type = "concept"
	TypeEvent        Type = "event"
	TypeStyle        Type = "style"
)

// Types are the built-in entry types, in the order tools list them.
var Types = []Type{TypeCharacter, TypeLocation, TypeOrganization, TypeItem, TypeConcept, TypeEvent, TypeStyle}

// folderTypes maps a folder name (or a front matter spelling) to a type.
// Writers name folders both ways, and a few synonyms are common enough to
// be worth accepting.
var folderTypes = map[string]Type{
	"character": TypeCharacter, "characters": TypeCharacter,
	"location": TypeLocation, "locations": TypeLocation, "place": TypeLocation, "places": TypeLocation,
	"organization": TypeOrganization, "organizations": TypeOrganization,
	"organisation": TypeOrganization, "organisations": TypeOrganization,
	"item": TypeItem, "items": TypeItem,
	"concept": TypeConcept, "concepts": TypeConcept,
	"event": TypeEvent, "events": TypeEvent,
	"style": TypeStyle, "styles": TypeStyle,
}

// manuscriptTypes are front matter types that mark prose, not canon.
var manuscriptTypes = map[string]bool{
	"chapter": true, "chapters": true, "scene": true, "scenes": true,
	"part": true, "manuscript": true, "draft": true,
}

// TypeFromFolder returns the type a folder name stands for.
func TypeFromFolder(name string) (Type, bool) {
	t, ok := folderTypes[strings.ToLower(name)]
	return t, ok
}

// ParseType normalizes a type as written (any case, singular or plural).
// Unknown types are kept, lower-cased: a writer may keep species or
// spells, and search and list work for them too.
func ParseType(s string) Type {
	s = strings.ToLower(strings.TrimSpace(s))
	if t, ok := folderTypes[s]; ok {
		return t
	}
	return Type(s)
}

// Builtin reports whether t is one of the seven built-in types.
func (t Type) Builtin() bool {
	for _, b := range Types {
		if t == b {
			return true
		}
	}
	return false
}

// Plural is the type's folder name.
func (t Type) Plural() string {
	switch t {
	case TypeStyle:
		return "style"
	case "":
		return ""
	}
	return string(t) + "s"
}

// WithArticle is the type as a writer reads it in a sentence: "a
// character", "an item".
func (t Type) WithArticle() string {
	if t != "" && strings.ContainsRune("aeiou", rune(t[0])) {
		return "an " + string(t)
	}
	return "a " + string(t)
}
