package continuity

import (
	"fmt"
	"slices"
	"strings"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
)

// statement is a trait described in prose: "her dark brown eyes",
// "brown-eyed", "his hair was black".
type statement struct {
	trait string
	hues  hue
	// first and last are the token span of the words that say it.
	first, last int
}

// traitNouns maps the words that name a trait to it: eyes and hair by
// their nouns, any other trait by its own name.
func (c *checker) traitNouns() (nouns, compounds map[string]string) {
	nouns, compounds = map[string]string{}, map[string]string{}
	for _, t := range c.canon.traits {
		switch t {
		case "eyes", "eye":
			nouns["eye"], nouns["eyes"], compounds["eyed"] = t, t, t
		case "hair":
			nouns["hair"], compounds["haired"] = t, t
		default:
			nouns[t] = t
			nouns[strings.TrimSuffix(t, "s")] = t
			compounds[strings.TrimSuffix(t, "s")+"ed"] = t
		}
	}
	return nouns, compounds
}

// statements finds the trait statements of the prose, in order.
func (c *checker) statements() []statement {
	nouns, compounds := c.traitNouns()
	p := c.p
	var out []statement
	for i, tok := range p.tokens {
		if trait, ok := compounds[tok.lower]; ok && i > 0 && p.gap(i-1) == "-" {
			// "brown-eyed", "rust-red-haired": the hyphenated words before.
			var h hue
			first := i
			for j := i - 1; j >= 0 && j >= i-3 && p.tokens[j].sentence == tok.sentence; j-- {
				if j < i-1 && p.gap(j) != "-" {
					break
				}
				h |= colours[p.tokens[j].lower]
				first = j
			}
			if h != 0 && c.compoundOwned(first, i) {
				out = append(out, statement{trait: trait, hues: h, first: first, last: i})
			}
			continue
		}
		trait, ok := nouns[tok.lower]
		if !ok {
			continue
		}
		// Before the noun: up to three words of colour and shade, in the
		// same clause.
		var h hue
		first := i
		for j := i - 1; j >= 0 && j >= i-3 && p.tokens[j].sentence == tok.sentence; j-- {
			g := p.gap(j)
			if !isSpace(g) && g != "-" && g != ", " {
				break
			}
			w := p.tokens[j].lower
			if colours[w] == 0 && !shades[w] {
				break
			}
			h |= colours[w]
			first = j
		}
		last := i
		if h == 0 {
			// After it: "eyes were green", "hair black as tar".
			j := i + 1
			if j < len(p.tokens) && p.tokens[j].sentence == tok.sentence && isSpace(p.gap(i)) && copulas[p.tokens[j].lower] {
				j++
				if j < len(p.tokens) && p.tokens[j].lower == "been" {
					j++
				}
			}
			for k := j; k < len(p.tokens) && k < j+3 && p.tokens[k].sentence == tok.sentence && isSpace(p.gap(k-1)); k++ {
				w := p.tokens[k].lower
				if colours[w] == 0 && !shades[w] {
					break
				}
				h |= colours[w]
				if colours[w] != 0 {
					last = k
				}
			}
			if h != 0 {
				first = i
			}
		} else {
			// Start at the first colour word, not at a shade.
			for first < i && colours[p.tokens[first].lower] == 0 && !shades[p.tokens[first].lower] {
				first++
			}
		}
		// "the brown eyes of the fish", "a grey-haired clerk": a
		// determiner gives the trait to someone the sentence may not name.
		if h != 0 && first > 0 && p.tokens[first-1].sentence == tok.sentence && determiners[p.tokens[first-1].lower] {
			continue
		}
		if h != 0 {
			out = append(out, statement{trait: trait, hues: h, first: first, last: last})
		}
	}
	return out
}

// determiners before a trait give it to an unnamed someone.
var determiners = map[string]bool{"a": true, "an": true, "the": true, "this": true, "that": true,
	"these": true, "those": true, "its": true, "their": true, "some": true, "every": true, "each": true}

// compoundOwned reports whether a compound such as "brown-eyed" (tokens
// first..last) describes a name: right before it ("brown-eyed
// Séverine"), or right after it and a comma or copula ("Marek,
// brown-eyed", "Séverine was brown-eyed"). Anywhere else ("the
// brown-eyed boy") it describes someone the sentence may not name.
func (c *checker) compoundOwned(first, last int) bool {
	p := c.p
	if last+1 < len(p.tokens) && isSpace(p.gap(last)) && has(c.mentionStarts, p.tokens[last+1].start) {
		return true
	}
	if first == 0 {
		return false
	}
	prev := first - 1
	g := p.gap(prev)
	if copulas[p.tokens[prev].lower] && isSpace(g) {
		return true
	}
	return strings.TrimSpace(g) == "," && has(c.mentionEnds, p.tokens[prev].end)
}

// traitContradictions flags a trait statement that differs from the
// canon of every entity its sentence names that has the trait, pointing
// at the one it most likely describes: a name in the possessive right
// before it, else the nearest name before it, else the nearest after.
// A sentence that names no such entity says nothing checkable: pronouns
// are not followed, for precision.
func (c *checker) traitContradictions() {
	stmts := c.statements()
	if len(stmts) == 0 || len(c.mentions) == 0 {
		return
	}
	p := c.p
	mi := 0
	for si := 0; si < len(stmts); {
		sent := p.tokens[stmts[si].first].sentence
		s := p.sentences[sent]
		lo, hi := p.tokens[s.first].start, p.tokens[s.last-1].end
		for mi < len(c.mentions) && c.mentions[mi].Range.Start < lo {
			mi++
		}
		mj := mi
		for mj < len(c.mentions) && c.mentions[mj].Range.Start < hi {
			mj++
		}
		inSentence := c.mentions[mi:mj]
		reported := map[string]bool{}
		for ; si < len(stmts) && p.tokens[stmts[si].first].sentence == sent; si++ {
			c.judge(stmts[si], inSentence, reported)
		}
	}
}

type candidate struct {
	m     manuscript.Mention
	asOf  codex.AsOf
	value string
	hues  hue
}

func (c *checker) judge(st statement, inSentence []manuscript.Mention, reported map[string]bool) {
	p := c.p
	at := p.tokens[st.first].start
	var cands []candidate
	var owner *candidate
	for _, m := range inSentence {
		a, ok := c.entryAsOf(m.Entry, m.Range.Start)
		if !ok {
			continue
		}
		v := a.Field(st.trait)
		if v == "" {
			continue
		}
		cd := candidate{m: m, asOf: a, value: v, hues: huesOf(v)}
		cands = append(cands, cd)
		// "Séverine's brown eyes": the possessive owns what follows it.
		if m.Range.End < at && possessive(p.text, m.Range.End) && p.tokenAt(m.Range.End)+3 >= st.first {
			owner = &cands[len(cands)-1]
		}
	}
	if len(cands) == 0 {
		return
	}
	var target candidate
	switch {
	case owner != nil:
		target = *owner
		if target.hues == 0 || target.hues&st.hues != 0 {
			return
		}
	default:
		for _, cd := range cands {
			// Any named entity the words fit, or whose canon names no
			// colour, may be the one described: nothing to flag.
			if cd.hues == 0 || cd.hues&st.hues != 0 {
				return
			}
		}
		target = cands[0]
		for _, cd := range cands {
			if cd.m.Range.Start < at {
				target = cd
			}
		}
	}
	key := target.m.Entry + "\x00" + st.trait
	if reported[key] {
		return
	}
	reported[key] = true
	r := codex.Range{Start: p.tokens[st.first].start, End: p.tokens[st.last].end}
	words := p.text[r.Start:r.End]
	name := target.asOf.Entry.Name
	c.add(Diagnostic{Code: CodeTraitContradiction, Range: r, Entry: target.m.Entry,
		Message: fmt.Sprintf("%q here, but the codex gives %s %s: %s (as of this chapter)", words, name, st.trait, target.value),
		Related: []Related{related(target.asOf, st.trait, fmt.Sprintf("%s: %s", st.trait, target.value))}})
}

// possessive reports whether a name ending at off is followed by 's.
func possessive(text string, off int) bool {
	rest := text[off:]
	return strings.HasPrefix(rest, "'s") || strings.HasPrefix(rest, "’s") || strings.HasPrefix(rest, "'S") ||
		strings.HasPrefix(rest, "’") || strings.HasPrefix(rest, "' ")
}

// has reports whether the sorted offsets hold off.
func has(offsets []int, off int) bool {
	_, found := slices.BinarySearch(offsets, off)
	return found
}
