package namebench

import (
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Found is a mention a finder reports: its bytes and the entities it may
// name (more than one when the finder says it is ambiguous).
type Found struct {
	Start, End int
	Entities   []string
}

// Score counts a finder's mentions against the annotations: a mention is
// right when its span is exactly an annotated one and the entity
// annotated is among those it names.
type Score struct {
	Right, Found, Annotated int
}

// Add counts one novel's mentions.
func (s *Score) Add(n Novel, found []Found, keep func(Entity) bool) {
	kept := map[string]bool{}
	for _, e := range n.Entities {
		kept[e.ID] = keep == nil || keep(e)
	}
	gold := map[[2]int]string{}
	for _, m := range n.Mentions {
		if kept[m.Entity] {
			gold[[2]int{m.Start, m.End}] = m.Entity
			s.Annotated++
		}
	}
	for _, f := range found {
		s.Found++
		if id, ok := gold[[2]int{f.Start, f.End}]; ok && slices.Contains(f.Entities, id) {
			s.Right++
		}
	}
}

// Precision, Recall and F1 of the mentions counted.
func (s Score) Precision() float64 { return Ratio(s.Right, s.Found) }
func (s Score) Recall() float64    { return Ratio(s.Right, s.Annotated) }
func (s Score) F1() float64        { return F1(s.Precision(), s.Recall()) }

// F1 is the harmonic mean of precision p and recall r, 0 when both are.
func F1(p, r float64) float64 {
	if p+r == 0 {
		return 0
	}
	return 2 * p * r / (p + r)
}

// Ratio is a over b, 0 when b is: a share of nothing counts as none.
func Ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// Grep is the baseline: every form of every entry, found case-sensitively
// as a whole word (no letter or digit either side; any whitespace, a line
// break too, between its words), the longest at a place winning and
// matches never overlapping.
func Grep(text string, forms map[string][]string) []Found {
	var all []Found
	for form, ids := range forms {
		words := strings.Fields(form)
		for i, w := range words {
			words[i] = regexp.QuoteMeta(w)
		}
		re := regexp.MustCompile(strings.Join(words, `\s+`))
		for _, loc := range re.FindAllStringIndex(text, -1) {
			if !wordRuneBefore(text, loc[0]) && !wordRuneAfter(text, loc[1]) {
				all = append(all, Found{Start: loc[0], End: loc[1], Entities: ids})
			}
		}
	}
	sort.Slice(all, func(a, b int) bool {
		if all[a].Start != all[b].Start {
			return all[a].Start < all[b].Start
		}
		return all[a].End > all[b].End
	})
	var out []Found
	last := -1
	for _, f := range all {
		if f.Start >= last {
			out = append(out, f)
			last = f.End
		}
	}
	return out
}

func wordRuneBefore(text string, i int) bool {
	r, _ := utf8.DecodeLastRuneInString(text[:i])
	return i > 0 && (unicode.IsLetter(r) || unicode.IsDigit(r))
}

func wordRuneAfter(text string, i int) bool {
	r, _ := utf8.DecodeRuneInString(text[i:])
	return i < len(text) && (unicode.IsLetter(r) || unicode.IsDigit(r))
}
