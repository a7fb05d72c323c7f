package dialogue

import (
	"slices"
	"strings"
	"sync"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
)

// Gender is what a character's pronouns are, for resolving "she said".
type Gender uint8

const (
	// GenderUnknown fits any pronoun a character might be given.
	GenderUnknown Gender = iota
	GenderFemale
	GenderMale
	// GenderThey: the character goes by they/them.
	GenderThey
)

// Character is one codex character as attribution sees it.
type Character struct {
	ID   string
	Name string
	// Forms are the name and aliases.
	Forms []string
	// Gender is from the entry's pronouns: or gender: field, else from a
	// title of its names (Mr., Lady); a chapter's own use of pronouns
	// after the name fills in the rest as it is read.
	Gender Gender
	// Given says Gender came from the entry, not from the book.
	Given bool
	// givenKey is the given name the book finds the character by though
	// the entry does not list it (manuscript.GivenName), normalized as
	// Find compares names; "" for none.
	givenKey string
}

// Cast is a book's characters: the codex entries of type character.
type Cast struct {
	chars []Character
	byID  map[string]int
	// ids[i] is chars[i]'s ID alone, shared by every mention of it:
	// never written to (alone).
	ids [][]string
	// families maps a family name, lower case, to the characters called
	// by it with a married title (kin.go); built on first use.
	families func() map[string][]int
}

// NewCast reads the characters among entries.
func NewCast(entries []*codex.Entry) *Cast {
	c := &Cast{byID: map[string]int{}}
	for _, e := range entries {
		if e == nil || e.Type != codex.TypeCharacter {
			continue
		}
		ch := Character{ID: e.ID, Name: e.Name, Forms: append([]string{e.Name}, e.Aliases...)}
		if given, ok := manuscript.GivenName(e); ok {
			ch.givenKey = codex.Normalize(given)
		}
		ch.Gender, ch.Given = genderOf(e)
		if !ch.Given {
			// A title says it where the entry does not: Mr., Lady.
			ch.Gender = titleGender(ch.Forms)
		}
		c.byID[e.ID] = len(c.chars)
		c.chars = append(c.chars, ch)
		c.ids = append(c.ids, []string{e.ID})
	}
	c.families = sync.OnceValue(c.titledFamilies)
	return c
}

// Character finds a character by entry ID.
func (c *Cast) Character(id string) (Character, bool) {
	if c == nil {
		return Character{}, false
	}
	i, ok := c.byID[id]
	if !ok {
		return Character{}, false
	}
	return c.chars[i], true
}

// alone is the character id's ID as a slice of one, the same each
// time, for a mention's IDs: read it, clip it before appending.
func (c *Cast) alone(id string) []string {
	return slices.Clip(c.ids[c.byID[id]])
}

// Find finds a character by a name or alias the writer typed, compared
// as codex compares names (case and diacritics aside).
func (c *Cast) Find(name string) (string, bool) {
	if c == nil {
		return "", false
	}
	want := codex.Normalize(name)
	for _, ch := range c.chars {
		for _, f := range ch.Forms {
			if codex.Normalize(f) == want {
				return ch.ID, true
			}
		}
	}
	// A given name the entry does not list ("<!-- speaker: Teodora -->"),
	// when it is one character's only.
	found := ""
	for _, ch := range c.chars {
		if ch.givenKey != "" && ch.givenKey == want {
			if found != "" {
				return "", false
			}
			found = ch.ID
		}
	}
	return found, found != ""
}

// Characters are the cast in codex order.
func (c *Cast) Characters() []Character {
	if c == nil {
		return nil
	}
	return c.chars
}

// genderOf reads an entry's pronouns: (she/her, he/him, they/them, or a
// list) or gender: (female, woman, f; male, man, m; nonbinary).
func genderOf(e *codex.Entry) (Gender, bool) {
	for _, key := range []string{"pronouns", "gender", "sex"} {
		v, ok := e.Custom.Get(key)
		if !ok {
			continue
		}
		var s string
		switch x := v.(type) {
		case string:
			s = x
		case []any:
			for _, it := range x {
				if str, ok := it.(string); ok {
					s += " " + str
				}
			}
		}
		s = strings.ToLower(strings.TrimSpace(s))
		first := strings.FieldsFunc(s, func(r rune) bool { return r == '/' || r == ',' || r == ' ' })
		if len(first) == 0 {
			continue
		}
		switch first[0] {
		case "she", "her", "hers", "female", "f", "woman", "girl", "w":
			return GenderFemale, true
		case "he", "him", "his", "male", "m", "man", "boy":
			return GenderMale, true
		case "they", "them", "their", "nonbinary", "non-binary", "nb", "enby":
			return GenderThey, true
		}
	}
	return GenderUnknown, false
}
