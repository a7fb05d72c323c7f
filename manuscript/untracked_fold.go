package manuscript

import (
	"cmp"
	"slices"
	"strings"

	"github.com/quire-ink/quire/codex"
)

// How the forms of one name are folded into one suggestion.
//
// The finder tallies each capitalized word and each pair of them apart
// ("Netherfield", "Netherfield House"; "Wickham", "Mr. Wickham"). A
// suggestion is a pair with the single words folded into it, or a single
// word alone. Its name is the form the prose uses most as itself (mid-
// sentence, and not as a piece of a longer name); the other forms used so
// are its aliases. Its count is what an entry of that name and those
// aliases would find (untracked_count.go), so that creating the entry as
// offered delivers the count promised. A word folds into at most one
// pair, the most used of the pairs that hold it and are its own:
//
//   - a pair whose other word is used alone no more often than the pair
//     ("Carl" into "Carl Linstrum", "Longbourn" into "Longbourn House";
//     not "Darcy" into "Georgiana Darcy", nor "Lydia" into "London
//     Lydia"), or whose other word is a family's surname (below): a given
//     name before it makes that one's whole name ("Elizabeth Bennet");
//   - a title's pair, when the word is used bare neither more than twice
//     as often as the pair (Darcy 371 times is not "Miss Darcy") nor less
//     than an eighth as often (Kitty's "Catherine", 8 times, is not "Lady
//     Catherine", 115): "Wickham" 96 times and "Mr. Wickham" 73 are one,
//     named Wickham, with "Mr. Wickham" its alias;
//
// The name is the form used most, so a word folded into a pair used far
// less keeps its name: beside an entry for Wickham, "Lydia" 144 times and
// "Lydia Wickham" once are Lydia, with her married name an alias.
//
// A family's surname is one that two people are called by with a title,
// each at least min times (Mr. and Mrs. Bennet). It is one person's only
// when the prose also uses it bare at least min times, not as a piece of
// a longer name nor after a title in lower case ("my aunt Phillips"): then
// it folds into the family's most used titled pair ("Bingley" into "Mr.
// Bingley"; "Holmes" into "Mr. Holmes", however often bare). Otherwise it
// is the family's: offered neither alone nor as anyone's alias (P&P's
// "Bennet"). A family made plural ("the Gardiners") is not offered beside
// the name it is the family of, when that name's word is used at least as
// often: once the name has an entry, the family is a known name's. Its
// uses are no mentions of the entry, and are not counted.
//
// No suggestion takes another's uses. A title's alias keeps the family
// apart by itself: an entry named "Mr. Darcy" with the alias "Darcy"
// finds no "Miss Darcy" (mention_judge.go, otherTitle). Where the mention
// scan would count another suggestion's pair for a word of this one
// ("Lady Catherine" for Catherine, "Lucas Lodge" for Lucas), the entry
// excludes it (keepApart). A word folded in but never used as itself
// ("Wentworth" only in "Frederick Wentworth Harville", beside "Captain
// Wentworth") is no alias: the entry would find it nowhere.

// untrackedForm is one candidate key's tally over the whole book.
type untrackedForm struct {
	key                    string
	written                string
	first                  FirstSeen
	count, shouted, pieces int
}

// untrackedGroup is one suggestion: its forms, name and aliases, and the
// counts countUntracked finds for it.
type untrackedGroup struct {
	name    string
	aliases []string
	// exclude are the other suggestions' names the entry would otherwise
	// take as its own ("Lady Catherine" for an entry named Catherine).
	exclude []string
	first   FirstSeen
	// forms are the finder's keys of the forms folded together.
	forms []string
	// tally is the forms' uses as the finder tallied them.
	tally        int
	count, units int
}

// untrackedTotals sums every unit's candidates by key, in reading order.
func (ix *MentionIndex) untrackedTotals() map[string]*untrackedForm {
	totals := map[string]*untrackedForm{}
	for _, um := range ix.order {
		for key, t := range um.names() {
			sum := totals[key]
			if sum == nil {
				sum = &untrackedForm{key: key}
				totals[key] = sum
			}
			sum.count += t.count
			sum.shouted += t.shouted
			sum.pieces += t.pieces
			if sum.written == "" && t.count > 0 {
				sum.written = t.written
				sum.first = FirstSeen{Path: um.unit.Path, Range: t.first}
			}
		}
	}
	return totals
}

// untrackedGroups folds the candidates into suggestions and returns
// those whose forms the finder tallied at least min times, not yet
// counted.
func (ix *MentionIndex) untrackedGroups(min int) []*untrackedGroup {
	totals := ix.untrackedTotals()
	alone := func(key string) int {
		if t := totals[key]; t != nil {
			return t.count
		}
		return 0
	}
	// Each word's pairs, found once, keep the folding linear in the names
	// the book has; and each word's uses in every form that holds it.
	pairsOf := map[string][]string{}
	wordUses := map[string]int{}
	for key, t := range totals {
		if key[0] == commonMark {
			continue
		}
		a, b, ok := strings.Cut(key, " ")
		if !ok {
			wordUses[key] += t.count
			continue
		}
		wordUses[a] += t.count
		pairsOf[a] = append(pairsOf[a], key)
		if b != a {
			wordUses[b] += t.count
			pairsOf[b] = append(pairsOf[b], key)
		}
	}
	// The surnames a family shares: two of its people are called by
	// them with a title, each at least min times.
	shared := map[string]bool{}
	for word, pairs := range pairsOf {
		titled := 0
		for _, p := range pairs {
			if isTitleOrHonorific(pairOther(p, word)) && alone(p) >= min {
				titled++
			}
		}
		shared[word] = titled >= 2
	}
	// Words left out of every suggestion (families and shared surnames),
	// and the words folded into each pair.
	left := map[string]bool{}
	folded := map[string]bool{}
	into := map[string][]string{}
	for key, t := range totals {
		if key[0] == commonMark || strings.IndexByte(key, ' ') >= 0 || t.count == 0 {
			continue
		}
		if pluralOfName(key, wordUses, alone) {
			left[key] = true
			continue
		}
		pair := foldInto(key, pairsOf[key], shared, min, t, alone)
		switch {
		case pair != "":
			into[pair] = append(into[pair], key)
			folded[key] = true
		case shared[key]:
			left[key] = true
		}
	}
	var groups []*untrackedGroup
	add := func(forms []string) {
		g := &untrackedGroup{forms: forms}
		written := 0
		for _, k := range forms {
			t := totals[k]
			g.tally += t.count + t.shouted
			written += t.count
		}
		if written > 0 && g.tally >= min {
			g.nameForms(totals)
			groups = append(groups, g)
		}
	}
	for key, t := range totals {
		switch {
		case key[0] == commonMark || left[key]:
		case strings.IndexByte(key, ' ') >= 0:
			if t.count > 0 || len(into[key]) > 0 {
				add(append([]string{key}, into[key]...))
			}
		case !folded[key]:
			add([]string{key})
		}
	}
	// An everyday word the book capitalizes mid-sentence often enough,
	// and never writes in lower case, is a name to it: unless it is a
	// word of a pair offered.
	inPairs := map[string]bool{}
	for _, g := range groups {
		for _, k := range g.forms {
			if a, b, ok := strings.Cut(k, " "); ok {
				inPairs[a], inPairs[b] = true, true
			}
		}
	}
	for key, t := range totals {
		if key[0] != commonMark || t.count < min {
			continue
		}
		if word := key[1:]; !inPairs[word] && !ix.writesWord(word) {
			add([]string{key})
		}
	}
	keepApart(groups, totals, pairsOf)
	// Counted most used first, so that a bound on the counting (see
	// countUntracked) spares the names that matter most.
	slices.SortFunc(groups, func(a, b *untrackedGroup) int {
		return cmp.Or(cmp.Compare(b.tally, a.tally), strings.Compare(a.name, b.name))
	})
	return groups
}

// pluralOfName reports a word that is the family of a name the book
// uses at least as often ("Gardiners" beside Gardiner, "Lucases" beside
// Lucas): a plural of a word of three letters or more.
func pluralOfName(key string, wordUses map[string]int, alone func(string) int) bool {
	for _, end := range []string{"es", "s"} {
		if stem, ok := strings.CutSuffix(key, end); ok && len(stem) >= 3 && wordUses[stem] > 0 && wordUses[stem] >= alone(key) {
			return true
		}
	}
	return false
}

// foldInto is the pair the word key folds into, "" for none.
func foldInto(key string, pairs []string, shared map[string]bool, min int, t *untrackedForm, alone func(string) int) string {
	// A family's surname is one person's only when the prose calls
	// someone by it bare.
	if shared[key] && t.count-t.pieces < min {
		return ""
	}
	best := ""
	for _, p := range pairs {
		if alone(p) == 0 {
			continue
		}
		other := pairOther(p, key)
		switch {
		case isTitleOrHonorific(other):
			// Not a word used bare far more often than with the title
			// ("Darcy" 371 times is not "Miss Darcy"), nor far less: a
			// word the prose uses bare an eighth as often as the titled
			// name is someone else's ("Catherine", Kitty, beside "Lady
			// Catherine"). A family's surname goes to its most used,
			// however often it is bare ("Holmes" beside Mr. and Mrs.
			// Holmes is Mr. Holmes).
			if !shared[key] && alone(key) > 2*alone(p) || 8*alone(key) < alone(p) {
				continue
			}
		case shared[key]:
			continue
		case alone(other) > alone(p) && !shared[other]:
			// The other word is a name of its own ("Georgiana Darcy" is
			// no name of Darcy's); but a family's surname after a given
			// name makes that person's full name ("Elizabeth Bennet"), as
			// does a known name's, which the finder does not tally
			// ("Lydia Wickham" beside an entry for Wickham).
			continue
		}
		// Counts as written keep the choice the same whatever order the
		// map gives.
		if best == "" || alone(p) > alone(best) || alone(p) == alone(best) && p < best {
			best = p
		}
	}
	return best
}

// isTitleOrHonorific reports a word of a pair that makes it a form of
// address: "Mr. Wickham", "Lady Catherine".
func isTitleOrHonorific(word string) bool { return isTitle([]byte(word)) || isHonorific(word) }

// nameForms names g by its most used form, and lists the others as its
// aliases, most used first; its first use is its name's.
func (g *untrackedGroup) nameForms(totals map[string]*untrackedForm) {
	forms := slices.Clone(g.forms)
	bare := func(k string) int { return totals[k].count - totals[k].pieces }
	slices.SortFunc(forms, func(a, b string) int {
		return cmp.Or(cmp.Compare(bare(b), bare(a)), cmp.Compare(totals[b].count, totals[a].count),
			cmp.Compare(strings.Count(b, " "), strings.Count(a, " ")), strings.Compare(a, b))
	})
	name := totals[forms[0]]
	g.name, g.first = oneLine(name.written), name.first
	// A form used only as a piece of longer names is folded, so not
	// offered alone, but no alias: the entry would find it nowhere.
	for _, k := range forms[1:] {
		if w := totals[k].written; w != "" && bare(k) > 0 {
			g.aliases = append(g.aliases, oneLine(w))
		}
	}
}

// oneLine is a name as written, a line break in it ("Mrs.\nBennet") or
// a wider space made one space.
func oneLine(written string) string {
	if strings.IndexFunc(written, isLineSpace) < 0 && !strings.Contains(written, "  ") {
		return written
	}
	return strings.Join(strings.Fields(written), " ")
}

func isLineSpace(r rune) bool { return r == '\n' || r == '\r' || r == '\t' }

// keepApart gives each group the exclusions that keep the other
// suggestions' uses off its entry: a word of the group, alone, is also
// found inside another suggestion's pair ("Catherine" in "Lady
// Catherine", "Elizabeth" in "Miss Elizabeth"), and the mention scan
// would count that pair for it (takes).
func keepApart(groups []*untrackedGroup, totals map[string]*untrackedForm, pairsOf map[string][]string) {
	owner := map[string]*untrackedGroup{}
	for _, g := range groups {
		for _, k := range g.forms {
			if strings.IndexByte(k, ' ') >= 0 {
				owner[k] = g
			}
		}
	}
	for _, g := range groups {
		for _, k := range g.forms {
			if k[0] == commonMark || strings.IndexByte(k, ' ') >= 0 {
				continue
			}
			addressed := slices.ContainsFunc(g.forms, func(f string) bool {
				a, b, ok := strings.Cut(f, " ")
				return ok && b == k && isAddressTitle(a)
			})
			for _, p := range pairsOf[k] {
				other := owner[p]
				if other == nil || other == g {
					continue
				}
				if takes(p, k, addressed) {
					g.excludeForm(totals, p)
				}
			}
		}
		keepGivenApart(g, groups, totals)
		slices.Sort(g.exclude)
	}
}

// keepGivenApart gives g, made a character, the exclusions that keep
// its given name (GivenName) off the other suggestions: "Lucas Lodge"
// would find Lucas alone, who is Mr. Lucas, and every "Mrs. Lucas". The
// word alone is excluded where another suggestion uses it alone, else
// each other suggestion's form it is a word of.
func keepGivenApart(g *untrackedGroup, groups []*untrackedGroup, totals map[string]*untrackedForm) {
	given, ok := GivenName(g.untrackedEntry())
	if !ok {
		return
	}
	k := codex.Normalize(given)
	if slices.Contains(g.forms, k) {
		return
	}
	others := func(f func(form string)) {
		for _, o := range groups {
			if o != g {
				for _, form := range o.forms {
					f(form)
				}
			}
		}
	}
	alone := false
	others(func(form string) { alone = alone || form == k })
	if alone {
		g.excludeForm(totals, k)
		return
	}
	others(func(form string) {
		if form[0] != commonMark && slices.Contains(strings.Fields(form), k) {
			g.excludeForm(totals, form)
		}
	})
}

// excludeForm excludes the form key of another suggestion from g, as
// the book writes it.
func (g *untrackedGroup) excludeForm(totals map[string]*untrackedForm, key string) {
	if w := oneLine(totals[key].written); w != "" && !slices.Contains(g.exclude, w) {
		g.exclude = append(g.exclude, w)
	}
}

// takes reports whether an entry with the word k alone would count the
// pair p, another suggestion's, for its own, by the rules of the mention
// scan: after a title ("Lady Catherine") unless the entry writes the word
// with another form of address (addressed), or before an everyday word
// ("Lucas Lodge"). Beside an unknown capitalized word ("Georgiana Darcy")
// the scan finds the word uncertain, and counts it for no one.
func takes(p, k string, addressed bool) bool {
	a, b, _ := strings.Cut(p, " ")
	if b == k {
		return isTitleOrHonorific(a) && !(addressed && isAddressTitle(a))
	}
	return isCommonish(b)
}

// isAddressTitle reports the forms of address the mention scan keeps a
// family apart by (addressTitles).
func isAddressTitle(key string) bool { return slices.Contains(addressTitles[:], key) }

// untrackedEntry is the entry a writer who accepts g makes: its name and
// aliases, under an ID no codex file has.
func (g *untrackedGroup) untrackedEntry() *codex.Entry {
	return &codex.Entry{ID: whatIfID, Type: codex.TypeCharacter, Name: g.name, Aliases: g.aliases, Exclude: g.exclude, Mentions: true}
}
