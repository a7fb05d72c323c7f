package namebench

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
)

// rareUses is where a name word counts as rare: the book uses it fewer
// times. The check asks that the book name an entry at least five times
// as often as it writes a near word, so a name used fewer than five
// times cannot be found by design; rare names are reported apart.
const rareUses = 10

// The planted misspellings of TestNameSpellingOnARealNovel fall in the
// name words of its excerpt's codex: about 8 words, each used 5 to 635
// times. Here they are planted against a codex of the whole novel (its
// 48 people and places, prideCast), spread over every name word of four
// letters or more the novel uses (round-robin: one typo in each word
// before a second in any), rare names included, and the figures are
// given for rare and frequent names apart, with how many distinct names
// the typos fell in.
func TestNameSpellingOnTheWholeCast(t *testing.T) {
	chapters := novelChapters(t)
	cast := prideCastCodex(t)
	m := manuscript.NewMatcherOf(cast)
	known := func(norm string) bool { return manuscript.IsCommonWord(norm) || m.IsNameWord(norm) }

	// Every name word in every mention, with where it stands.
	type place struct {
		chapter int
		at      codex.Range
	}
	byWord := map[string][]place{}
	for ci, text := range chapters {
		for _, mn := range m.Scan(text) {
			for _, w := range nameWords(text, mn.Range) {
				word := text[w.Start:w.End]
				if utf8.RuneCountInString(word) < 4 {
					continue
				}
				norm := codex.Normalize(word)
				byWord[norm] = append(byWord[norm], place{ci, w})
			}
		}
	}
	words := make([]string, 0, len(byWord))
	for w := range byWord {
		words = append(words, w)
	}
	slices.Sort(words)
	r := rand.New(rand.NewPCG(1342, 17))
	for _, w := range words {
		r.Shuffle(len(byWord[w]), func(a, b int) { byWord[w][a], byWord[w][b] = byWord[w][b], byWord[w][a] })
	}
	r.Shuffle(len(words), func(a, b int) { words[a], words[b] = words[b], words[a] })

	// Round-robin over the words, one typo per word a round, each typo
	// once, at most one per place.
	var plants []typoPlant
	used := map[string]bool{}
	taken := map[place]bool{}
	for round := 0; len(plants) < 150 && round < 20; round++ {
		for _, w := range words {
			if len(plants) == 150 || round >= len(byWord[w]) {
				continue
			}
			p := byWord[w][round]
			if taken[p] {
				continue
			}
			typo, ok := misspell(r, chapters[p.chapter][p.at.Start:p.at.End], known)
			if !ok || used[typo] {
				continue
			}
			used[typo], taken[p] = true, true
			plants = append(plants, typoPlant{chapter: p.chapter, at: p.at, typo: typo, word: w})
		}
	}
	edited, at := writePlants(chapters, plants)
	want, wordAt := map[string]string{}, map[string]string{}
	for key, p := range at {
		want[key], wordAt[key] = p.typo, p.word
	}

	got, _ := spellingFlags(t, cast, edited)
	right, all, wrong, _ := scorePlanted(got, want)
	found := map[string]bool{}
	for path, ds := range got {
		for _, d := range ds {
			found[fmt.Sprintf("%s@%d", path, d.Range.Start)] = true
		}
	}
	type class struct{ planted, found, names int }
	var rare, frequent class
	seen := map[string]bool{}
	var missedRare, missedFrequent []string
	for at, typo := range want {
		w := wordAt[at]
		c, missed := &frequent, &missedFrequent
		if len(byWord[w]) < rareUses {
			c, missed = &rare, &missedRare
		}
		c.planted++
		if !seen[w] {
			seen[w] = true
			c.names++
		}
		if found[at] {
			c.found++
		} else {
			*missed = append(*missed, fmt.Sprintf("%s (%s, used %d times)", typo, w, len(byWord[w])))
		}
	}
	slices.Sort(missedRare)
	slices.Sort(missedFrequent)
	recall := func(c class) float64 { return float64(c.found) / float64(max(c.planted, 1)) }
	precision := float64(right) / float64(max(all, 1))
	t.Logf("whole cast: %d typos in %d distinct names; %d warnings, %d right, precision %.3f; wrong: %v", len(want), len(seen), all, right, precision, wrong)
	t.Logf("frequent names (%d+ uses): %d names, %d typos, recall %.3f; missed: %v", rareUses, frequent.names, frequent.planted, recall(frequent), missedFrequent)
	t.Logf("rare names (under %d uses): %d names, %d typos, recall %.3f; missed: %v", rareUses, rare.names, rare.planted, recall(rare), missedRare)
	fmt.Printf("name-spelling on Pride and Prejudice with its whole cast: %d typos in %d distinct names, precision %.3f; frequent names (%d, %d+ uses): recall %.3f (%d of %d); rare names (%d, under %d uses): recall %.3f (%d of %d)\n",
		len(want), len(seen), precision, frequent.names, rareUses, recall(frequent), frequent.found, frequent.planted, rare.names, rareUses, recall(rare), rare.found, rare.planted)

	require.Greater(t, rare.names, 0, "the typos fall in rare names too")
	require.GreaterOrEqual(t, len(seen), 40, "the typos are spread over the cast's names")
	assert.GreaterOrEqual(t, precision, 0.9)
	assert.GreaterOrEqual(t, recall(frequent), 0.9)
	// Measured 0.469 when this test was written (a name used under five
	// times cannot be found by design): held against falling further,
	// not a target.
	assert.GreaterOrEqual(t, recall(rare), 0.4)
}

// nameWords are the capitalized words of a mention at r in text: the
// words a writer's typo can fall in ("Darcy" of "Mr. Darcy").
func nameWords(text string, r codex.Range) []codex.Range {
	var out []codex.Range
	start := -1
	for i, c := range text[r.Start:r.End] + " " {
		if unicode.IsLetter(c) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			first, _ := utf8.DecodeRuneInString(text[r.Start+start:])
			if unicode.IsUpper(first) && c != '.' {
				out = append(out, codex.Range{Start: r.Start + start, End: r.Start + i})
			}
			start = -1
		}
	}
	return out
}
