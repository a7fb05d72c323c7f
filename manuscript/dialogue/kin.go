package dialogue

import (
	"slices"
	"sort"
	"strings"

	"github.com/quire-ink/quire/codex"
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
	if a.namesOnly {
		return "", false
	}
	rel, g, ok := kinPhrase(possessive, noun)
	if !ok {
		return "", false
	}
	// The owner: the character the line addresses, else the speaker of
	// the line before, whom a relative most often answers ("…as soon as
	// he pleases." / "Oh! my dear," cried his wife), else the characters
	// the possessive may refer to, likeliest first; the first of them
	// with one such relative in the codex decides.
	owners := a.owners(i, g, off)
	tried := 0
	for _, owner := range owners {
		if !a.fits(owner, g) {
			continue
		}
		if id, ok := a.cast.relative(owner, rel); ok && !slices.Contains(a.addressed[i], id) {
			return id, true
		}
		if tried++; tried == 3 {
			break
		}
	}
	return "", false
}

// owners are the characters a kinship tag's possessive of gender g at
// off may refer to, likeliest first: the one the line addresses, the
// speaker of the line before, whom a relative most often answers, then
// the possessive's referents.
func (a *attributor) owners(i int, g Gender, off int) []string {
	owners := slices.Clone(a.addressed[i])
	if i > 0 && a.sameConversation(i-1, i) {
		owners = append(owners, a.utts[i-1].Speaker)
	}
	return append(owners, a.referents(i, off, g)...)
}

// kinOwner is the likeliest character a kinship tag's possessive of
// gender g at off refers to, where the family name found no relative:
// the one the line addresses, the speaker of the line before it, else
// the possessive's first referent, but for a parent not one the codex
// calls by a married title ("Mrs. Bennet deigned not to make any reply
// … 'Aye, so it is,' cried her mother": her daughter's mother).
func (a *attributor) kinOwner(i int, rel kin, g Gender, off int) string {
	owners := slices.Clone(a.addressed[i])
	if i > 0 && a.sameConversation(i-1, i) && a.para[i-1] != a.para[i] {
		owners = append(owners, a.heard(i-1))
	}
	for _, id := range a.referents(i, off, g) {
		if c, ok := a.cast.Character(id); !ok || rel != kinMother && rel != kinFather || !calledByTitle(c.Forms, marriedTitles) {
			owners = append(owners, id)
		}
	}
	for _, id := range owners {
		if id != "" && a.fits(id, g) {
			return id
		}
	}
	return ""
}

// marriedTitles are wifeTitles and husbandTitles.
var marriedTitles = append(slices.Clone(wifeTitles), husbandTitles...)

// kinPhrase reads "his wife", "her father" and the like: the relation
// and the gender of its owner, the one the possessive names.
func kinPhrase(possessive, noun string) (kin, Gender, bool) {
	rel, g, ok := relationPhrase(possessive, noun)
	return rel, g, ok && rel != 0
}

// relationPhrase is kinPhrase that also reads an aunt or an uncle ("her
// aunt"), whom no family name finds: relation 0.
func relationPhrase(possessive, noun string) (kin, Gender, bool) {
	g, ok := possessives[strings.ToLower(possessive)]
	if !ok {
		return 0, GenderUnknown, false
	}
	lower := strings.ToLower(noun)
	if k, ok := kinNouns[lower]; ok {
		if k.owner != GenderUnknown && k.owner != g {
			return 0, GenderUnknown, false
		}
		return k.rel, g, true
	}
	return 0, g, distantRelations[lower]
}

// relative is the one character the codex calls by owner's family name
// with the title of rel: for Mr. Bennet's wife, the one Mrs. Bennet.
func (c *Cast) relative(owner string, rel kin) (string, bool) {
	i, ok := c.byID[owner]
	if !ok {
		return "", false
	}
	titles, g := husbandTitles, GenderMale
	if rel == kinWife || rel == kinMother {
		titles, g = wifeTitles, GenderFemale
	}
	families := []string{familyOf(c.chars[i].Name)}
	if rel == kinMother || rel == kinFather {
		families = c.birthFamilies(i)
	}
	found := ""
	for _, family := range families {
		for _, j := range c.relativesOf(family) {
			ch := c.chars[j]
			if j == i || ch.Gender != g && ch.Gender != GenderUnknown {
				continue
			}
			if !calledBy(ch.Forms, family, titles) {
				continue
			}
			if found != "" && found != ch.ID {
				return "", false // two of them: no guess
			}
			found = ch.ID
		}
	}
	return found, found != ""
}

// birthFamilies are the family names character i was born to, as its
// name and aliases give them ("Emma Woodhouse", "Miss Woodhouse"): not
// one it bears with a married title (Mrs. Weston's father is not Mr.
// Weston; Isabella, "Mrs. John Knightley", is Mr. Woodhouse's daughter;
// another Mr. Knightley is Mr. Knightley's brother as often as his
// father).
func (c *Cast) birthFamilies(i int) []string {
	var out []string
	for _, f := range c.chars[i].Forms {
		if _, family, ok := titledName(f); ok && !slices.Contains(out, family) {
			out = append(out, family)
		}
	}
	return slices.DeleteFunc(out, func(family string) bool { return calledBy(c.chars[i].Forms, family, marriedTitles) })
}

// calledBy says one of forms is family with one of titles ("Mrs.
// Bennet").
func calledBy(forms []string, family string, titles []string) bool {
	return slices.ContainsFunc(forms, func(f string) bool {
		title, fam, ok := titledName(f)
		return ok && fam == family && slices.Contains(titles, title)
	})
}

// calledByTitle says one of forms opens with one of titles ("Mrs.
// Goddard"), whatever its family name.
func calledByTitle(forms []string, titles []string) bool {
	return slices.ContainsFunc(forms, func(f string) bool {
		title, _, ok := titledName(f)
		return ok && slices.Contains(titles, title)
	})
}

// titledName splits a name of at least two words into its first word,
// as a title ("mrs"), and its last, as a family name ("bennet"), both
// lower case.
func titledName(name string) (title, family string, ok bool) {
	words := strings.Fields(name)
	if len(words) < 2 {
		return "", "", false
	}
	return strings.TrimSuffix(strings.ToLower(words[0]), "."), strings.ToLower(strings.Trim(words[len(words)-1], ".,")), true
}

// familyOf is the family name of a name of at least two words ("Mr.
// Bennet", "Elizabeth Bennet"), lower case; "" for a single name.
func familyOf(name string) string {
	_, family, _ := titledName(name)
	return family
}

// titledFamilies indexes the characters by the family name of each form
// a married title opens ("Mrs. Bennet" under bennet).
func (c *Cast) titledFamilies() map[string][]int {
	out := map[string][]int{}
	for i, ch := range c.chars {
		for _, f := range ch.Forms {
			title, family, ok := titledName(f)
			if !ok || !slices.Contains(wifeTitles, title) && !slices.Contains(husbandTitles, title) {
				continue
			}
			if l := out[family]; len(l) == 0 || l[len(l)-1] != i {
				out[family] = append(l, i)
			}
		}
	}
	return out
}

// relativesOf are the characters a kinship tag may give the lines of one
// of family to: those called by that family name with a married title.
func (c *Cast) relativesOf(family string) []int {
	if family == "" || c.families == nil {
		return nil
	}
	return c.families()[family]
}

// description resolves a tag that describes its speaker and does not
// name them ("cried the old man", and "said her mother" where the family
// name found no one) as a pronoun of the noun's gender would be. For a
// spouse or parent, the characters the codex calls by a married title
// come first: a mother or a wife is a Mrs. or a Lady, a father or a
// husband a Mr. or a Sir.
// The one the possessive refers to (kinOwner) is left out.
func (a *attributor) description(i int, before token, noun string, g Gender, off int, tag codex.Range) bool {
	k, isKin := kinNouns[strings.ToLower(noun)]
	rel, og, owned := relationPhrase(before.word, noun)
	if a.namesOnly || !isKin && !owned {
		return a.pronoun(i, g, off, tag)
	}
	cands := a.referents(i, off, g)
	// "said her mother", "replied her aunt": the one "her" is, is not
	// her own relative. The characters the pronoun may be are looked
	// for wider, as the nearest named may be that one.
	if owned {
		for _, id := range a.recent(i, off, g) {
			if !slices.Contains(cands, id) {
				cands = append(cands, id)
			}
		}
		if owner := a.kinOwner(i, rel, og, before.r.Start); owner != "" {
			cands = slices.DeleteFunc(cands, func(id string) bool { return id == owner })
		}
	}
	if isKin || owned {
		titles := husbandTitles
		if k.rel == kinWife || k.rel == kinMother || !isKin && g == GenderFemale {
			titles = wifeTitles
		}
		titled := func(id string) int {
			if c, ok := a.cast.Character(id); ok && calledByTitle(c.Forms, titles) {
				return 0
			}
			return 1
		}
		slices.SortStableFunc(cands, func(x, y string) int { return titled(x) - titled(y) })
	}
	return a.resolve(i, tag, cands, nil)
}

// possessives are the possessive pronouns a relation's owner is named
// by, with the owner's gender.
var possessives = map[string]Gender{"his": GenderMale, "her": GenderFemale}

// distantRelations are the relations of a tag's noun no family name
// finds, the speaker by their relation to another ("said her aunt").
var distantRelations = wordSet(`aunt uncle`)

// eachParentWord calls f with each word of sp that calls a parent
// ("papa", "Mother"), and its relation, until f returns false. It reads
// every speech of a chapter, so it goes byte by byte and looks at a word
// only where one of them may start.
func eachParentWord(text string, sp codex.Range, f func(k kin, r codex.Range) bool) {
	for at := sp.Start; at < sp.End; at++ {
		c := text[at] | 0x20
		if c != 'p' && c != 'm' && c != 'f' || at > sp.Start && wordByte(text[at-1]) {
			continue
		}
		end := at
		for end < sp.End && wordByte(text[end]) {
			end++
		}
		if k, ok := parentWord(text[at:end]); ok && !f(k, codex.Range{Start: at, End: end}) {
			return
		}
		at = end
	}
}

// wordByte says b is part of a word: an ASCII letter or any byte of a
// character beyond ASCII.
func wordByte(b byte) bool { return isASCIILetter(b) || b >= 0x80 }

// parentWord is the relation w calls a parent by as a name, in any case.
func parentWord(w string) (kin, bool) {
	if len(w) < 4 || len(w) > 6 {
		return 0, false
	}
	switch w[0] | 0x20 {
	case 'p':
		return kinFather, strings.EqualFold(w, "papa")
	case 'f':
		return kinFather, strings.EqualFold(w, "father")
	case 'm':
		return kinMother, strings.EqualFold(w, "mamma") || strings.EqualFold(w, "mama") || strings.EqualFold(w, "mother")
	}
	return 0, false
}

// parentLook bounds the characters named before a line whose parent it
// may call "papa": the child who speaks is among the last few named.
const parentLook = 6

// parentAddressed is the parent utterance i calls by "papa", "mamma" or
// the like ("Yes, papa, it is written out"): the codex's one relative of
// that title (relative) of the characters named last before the line,
// the same for each of them that has one; "" for none, or two. A child
// speaks so to the parent in the room, whom the next turn is likely
// to be.
func (a *attributor) parentAddressed(i int) string {
	var rel kin
	for _, sp := range a.utts[i].Spans {
		eachParentWord(a.text, sp, func(k kin, r codex.Range) bool {
			// "my father" and "my dear mother used to sit" speak of a
			// parent; "my dear father!" and "Yes, papa," speak to one.
			if a.isVocative(sp, r) && !strings.EqualFold(lastWordBefore(a.text, sp.Start, r.Start), "my") && stopsAfter(a.text, r.End, sp.End) {
				rel = k
			}
			return rel == 0
		})
		if rel != 0 {
			break
		}
	}
	if rel == 0 || a.namesOnly {
		return ""
	}
	start := a.utts[i].Marks[0].Start
	k := sort.Search(len(a.ments), func(k int) bool { return a.ments[k].r.Start >= start })
	var named []string
	found := ""
	for k--; k >= 0 && len(named) < parentLook; k-- {
		m := a.ments[k]
		if len(m.ids) != 1 || slices.Contains(named, m.ids[0]) {
			continue
		}
		named = append(named, m.ids[0])
		if p, ok := a.cast.relative(m.ids[0], rel); ok {
			if found != "" && found != p {
				return ""
			}
			found = p
		}
	}
	return found
}

// stopsAfter says the word ending at end is the last of its clause:
// punctuation or the speech's end follows it.
func stopsAfter(text string, end, spanEnd int) bool {
	rest := strings.TrimLeft(text[end:spanEnd], " \t\n")
	return rest == "" || strings.ContainsAny(rest[:1], ",.!?;:-—")
}
