package dialoguebench

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript/dialogue"
	"github.com/quire-ink/quire/manuscript/namebench"
)

// Run is one analyzer's reading of one edition, scored.
type Run struct {
	Edition  *Edition
	Analyzer string
	Found    []dialogue.Utterance
	// Matches pair Edition.Gold with Found.
	Matches []Match
	// Score is against the benchmark's gold; Raw, for detection, against
	// the annotation's quotations as they stand.
	Score, Raw Score
}

// Evaluate runs an analyzer on an edition and scores it.
func Evaluate(e *Edition, name string, an Analyzer) Run {
	r := Run{Edition: e, Analyzer: name, Found: e.Analyze(an)}
	r.Matches = Matches(e.Gold, r.Found)
	r.Score.Add(e.Gold, r.Found, r.Matches)
	r.Raw.Add(e.Raw, r.Found, Matches(e.Raw, r.Found))
	return r
}

// Row is one line of a table: a book, or the total, and one analyzer.
type Row struct {
	Book, Analyzer string
	Score, Raw     Score
}

// Table draws rows as a table with a title over it.
func Table(title string, rows []Row) string {
	var b strings.Builder
	if title != "" {
		b.WriteString(title + "\n")
	}
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "book\tanalyzer\tgold\tfound\tP\tR\tF1\tF1 raw\tspeakers\taccuracy\tstrict\texplicit\tanaphoric\timplicit\tcertain right\tcertain share\tnot in codex")
	for _, r := range rows {
		s := r.Score
		ts := func(t Tally) string {
			if t.N == 0 {
				return "-"
			}
			return fmt.Sprintf("%.3f (%d)", t.Accuracy(), t.N)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%.3f\t%.3f\t%.3f\t%.3f\t%d\t%.3f\t%.3f\t%s\t%s\t%s\t%.3f (%d)\t%.3f\t%d\n",
			r.Book, r.Analyzer, s.Gold, s.Found, s.Precision(), s.Recall(), s.F1(), r.Raw.F1(),
			s.Speakers.N, s.Speakers.Accuracy(), s.Speakers.StrictAccuracy(),
			ts(s.Type(Explicit)), ts(s.Type(Anaphoric)), ts(s.Type(Implicit)),
			s.Speakers.CertainPrecision(), s.Speakers.Certain, s.Speakers.CertainShare(), s.NotInCodex)
	}
	tw.Flush()
	return b.String()
}

// ruleOrder is the attribution chain's order (manuscript/dialogue's
// attribute.go), the order RuleTable lists the rules in.
var ruleOrder = []dialogue.Rule{dialogue.RuleWriter, dialogue.RuleExplicit, dialogue.RulePronoun,
	dialogue.RuleNarration, dialogue.RuleVocative, dialogue.RuleTurn, dialogue.RuleNone}

// RuleTable draws s's speakers by the rule that decided them: how many
// (and their share of all), how many the best speaker has right, and how
// many are certain and right. A rule that decided none is left out.
func RuleTable(s Score) string {
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "rule	speakers	share	accuracy	certain	certain right")
	for _, r := range ruleOrder {
		t := s.ByRule[r]
		if t.N == 0 {
			continue
		}
		certain := "-"
		if t.Certain > 0 {
			certain = fmt.Sprintf("%.3f", t.CertainPrecision())
		}
		fmt.Fprintf(tw, "%s\t%d\t%.3f\t%.3f\t%d\t%s\n", r, t.N, namebench.Ratio(t.N, s.Speakers.N), t.Accuracy(), t.Certain, certain)
	}
	tw.Flush()
	return b.String()
}

// ClueTable draws the speakers a pronoun gave by the clue that resolved
// it: how many, their share of all the pronoun's, and how many the best
// speaker has right. A clue that resolved none is left out.
func ClueTable(s Score) string {
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "clue	speakers	share	accuracy")
	all := 0
	for _, t := range s.ByClue {
		all += t.N
	}
	for _, c := range dialogue.Clues() {
		t := s.ByClue[c]
		if t.N == 0 {
			continue
		}
		fmt.Fprintf(tw, "%s\t%d\t%.3f\t%.3f\n", c, t.N, namebench.Ratio(t.N, all), t.Accuracy())
	}
	tw.Flush()
	return b.String()
}

// Legend explains the tables' columns.
const Legend = `gold, found: utterances. P, R, F1: detection, strict: a found utterance
matches a gold one when it holds at least 90% of its words' bytes and at
least 90% of its own lie inside it, one to one, so speech a tag
interrupts must be found as one utterance. F1 raw: the same against the
annotation's quotations as they stand, before the benchmark reads them
as utterances (testdata/README.md). speakers: the matched gold
utterances whose speaker is in the codex; accuracy: the share of them
whose speaker the analyzer has right (its best candidate when it is
uncertain); strict: the same with an uncertain speaker counted wrong;
explicit, anaphoric, implicit: accuracy (and count) by PDNC's quotation
type (a name tags it, a pronoun does, nothing does). certain right: the
precision of the speakers the analyzer does not mark uncertain (and
their count); certain share: their share of the speakers. not in codex:
matched gold utterances whose speaker has no codex entry (LitBank's
people with no proper name in the excerpt), left out of speaker
accuracy.`

// WriteErrors writes a run's errors for whoever tunes the analyzer: the
// gold utterances it missed, the utterances it found that are none, and
// the speakers it has wrong, each with the text around it.
func WriteErrors(w io.Writer, r Run) error {
	e := r.Edition
	text := e.Book.Text
	name := func(id string) string {
		if c, ok := e.Book.character(strings.TrimSuffix(strings.TrimPrefix(id, "characters/"), ".md")); ok {
			return c.Name
		}
		if id == "" {
			return "(none)"
		}
		return id
	}
	goldName := func(g Gold) string {
		if g.Speaker != "" {
			return name(EntryID(g.Speaker))
		}
		return g.Named + " (not in the codex)"
	}
	goldMatched := map[int]int{}
	foundMatched := map[int]bool{}
	for _, m := range r.Matches {
		goldMatched[m.Gold] = m.Found
		foundMatched[m.Found] = true
	}
	covers := make([][]codex.Range, len(r.Found))
	for i, u := range r.Found {
		covers[i] = union(u.Spans)
	}
	goldCovers := make([][]codex.Range, len(e.Gold))
	for i, g := range e.Gold {
		goldCovers[i] = union(g.Spans)
	}
	var b strings.Builder
	s := r.Score
	fmt.Fprintf(&b, "# %s, %s quotes, %s\n\n%d gold utterances, %d found, %d matched (P %.3f R %.3f F1 %.3f); speakers right %d of %d (%.3f)\n",
		e.Book.Title, e.Name, r.Analyzer, s.Gold, s.Found, s.Matched, s.Precision(), s.Recall(), s.F1(), s.Speakers.Right, s.Speakers.N, s.Speakers.Accuracy())
	fmt.Fprintf(&b, "Text between ⟦ and ⟧ is the utterance's words; «…» elides the middle of a long one.\n")

	fmt.Fprintf(&b, "\n## Gold utterances not found (%d)\n", s.Gold-s.Matched)
	for gi, g := range e.Gold {
		if _, ok := goldMatched[gi]; ok {
			continue
		}
		fmt.Fprintf(&b, "\n@%d %s, speaker %s, quotations %s\n", g.Spans[0].Start, typeName(g.Type), goldName(g), strings.Join(g.Quotes, " "))
		b.WriteString(context(text, g.Spans) + "\n")
		overlapping(covers, goldCovers[gi], func(fi, shared int) {
			u, c := r.Found[fi], covers[fi]
			fmt.Fprintf(&b, "  overlapping utterance @%d: holds %.0f%% of it, %.0f%% of it inside (%d spans)%s\n",
				c[0].Start, 100*float64(shared)/float64(g.Cover()), 100*float64(shared)/float64(coverLen(c)), len(u.Spans), matchedNote(foundMatched[fi]))
			b.WriteString(indent(context(text, u.Spans)) + "\n")
		})
	}

	fmt.Fprintf(&b, "\n## Utterances found that are none (%d)\n", s.Found-s.Matched)
	for fi, u := range r.Found {
		if foundMatched[fi] || len(u.Spans) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n@%d speaker %s, rule %s%s%s\n", u.Spans[0].Start, name(u.Best()), u.Rule, clueNote(u), uncertainNote(u))
		b.WriteString(context(text, u.Spans) + "\n")
		c := covers[fi]
		overlapping(goldCovers, c, func(gi, shared int) {
			_, gm := goldMatched[gi]
			fmt.Fprintf(&b, "  overlapping gold @%d: it holds %.0f%% of the gold, %.0f%% of it inside the gold%s\n",
				goldCovers[gi][0].Start, 100*float64(shared)/float64(e.Gold[gi].Cover()), 100*float64(shared)/float64(coverLen(c)), matchedNote(gm))
		})
	}

	fmt.Fprintf(&b, "\n## Speakers wrong (%d)\n", s.Speakers.N-s.Speakers.Right)
	for _, m := range r.Matches {
		g, u := e.Gold[m.Gold], r.Found[m.Found]
		if g.Speaker == "" || u.Best() == EntryID(g.Speaker) {
			continue
		}
		fmt.Fprintf(&b, "\n@%d %s: gold %s; %s %s, rule %s%s%s\n", g.Spans[0].Start, typeName(g.Type), goldName(g), r.Analyzer, name(u.Best()), u.Rule, clueNote(u), uncertainNote(u))
		if len(u.Candidates) > 0 {
			var cands []string
			for _, c := range u.Candidates {
				cands = append(cands, name(c))
			}
			fmt.Fprintf(&b, "  candidates: %s\n", strings.Join(cands, ", "))
		}
		if u.Tag != (codex.Range{}) && u.Tag.End <= len(text) {
			fmt.Fprintf(&b, "  tag: %q\n", text[u.Tag.Start:u.Tag.End])
		}
		b.WriteString(context(text, g.Spans) + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// overlapping calls f, in order, with each of covers that shares bytes
// with c and how many it shares.
func overlapping(covers [][]codex.Range, c []codex.Range, f func(i, shared int)) {
	if len(c) == 0 {
		return
	}
	for i, o := range covers {
		if len(o) == 0 || o[0].Start >= c[len(c)-1].End || o[len(o)-1].End <= c[0].Start {
			continue
		}
		if shared := overlap(c, o); shared > 0 {
			f(i, shared)
		}
	}
}

func typeName(t QuoteType) string {
	if t == "" {
		return "untyped"
	}
	return string(t)
}

func matchedNote(matched bool) string {
	if matched {
		return ", matched to another gold utterance"
	}
	return ""
}

func uncertainNote(u dialogue.Utterance) string {
	if u.Uncertain {
		return " (uncertain)"
	}
	return ""
}

// clueNote names the clue that resolved u's pronoun, if one did.
func clueNote(u dialogue.Utterance) string {
	if u.Clue != "" {
		return " (" + string(u.Clue) + ")"
	}
	return ""
}

// contextBytes is how much text the error dumps show either side.
const contextBytes = 100

// context is the text around spans, each span's words between ⟦ and ⟧,
// a long one's middle elided.
func context(text string, spans []codex.Range) string {
	if len(spans) == 0 {
		return ""
	}
	from := runeStart(text, max(0, spans[0].Start-contextBytes))
	to := runeStart(text, min(len(text), spans[len(spans)-1].End+contextBytes))
	var b strings.Builder
	at := from
	for _, s := range spans {
		if s.Start < at || s.End > len(text) {
			continue
		}
		b.WriteString(text[at:s.Start])
		b.WriteString("⟦")
		b.WriteString(elide(text[s.Start:s.End]))
		b.WriteString("⟧")
		at = s.End
	}
	if at < to {
		b.WriteString(text[at:to])
	}
	return indent(b.String())
}

// elide shortens a long span to its start and end.
func elide(s string) string {
	const keep = 300
	if len(s) <= 2*keep {
		return s
	}
	return s[:runeStart(s, keep)] + "«…»" + s[runeStart(s, len(s)-keep):]
}

func runeStart(s string, i int) int {
	for i > 0 && i < len(s) && !utf8.RuneStart(s[i]) {
		i--
	}
	return i
}

func indent(s string) string {
	return "    " + strings.ReplaceAll(s, "\n", "\n    ")
}
