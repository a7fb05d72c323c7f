package dialogue

import (
	"slices"
	"strings"
)

// A tag that names its speaker by kinship to another character ("said
// his wife", "cried her father") is resolved through the family name the
// two share, where the codex gives one: the wife of Mr. Bennet is the
// one character called Mrs. Bennet, Elizabeth Bennet's father the one
// called Mr. Bennet. Whose wife ("his") is found as a pronoun is, but
// the character the line addresses comes first: "'My dear Mr. Bennet,'
// said his lady to him". Nothing is guessed where the codex has no such
// name, or more than one.

// kin is a relation a tag's noun names.
type kin uint8

const (
	kinWife kin = iota + 1
	kinHusband
	kinMother
	kinFather
)

// kinNouns are the nouns of a kinship the family name resolves, and the
// gender of the possessive before each that is read as such ("his
// lady" is his wife; "her lady" is not her husband).
var kinNouns = map[string]struct {
	rel   kin
	owner Gender
}{
	"wife":    {kinWife, GenderMale},
	"lady":    {kinWife, GenderMale},
	"husband": {kinHusband, GenderFemale},
	"mother":  {kinMother, GenderUnknown},
	"father":  {kinFather, GenderUnknown},
}

// married titles say a character is called by a family name as a wife or
// husband, mother or father is.
var (
	wifeTitles    = []string{"mrs", "lady", "madame", "mme"}
	husbandTitles = []string{"mr", "sir", "lord", "monsieur", "m"}
)

// kinTag resolves a kinship tag: noun is the tag's noun, possessive the
// word before it, off where the possessive is. It returns the speaker.
func (a *attributor) kinTag(i int, possessive, noun string, off int) (string, bool) {
	k, ok := kinNouns[strings.ToLower(noun)]
	if !ok {
		return "", false
	}
	var g Gender
	switch strings.ToLower(possessive) {
	case "his":
		g = GenderMale
	case "her":
		g = GenderFemale
	default:
		return "", false
	}
	if k.owner != GenderUnknown && k.owner != g {
		return "", false
	}
	// The owner: the character the line addresses, else the characters
	// the possessive may refer to, likeliest first; the first of them
	// with one such relative in the codex decides.
	owners := slices.Clone(a.addressed[i])
	owners = append(owners, a.referents(i, off, g)...)
	tried := 0
	for _, owner := range owners {
		if !a.fits(owner, g) {
			continue
		}
		if id, ok := a.cast.relative(owner, k.rel); ok && !slices.Contains(a.addressed[i], id) {
			return id, true
		}
		if tried++; tried == 3 {
			break
		}
	}
	return "", false
}

// relative is the one character the codex calls by owner's family name
// with the title of rel: for Mr. Bennet's wife, the one Mrs. Bennet.
func (c *Cast) relative(owner string, rel kin) (string, bool) {
	o, ok := c.Character(owner)
	if !ok {
		return "", false
	}
	family := familyName(o.Name)
	if family == "" {
		return "", false
	}
	var titles []string
	var g Gender
	switch rel {
	case kinWife, kinMother:
		titles, g = wifeTitles, GenderFemale
	case kinHusband, kinFather:
		titles, g = husbandTitles, GenderMale
	}
	found := ""
	for _, ch := range c.chars {
		if ch.ID == owner || ch.Gender != g && ch.Gender != GenderUnknown {
			continue
		}
		if !slices.ContainsFunc(ch.Forms, func(f string) bool { return titledFamily(f, titles, family) }) {
			continue
		}
		if found != "" && found != ch.ID {
			return "", false // two of them: no guess
		}
		found = ch.ID
	}
	return found, found != ""
}

// familyName is the last word of a name of at least two words ("Mr.
// Bennet", "Elizabeth Bennet"), "" for a single name.
func familyName(name string) string {
	words := strings.Fields(name)
	if len(words) < 2 {
		return ""
	}
	return strings.Trim(words[len(words)-1], ".,")
}

// titledFamily says form is one of titles followed by a name whose last
// word is family: "Mrs. Bennet", "Sir Walter Elliot".
func titledFamily(form string, titles []string, family string) bool {
	words := strings.Fields(form)
	if len(words) < 2 || !strings.EqualFold(strings.Trim(words[len(words)-1], ".,"), family) {
		return false
	}
	return slices.Contains(titles, strings.TrimSuffix(strings.ToLower(words[0]), "."))
}

// titledFamilies indexes the characters by the family name of each form
// a title opens ("Mrs. Bennet" under bennet).
func (c *Cast) titledFamilies() map[string][]int {
	out := map[string][]int{}
	for i, ch := range c.chars {
		seen := ""
		for _, f := range ch.Forms {
			words := strings.Fields(f)
			if len(words) < 2 {
				continue
			}
			title := strings.TrimSuffix(strings.ToLower(words[0]), ".")
			if !slices.Contains(wifeTitles, title) && !slices.Contains(husbandTitles, title) {
				continue
			}
			family := strings.ToLower(strings.Trim(words[len(words)-1], ".,"))
			if family != seen {
				out[family] = append(out[family], i)
				seen = family
			}
		}
	}
	return out
}

// relativesOf are the characters a kinship tag may give c's character i's
// lines to: those called by its family name with a title.
func (c *Cast) relativesOf(i int) []int {
	if c.families == nil {
		return nil
	}
	family := strings.ToLower(familyName(c.chars[i].Name))
	if family == "" {
		return nil
	}
	return c.families()[family]
}
