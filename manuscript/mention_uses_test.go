package manuscript

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// An index made from another counts an entry's uses as walking every
// chapter would, whatever the edits between: a mention added or taken
// out, a chapter added, moved, dropped, or the whole book at once.
func TestUsesCarriedAcrossEdits(t *testing.T) {
	m := NewMatcher(bookCatalog(t))
	ids := []string{"codex/mara.md", "codex/ilse.md", "codex/gull.md", "codex/none.md"}
	one := chapter("manuscript/01.md", 1, "# One\n\nMara and Ilse at Gull Rock. Mara again.\n")
	two := chapter("manuscript/02.md", 2, "# Two\n\nIlse alone.\n")
	three := chapter("manuscript/03.md", 3, "# Three\n\nMara, Mara, Mara.\n")
	ix := BuildMentionIndex(m, []*Unit{one, two, three})

	check := func(step string, ix *MentionIndex) {
		t.Helper()
		for _, id := range ids {
			assert.Equal(t, ix.countUses(id), ix.Uses(id), "%s: %s", step, id)
		}
		// Asked twice, the answer it remembered is the same.
		for _, id := range ids {
			assert.Equal(t, ix.countUses(id), ix.Uses(id), "%s, again: %s", step, id)
		}
	}
	check("built", ix)
	assert.Equal(t, 5, ix.Uses("codex/mara.md"))

	// carried says the counts came from the index before, brought up
	// to date by the changed chapters; else they were counted afresh.
	steps := []struct {
		name    string
		carried bool
		next    func(*MentionIndex) *MentionIndex
	}{
		{"a mention added", true, func(ix *MentionIndex) *MentionIndex {
			return ix.WithUnit(m, chapter("manuscript/02.md", 2, "# Two\n\nIlse alone, then Mara.\n"))
		}},
		{"a mention taken out", true, func(ix *MentionIndex) *MentionIndex {
			return ix.WithUnit(m, chapter("manuscript/01.md", 1, "# One\n\nIlse at Gull Rock. Mara again.\n"))
		}},
		{"a chapter added", true, func(ix *MentionIndex) *MentionIndex {
			return ix.WithUnit(m, chapter("manuscript/04.md", 4, "# Four\n\nGull Rock, and Ilse.\n"))
		}},
		{"a chapter moved", true, func(ix *MentionIndex) *MentionIndex {
			units := []*Unit{}
			for _, um := range ix.order {
				u := *um.unit
				if u.Path == "manuscript/03.md" {
					u.Position = 9
				}
				units = append(units, &u)
			}
			return ix.Sync(m, units)
		}},
		{"a chapter dropped", true, func(ix *MentionIndex) *MentionIndex { return ix.Without("manuscript/03.md") }},
		{"every chapter rewritten", false, func(ix *MentionIndex) *MentionIndex {
			return ix.Sync(m, []*Unit{
				chapter("manuscript/01.md", 1, "# One\n\nMara.\n"),
				chapter("manuscript/02.md", 2, "# Two\n\nMara.\n"),
				chapter("manuscript/04.md", 4, "# Four\n\nIlse.\n"),
			})
		}},
		{"a new codex", false, func(ix *MentionIndex) *MentionIndex {
			units := []*Unit{}
			for _, um := range ix.order {
				units = append(units, um.unit)
			}
			return ix.Sync(NewMatcher(catalogOf(t, "codex/mara.md", "name: Mara Vell\naliases: [Mara]")), units)
		}},
	}
	for _, st := range steps {
		ix = st.next(ix)
		assert.Equal(t, st.carried, ix.uses.carried != nil, st.name)
		check(st.name, ix)
	}
	assert.Equal(t, 2, ix.Uses("codex/mara.md"))
	assert.Equal(t, 0, ix.Uses("codex/ilse.md"), "the new codex has no Ilse")
}
