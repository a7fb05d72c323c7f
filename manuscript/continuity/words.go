package continuity

import "strings"

// hue is a set of colour families; two descriptions contradict each
// other when their families do not meet.
type hue uint16

const (
	hueGreen hue = 1 << iota
	hueBrown
	hueBlue
	hueGrey
	hueBlack
	hueRed
	hueBlond
	hueWhite
	hueAmber
	hueViolet
)

// colours are the trait words the checks understand: hues only, never
// shades ("dark", "pale") or moods, so "dark green" and "pale green"
// agree. Words that sit between two families (hazel, silver) belong to
// both, which keeps them from ever contradicting either.
var colours = map[string]hue{
	"green": hueGreen, "emerald": hueGreen, "jade": hueGreen, "olive": hueGreen,
	"hazel": hueGreen | hueBrown,
	"brown": hueBrown, "chestnut": hueBrown, "chocolate": hueBrown, "umber": hueBrown, "mahogany": hueBrown | hueRed,
	"blue": hueBlue, "azure": hueBlue, "sapphire": hueBlue, "cornflower": hueBlue,
	"grey": hueGrey, "gray": hueGrey, "ashen": hueGrey, "slate": hueGrey | hueBlue,
	"silver": hueGrey | hueWhite, "steel": hueGrey | hueBlue,
	"black": hueBlack, "jet": hueBlack, "raven": hueBlack, "ebony": hueBlack,
	"red": hueRed, "auburn": hueRed | hueBrown, "ginger": hueRed, "copper": hueRed | hueBrown,
	"rust": hueRed | hueBrown, "russet": hueRed | hueBrown, "scarlet": hueRed, "crimson": hueRed,
	"blond": hueBlond, "blonde": hueBlond, "golden": hueBlond | hueAmber, "gold": hueBlond | hueAmber,
	"flaxen": hueBlond, "straw": hueBlond, "fair": hueBlond,
	"white": hueWhite, "snowy": hueWhite,
	"amber": hueAmber | hueBrown, "violet": hueViolet, "purple": hueViolet,
}

// huesOf collects the hues of the words of a codex value.
func huesOf(value string) hue {
	var h hue
	for _, w := range strings.FieldsFunc(strings.ToLower(value), func(r rune) bool {
		return !(r >= 'a' && r <= 'z')
	}) {
		h |= colours[w]
	}
	return h
}

// copulas link a trait to its colour after the noun: "her eyes were
// green".
var copulas = map[string]bool{
	"was": true, "were": true, "is": true, "are": true, "looked": true, "seemed": true,
	"gleamed": true, "shone": true, "turned": true, "had": true, "been": true,
}

// shades may stand between a colour and its noun, or after a copula,
// without breaking the statement.
var shades = map[string]bool{
	"dark": true, "pale": true, "light": true, "deep": true, "bright": true, "clear": true,
	"very": true, "so": true, "quite": true, "cold": true, "warm": true, "wet": true,
	"flat": true, "muddy": true, "still": true, "and": true, "almost": true, "nearly": true,
}

// speechVerbs make the name before them act in the narration (`Jory
// asked for the lamp`); who speaks a line of dialogue is the dialogue
// attribution's to say.
var speechVerbs = map[string]bool{
	"said": true, "asked": true, "replied": true, "answered": true, "whispered": true,
	"shouted": true, "called": true, "muttered": true, "murmured": true, "cried": true,
	"snapped": true, "added": true, "told": true, "says": true, "asks": true, "yelled": true,
	"insisted": true, "admitted": true, "repeated": true, "laughed": true, "sighed": true,
}

// stillVerbs follow a dead character's name without making them act:
// being, having been, lying, being remembered, dying.
var stillVerbs = map[string]bool{
	"was": true, "were": true, "is": true, "had": true, "has": true, "would": true, "could": true,
	"might": true, "should": true, "must": true, "used": true, "never": true, "once": true,
	"lay": true, "lies": true, "remained": true, "rested": true, "died": true, "drowned": true,
	"remembered": true, "himself": true, "herself": true, "themselves": true, "and": true,
	"or": true, "nor": true, "too": true, "alone": true, "ever": true, "did": true, "didn't": true,
	"wasn't": true, "hadn't": true, "had've": true, "perished": true, "vanished": true,
}

// actVerbs are common irregular past tenses; regular ones end in -ed.
var actVerbs = map[string]bool{
	"came": true, "went": true, "took": true, "stood": true, "sat": true, "ran": true, "spoke": true,
	"gave": true, "held": true, "made": true, "saw": true, "got": true, "put": true, "knew": true,
	"thought": true, "felt": true, "left": true, "brought": true, "found": true, "kept": true,
	"began": true, "shook": true, "wrote": true, "rose": true, "drew": true, "threw": true,
	"caught": true, "swore": true, "struck": true, "fell": true, "let": true, "met": true,
	"paid": true, "read": true, "rode": true, "sang": true, "sent": true, "slept": true,
	"stole": true, "swam": true, "taught": true, "tore": true, "woke": true, "won": true,
	"bought": true, "climbed": true, "grinned": true, "smiled": true, "nodded": true,
	"leaned": true, "says": true, "asks": true, "walks": true, "goes": true, "comes": true,
}

// actingVerb reports whether a word after a name makes its owner act.
func actingVerb(w string) bool {
	if stillVerbs[w] {
		return false
	}
	return speechVerbs[w] || actVerbs[w] || (len(w) > 4 && strings.HasSuffix(w, "ed"))
}

// clauseOpeners may stand before a subject at the start of a clause.
var clauseOpeners = map[string]bool{"and": true, "but": true, "then": true, "so": true, "yet": true}
