package continuity

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/manuscript"
)

// planted is a slip the test book holds on purpose, or a decoy that
// looks like one. Hard ones are cases the checks knowingly get wrong for
// the sake of precision (a pronoun not followed; "Jory asked nothing");
// they count in the figures but are not asserted.
type planted struct {
	code, path, words string
	hard              bool
}

var bookSlips = []planted{
	{code: CodeUnknownReference, path: "manuscript/02-ledger.md", words: "Teodra Quill"},
	{code: CodeUnknownReference, path: "manuscript/03-shoals.md", words: "the Drowned Quay"},
	{code: CodeTraitContradiction, path: "manuscript/02-ledger.md", words: "dark brown eyes"},
	{code: CodeTraitContradiction, path: "manuscript/05-after.md", words: "rust-red hair"},
	{code: CodeTraitContradiction, path: "manuscript/02-ledger.md", words: "brown eyes", hard: true}, // "Her brown eyes…": a pronoun
	{code: CodeStyleRule, path: "manuscript/02-ledger.md", words: "13th"},
	{code: CodeStyleRule, path: "manuscript/02-ledger.md", words: "Salt Debt"},
	{code: CodeStyleRule, path: "manuscript/02-ledger.md", words: "All of a sudden"},
	{code: CodeStyleRule, path: "manuscript/02-ledger.md", words: "saltdebt"},
	{code: CodeAfterDeath, path: "manuscript/04-vault.md", words: "said Jory"},
	{code: CodeAfterDeath, path: "manuscript/04-vault.md", words: "Jory climbed"},
	{code: CodeTimelineOrder, path: "manuscript/05-after.md", words: "7"},
	{code: CodeTraitContradiction, path: "manuscript/08-storm.md", words: "blue eyes"},
	{code: CodeTraitContradiction, path: "manuscript/08-storm.md", words: "hair was golden"},
	{code: CodeTraitContradiction, path: "manuscript/08-storm.md", words: "Golden hair", hard: true}, // no name in its sentence
	{code: CodeAfterDeath, path: "manuscript/08-storm.md", words: "Jory whispered"},
	{code: CodeStyleRule, path: "manuscript/08-storm.md", words: "salt–debt"},
}

// bookDecoys look like slips and are not: each must draw no diagnostic
// of its check at its words.
var bookDecoys = []planted{
	{code: CodeTraitContradiction, path: "manuscript/01-harbor.md", words: "brown eyes"},      // Marek's, beside green-eyed Séverine
	{code: CodeTraitContradiction, path: "manuscript/01-harbor.md", words: "pale green eyes"}, // Séverine's own
	{code: CodeTraitContradiction, path: "manuscript/01-harbor.md", words: "rust-red hair"},   // Teodora's before the vault
	{code: CodeTraitContradiction, path: "manuscript/02-ledger.md", words: "brown-eyed"},      // Marek's, beside Séverine
	{code: CodeTraitContradiction, path: "manuscript/06-before.md", words: "rust-red hair"},   // a flashback to day 1
	{code: CodeAfterDeath, path: "manuscript/01-harbor.md", words: "said Jory"},               // alive in chapter 1
	{code: CodeAfterDeath, path: "manuscript/01-harbor.md", words: "Jory laughed"},            // alive in chapter 1
	{code: CodeAfterDeath, path: "manuscript/03-shoals.md", words: "Jory drowned"},            // dying is no act
	{code: CodeAfterDeath, path: "manuscript/03-shoals.md", words: "Jory said"},               // in code
	{code: CodeAfterDeath, path: "manuscript/04-vault.md", words: "Jory's laugh"},             // remembered
	{code: CodeAfterDeath, path: "manuscript/04-vault.md", words: "Jory was"},                 // described
	{code: CodeAfterDeath, path: "manuscript/05-after.md", words: "Jory smiled"},              // remembered, not a subject
	{code: CodeAfterDeath, path: "manuscript/06-before.md", words: "Jory said"},               // flashback
	{code: CodeAfterDeath, path: "manuscript/07-dream.md", words: "said Jory"},                // flashback without a day
	{code: CodeAfterDeath, path: "manuscript/05-after.md", words: "Jory asked", hard: true},   // "asked nothing now"
	{code: CodeUnknownReference, path: "manuscript/02-ledger.md", words: "the Vault"},         // an alias
	{code: CodeUnknownReference, path: "manuscript/05-after.md", words: "the Warden"},         // an alias from chapter 4 on
	{code: CodeTimelineOrder, path: "manuscript/06-before.md", words: "1"},                    // a flashback
	{code: CodeStyleRule, path: "manuscript/01-harbor.md", words: "salt-debt"},                // the term itself
	{code: CodeTraitContradiction, path: "manuscript/08-storm.md", words: "black hair"},       // Séverine's own
	{code: CodeTraitContradiction, path: "manuscript/08-storm.md", words: "grey eyes"},        // the gull's
	{code: CodeAfterDeath, path: "manuscript/08-storm.md", words: "Jory home"},                // carried
	{code: CodeAfterDeath, path: "manuscript/08-storm.md", words: "Jory's lamp"},              // his lamp burns
	{code: CodeAfterDeath, path: "manuscript/08-storm.md", words: "Jory."},                    // missed
	{code: CodeAfterDeath, path: "manuscript/08-storm.md", words: "Jory, they said"},          // spoken of
	{code: CodeTimelineOrder, path: "manuscript/08-storm.md", words: "12"},                    // after day 7
	{code: CodeStyleRule, path: "manuscript/08-storm.md", words: "13"},                        // not 13th
}

// TestBookPrecisionRecall runs every check over the test book and
// reports, per check, precision (diagnostics that are planted slips) and
// recall (planted slips found).
func TestBookPrecisionRecall(t *testing.T) {
	tl, snap := openBook(t, "testdata/book", Options{})
	type hit struct{ code, path, words string }
	var got []hit
	for _, u := range snap.Units() {
		for _, d := range Check(tl, u) {
			got = append(got, hit{d.Code, d.Path, u.Text[d.Range.Start:d.Range.End]})
			t.Logf("%s: %s: %s [%s]", d.Path, d.Severity, d.Message, d.Code)
		}
	}
	found := func(p planted) bool {
		for _, h := range got {
			if h.code == p.code && h.path == p.path && h.words == p.words {
				return true
			}
		}
		return false
	}
	for _, s := range bookSlips {
		if !s.hard {
			assert.True(t, found(planted(s)), "planted slip not found: %s %q in %s", s.code, s.words, s.path)
		}
	}
	for _, d := range bookDecoys {
		if !d.hard {
			assert.False(t, found(planted(d)), "decoy flagged: %s %q in %s", d.code, d.words, d.path)
		}
	}
	// Nothing else is flagged: every diagnostic is a planted slip or a
	// hard decoy the checks knowingly take for one.
	for _, h := range got {
		known := false
		for _, p := range append(slices.Clone(bookSlips), bookDecoys...) {
			known = known || (p.code == h.code && p.path == h.path && p.words == h.words && (!slices.Contains(bookDecoys, p) || p.hard))
		}
		assert.True(t, known, "unplanted diagnostic: %s %q in %s", h.code, h.words, h.path)
	}
	for _, code := range Checks {
		tp, fp, fn := 0, 0, 0
		for _, h := range got {
			if h.code != code {
				continue
			}
			if found := func() bool {
				for _, s := range bookSlips {
					if s.code == h.code && s.path == h.path && s.words == h.words {
						return true
					}
				}
				return false
			}(); found {
				tp++
			} else {
				fp++
			}
		}
		for _, s := range bookSlips {
			if s.code == code && !found(s) {
				fn++
			}
		}
		t.Logf("%-20s precision %s  recall %s  (%d found, %d false, %d missed)", code, ratio(tp, tp+fp), ratio(tp, tp+fn), tp, fp, fn)
	}
	var unread int
	for _, u := range snap.Units() {
		unread += len(u.Meta.Problems)
	}
	require.Equal(t, 1, unread, "07-dream.md has day: soon")
}

func ratio(a, b int) string {
	if b == 0 {
		return "  -  "
	}
	return fmt.Sprintf("%.2f", float64(a)/float64(b))
}

// TestChecksReuseTheMentionScan holds the checks to the same findings
// whether they reuse the manuscript's scan of a chapter (as in the
// server, where each edit is scanned once) or scan the chapter
// themselves (a text the index has not seen).
func TestChecksReuseTheMentionScan(t *testing.T) {
	tl, snap := openBook(t, "testdata/book", Options{})
	require.Same(t, tl.Canon().Matcher(), snap.Mentions().Matcher(), "the book's chapters are scanned with the canon's names")
	total := 0
	for _, u := range snap.Units() {
		_, scanned := snap.Mentions().MentionsOf(u)
		require.True(t, scanned, u.Path)
		fresh := manuscript.NewUnit(u.Path, u.Text, u.Version+1)
		fresh.Position = u.Position
		_, scanned = snap.Mentions().MentionsOf(fresh)
		require.False(t, scanned, "a new text of %s is not the one the index scanned", u.Path)
		reused, rescanned := Check(tl, u), Check(tl, fresh)
		assert.Equal(t, rescanned, reused, u.Path)
		total += len(reused)
	}
	require.Positive(t, total, "the test book has slips to find")
}
