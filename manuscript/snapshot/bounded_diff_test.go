package snapshot

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// novel is a text of paragraphs paragraphs of about 80 words, drawn
// (seeded) from a vocabulary of a few thousand words, the common ones
// far more often: about the make of a chapter's prose.
func novel(seed uint64, paragraphs int) []string {
	r := rand.New(rand.NewPCG(seed, 7))
	vocab := make([]string, 4000)
	for i := range vocab {
		vocab[i] = fmt.Sprintf("w%x", i*2654435761%1000003)
	}
	out := make([]string, paragraphs)
	for p := range out {
		var sb strings.Builder
		n := 60 + r.IntN(40)
		for w := range n {
			if w > 0 {
				sb.WriteString(" ")
			}
			// Squaring a uniform draw favours the first words.
			f := r.Float64()
			sb.WriteString(vocab[int(f*f*float64(len(vocab)))])
			if w%12 == 11 {
				sb.WriteString(",")
			}
		}
		sb.WriteString(".\n\n")
		out[p] = sb.String()
	}
	return out
}

// sides are the two texts a diff's ops make: the old (= and -) and the
// new (= and +).
func sides(ops []Op) (old, new string) {
	var o, n strings.Builder
	for _, op := range ops {
		switch op.Kind {
		case "=":
			o.WriteString(op.Text)
			n.WriteString(op.Text)
		case "-":
			o.WriteString(op.Text)
		case "+":
			n.WriteString(op.Text)
		}
	}
	return o.String(), n.String()
}

// A chapter whose paragraphs were all moved about (a novel kept in one
// file and reordered) is compared in work linear in its length: Emma so
// shuffled took seven minutes each time it was kept, since the shortest
// diff costs the square of what differs. The diff is still a true one.
func TestWordDiffOfAShuffledNovelIsBounded(t *testing.T) {
	paras := novel(1, 2000) // some 160,000 words
	old := strings.Join(paras, "")
	r := rand.New(rand.NewPCG(3, 4))
	r.Shuffle(len(paras), func(i, j int) { paras[i], paras[j] = paras[j], paras[i] })
	now := strings.Join(paras, "")

	toks := tokenizer{ids: map[string]rune{}}
	a, b := toks.runes(old), toks.runes(now)
	d := differ{work: diffWork(len(a) + len(b))}
	d.diff(a, b)
	spent := diffWork(len(a)+len(b)) - d.work
	assert.LessOrEqual(t, spent, diffWork(len(a)+len(b)), "work beyond the bound")

	ops := WordDiff(old, now)
	gotOld, gotNow := sides(ops)
	require.Equal(t, old, gotOld)
	require.Equal(t, now, gotNow)
	added, removed := Counts(ops)
	assert.Equal(t, added, removed, "a shuffle adds the words it removes")
	assert.Positive(t, added)

	hs := Hunks(now, old)
	require.NotEmpty(t, hs)
	for _, h := range hs {
		require.LessOrEqual(t, h.End, len(now))
	}
}

// A long chapter with one paragraph moved shows that paragraph removed
// and added, no more: the spans between the anchors are compared
// exactly, as the shortest diff would.
func TestWordDiffOfAMovedParagraph(t *testing.T) {
	paras := novel(2, 300)
	old := strings.Join(paras, "")
	moved := paras[10]
	paras = append(append(paras[:10:10], paras[11:]...), moved)
	now := strings.Join(paras, "")
	require.Greater(t, len(old), 4*shortestDiffTokens, "long enough for the anchors")

	ops := WordDiff(old, now)
	gotOld, gotNow := sides(ops)
	require.Equal(t, old, gotOld)
	require.Equal(t, now, gotNow)
	added, removed := Counts(ops)
	assert.Equal(t, words(moved), added)
	assert.Equal(t, words(moved), removed)
}

// Short texts get the shortest diff, whatever differs in them.
func TestBoundedDiffOfShortTextsIsTheShortest(t *testing.T) {
	tests := []struct {
		name, old, now string
		ops            []Op
	}{
		{name: "a word changed", old: "The bell rang.", now: "The bell tolled.", ops: []Op{{"=", "The bell "}, {"-", "rang"}, {"+", "tolled"}, {"=", "."}}},
		{name: "all new", old: "Rain.", now: "Snow fell.", ops: []Op{{"-", "Rain"}, {"+", "Snow fell"}, {"=", "."}}},
		{name: "from nothing", old: "", now: "A start.", ops: []Op{{"+", "A start."}}},
		{name: "to nothing", old: "An end.", now: "", ops: []Op{{"-", "An end."}}},
		{name: "the same", old: "Still.", now: "Still.", ops: []Op{{"=", "Still."}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.ops, WordDiff(tt.old, tt.now))
		})
	}
}

func TestLongestIncreasing(t *testing.T) {
	ps := []anchor{{0, 5}, {1, 1}, {2, 2}, {3, 9}, {4, 3}, {5, 4}, {6, 0}}
	assert.Equal(t, []anchor{{1, 1}, {2, 2}, {4, 3}, {5, 4}}, longestIncreasing(ps))
	assert.Nil(t, longestIncreasing(nil))
}

// FuzzWordDiff: any two texts diff into ops that give back both, and
// their hunks lie inside the text now.
func FuzzWordDiff(f *testing.F) {
	f.Add("The harbor bell rang.", "The harbour bell rang twice.")
	f.Add("One.\n\nTwo.\n\nThree.\n", "Three.\n\nOne.\n\nTwo.\n")
	f.Add("", "x")
	f.Fuzz(func(t *testing.T, old, now string) {
		gotOld, gotNow := sides(WordDiff(old, now))
		if gotOld != old || gotNow != now {
			t.Fatalf("the diff of %q and %q gives back %q and %q", old, now, gotOld, gotNow)
		}
		for _, h := range Hunks(now, old) {
			if h.Start < 0 || h.Start > h.End || h.End > len(now) {
				t.Fatalf("hunk %+v outside %d bytes", h, len(now))
			}
		}
	})
}
