package dialogue

import (
	"sort"
	"strings"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
)

// writer reads a `<!-- speaker: Name -->` about the utterance.
func (a *attributor) writer(i int) bool {
	c, ok := a.said[i]
	if !ok {
		return false
	}
	name, _ := speakerComment(a.text[c.Start:c.End])
	id, ok := a.cast.Find(name)
	if !ok {
		return false
	}
	u := &a.utts[i]
	u.Speaker, u.Uncertain, u.Candidates, u.Rule, u.Tag = id, false, nil, RuleWriter, c
	return true
}

// indexComments finds which utterance each speaker comment is about: the
// last that begins before it in its paragraph, or that runs on into its
// paragraph from the paragraphs before (speech over several paragraphs);
// else the first after it, in its paragraph or the next (a comment on a
// line of its own before the speech).
func (a *attributor) indexComments() {
	a.said = map[int]codex.Range{}
	for _, c := range manuscript.HTMLComments(a.text, codex.Range{Start: 0, End: len(a.text)}) {
		if _, ok := speakerComment(a.text[c.Start:c.End]); !ok {
			continue
		}
		cp := a.paraOf(c.Start)
		// A comment on the line right below a paragraph is that
		// paragraph's.
		if cp > 0 && strings.Count(a.text[a.paras[cp-1].end:c.Start], "\n") <= 1 && onlyBlank(a.text, a.paras[cp-1].end, c.Start) {
			cp--
		}
		k := sort.Search(len(a.utts), func(k int) bool { return a.utts[k].Marks[0].Start >= c.Start })
		switch {
		case k > 0 && (a.para[k-1] == cp || a.paraOf(a.utts[k-1].Marks[len(a.utts[k-1].Marks)-1].Start) == cp):
			a.said[k-1] = c
		case k < len(a.utts) && (a.para[k] == cp || a.para[k] == cp+1 && a.paras[cp].start > c.Start):
			a.said[k] = c
		}
	}
}

// speakerComment reads "<!-- speaker: Name -->".
func speakerComment(c string) (string, bool) {
	c = strings.TrimSuffix(strings.TrimPrefix(c, "<!--"), "-->")
	key, val, ok := strings.Cut(strings.TrimSpace(c), ":")
	if !ok || !strings.EqualFold(strings.TrimSpace(key), "speaker") {
		return "", false
	}
	val = strings.TrimSpace(val)
	return val, val != ""
}
