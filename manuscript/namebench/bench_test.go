package namebench

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/manuscript"
)

// quireFinds is what quire's matcher finds in a novel with its codex:
// the mentions it attributes, an ambiguous one with every candidate.
func quireFinds(n Novel, keep func(Entity) bool) []Found {
	m := manuscript.NewMatcherOf(n.Codex(keep))
	var out []Found
	for _, mention := range m.Scan(n.Text) {
		out = append(out, Found{Start: mention.Range.Start, End: mention.Range.End, Entities: append([]string{mention.Entry}, mention.Others...)})
	}
	return out
}

func grepFinds(n Novel, keep func(Entity) bool) []Found {
	forms := map[string][]string{}
	for _, e := range n.Entities {
		if keep != nil && !keep(e) {
			continue
		}
		for _, f := range e.Forms {
			if !slices.Contains(forms[f], e.ID) {
				forms[f] = append(forms[f], e.ID)
			}
		}
	}
	return Grep(n.Text, forms)
}

func TestMentionsOnRealNovels(t *testing.T) {
	set, err := Load("testdata/litbank.json.gz")
	require.NoError(t, err)
	require.Len(t, set.Novels, 100)
	people := func(e Entity) bool { return e.Type == "PER" }
	// The target holds for every entity and for people, whom a
	// writer's codex is mostly about, counting the names LitBank cannot
	// mark inside a longer mention of their own entity ("the village of
	// Raveloe"); on LitBank's marks alone quire is held to grep's.
	for _, tc := range []struct {
		name   string
		keep   func(Entity) bool
		marked bool
		target float64
	}{
		{"every entity", nil, false, 0.985},
		{"people", people, false, 0.985},
		{"every entity, as LitBank marks names", nil, true, 0},
		{"people, as LitBank marks names", people, true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var q, g Score
			for _, n := range set.Novels {
				if tc.marked {
					n = n.AsMarked()
				}
				q.Add(n, quireFinds(n, tc.keep), tc.keep)
				g.Add(n, grepFinds(n, tc.keep), tc.keep)
			}
			t.Logf("%s: quire P %.3f R %.3f F1 %.3f (%d/%d/%d); grep P %.3f R %.3f F1 %.3f", tc.name,
				q.Precision(), q.Recall(), q.F1(), q.Right, q.Found, q.Annotated, g.Precision(), g.Recall(), g.F1())
			fmt.Printf("mentions (%s): quire F1 %.3f, grep F1 %.3f\n", tc.name, q.F1(), g.F1())
			assert.GreaterOrEqual(t, q.F1(), g.F1(), "quire finds names at least as well as grep")
			assert.GreaterOrEqual(t, q.F1(), tc.target, "the issue's target")
		})
	}
}
