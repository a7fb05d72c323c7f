package namebench

import (
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/manuscript/continuity"
)

// novelChapters is Pride and Prejudice (121,561 words by wc -w) in its
// chapters, each a Markdown file's text.
func novelChapters(t *testing.T) []string {
	t.Helper()
	f, err := os.Open("testdata/pride-and-prejudice.txt.gz")
	require.NoError(t, err)
	defer f.Close()
	zr, err := gzip.NewReader(f)
	require.NoError(t, err)
	raw, err := io.ReadAll(zr)
	require.NoError(t, err)
	parts := regexp.MustCompile(`(?m)^Chapter (\d+)\n`).Split(string(raw), -1)
	var out []string
	for i, p := range parts[1:] {
		out = append(out, fmt.Sprintf("# Chapter %d\n\n%s", i+1, strings.TrimSpace(p)+"\n"))
	}
	return out
}

// spellingFlags writes chapters and a codex as a book and returns the
// name-spelling warnings of every chapter, by file, and the words the
// book holds.
func spellingFlags(t *testing.T, entries []*codex.Entry, chapters []string) (map[string][]continuity.Diagnostic, int) {
	t.Helper()
	root := t.TempDir()
	words := 0
	for i, text := range chapters {
		p := filepath.Join(root, "manuscript", fmt.Sprintf("%02d.md", i+1))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
		words += len(strings.Fields(text))
	}
	cat := codex.NewCatalog(entries, nil)
	m, err := manuscript.Open(context.Background(), root, manuscript.Options{})
	require.NoError(t, err)
	canon := continuity.NewCanon(cat, continuity.Options{})
	m.SetMatcher(canon.Matcher())
	tl := continuity.NewTimeline(canon, m.Snapshot())
	out := map[string][]continuity.Diagnostic{}
	for _, u := range m.Snapshot().Units() {
		for _, d := range continuity.Check(tl, u) {
			if d.Code == continuity.CodeNameSpelling {
				out[u.Path] = append(out[u.Path], d)
			}
		}
	}
	return out, words
}

// misspell makes a typo of a name word: a letter dropped, two swapped, one
// changed or one added, never the first (a writer's typos keep the
// capital), and never an everyday word or a word of another name.
func misspell(r *rand.Rand, word string, known func(string) bool) (string, bool) {
	rs := []rune(word)
	for range 20 {
		out := slices.Clone(rs)
		i := 1 + r.IntN(len(rs)-1)
		switch r.IntN(4) {
		case 0:
			out = slices.Delete(out, i, i+1)
		case 1:
			if i == len(rs)-1 {
				i--
			}
			if i < 1 {
				continue
			}
			out[i], out[i+1] = out[i+1], out[i]
		case 2:
			out[i] = rune('a' + r.IntN(26))
		case 3:
			out = slices.Insert(out, i, rune('a'+r.IntN(26)))
		}
		w := string(out)
		if w != word && !known(codex.Normalize(w)) {
			return w, true
		}
	}
	return "", false
}

func TestNameSpellingOnARealNovel(t *testing.T) {
	set, err := Load("testdata/litbank.json.gz")
	require.NoError(t, err)
	i := slices.IndexFunc(set.Novels, func(n Novel) bool { return n.Title == "1342_pride_and_prejudice" })
	require.GreaterOrEqual(t, i, 0)
	nov := set.Novels[i]
	chapters := novelChapters(t)
	require.Len(t, chapters, 61)

	// The clean novel.
	clean, words := spellingFlags(t, nov.Codex(nil), chapters)
	var flagged []string
	for path, ds := range clean {
		for _, d := range ds {
			flagged = append(flagged, path+": "+d.Message)
		}
	}
	perTwenty := float64(len(flagged)) / (float64(words) / 20000)
	t.Logf("clean novel: %d warnings in %d words (%.2f per 20,000): %v", len(flagged), words, perTwenty, flagged)
	assert.LessOrEqual(t, perTwenty, 1.0, "at most one warning per 20,000 words of a clean novel")

	// Misspellings planted in the same novel: one in each of up to 100
	// mentions of a name word, chosen at random (seeded), in different
	// paragraphs.
	m := manuscript.NewMatcherOf(nov.Codex(nil))
	known := func(norm string) bool { return manuscript.IsCommonWord(norm) || m.IsNameWord(norm) }
	r := rand.New(rand.NewPCG(1342, 31))
	edited, want := plantMisspellings(chapters, m, r, func(w string) bool {
		return utf8.RuneCountInString(w) >= 4 && !manuscript.IsCommonWord(codex.Normalize(w))
	}, func(w string) (string, bool) { return misspell(r, w, known) })
	got, _ := spellingFlags(t, nov.Codex(nil), edited)
	right, all, wrong, missed := scorePlanted(got, want)
	recall, precision := float64(right)/float64(len(want)), float64(right)/float64(max(all, 1))
	t.Logf("planted: %d misspellings, %d warnings, %d right: recall %.3f, precision %.3f; wrong: %v; missed: %v", len(want), all, right, recall, precision, wrong, missed)
	fmt.Printf("name-spelling on Pride and Prejudice: recall %.3f, precision %.3f (%d planted); clean: %.2f warnings per 20,000 words\n", recall, precision, len(want), perTwenty)
	assert.GreaterOrEqual(t, recall, 0.9)
	assert.GreaterOrEqual(t, precision, 0.9)
}

// Two slips in one name of five to seven letters ("Lidya" for Lydia,
// "Bennte" for Bennet), planted as above in Pride and Prejudice with its
// whole cast in the codex: found only where the book's evidence says
// so, and never at the cost of a warning on clean text.
func TestNameSpellingOnTwoSlipsInARealNovel(t *testing.T) {
	chapters := novelChapters(t)
	cast := prideCastCodex(t)
	m := manuscript.NewMatcherOf(cast)
	known := func(norm string) bool { return manuscript.IsCommonWord(norm) || m.IsNameWord(norm) }
	r := rand.New(rand.NewPCG(1342, 41))
	edited, want := plantMisspellings(chapters, m, r, func(w string) bool {
		n := utf8.RuneCountInString(w)
		return n >= 5 && n <= 7
	}, func(w string) (string, bool) {
		for range 20 {
			once, ok := misspell(r, w, func(string) bool { return false })
			if !ok {
				continue
			}
			twice, ok := misspell(r, once, known)
			if ok && codex.EditDistance(codex.Normalize(twice), codex.Normalize(w), 2) == 2 {
				return twice, true
			}
		}
		return "", false
	})
	got, _ := spellingFlags(t, cast, edited)
	right, all, wrong, missed := scorePlanted(got, want)
	recall, precision := float64(right)/float64(len(want)), float64(right)/float64(max(all, 1))
	t.Logf("planted two-edit: %d misspellings, %d warnings, %d right: recall %.3f, precision %.3f; wrong: %v; missed: %v", len(want), all, right, recall, precision, wrong, missed)
	fmt.Printf("name-spelling, two slips in a name of 5-7 letters, on Pride and Prejudice with its cast: recall %.3f, precision %.3f (%d planted)\n", recall, precision, len(want))
	assert.GreaterOrEqual(t, recall, 0.9)
	assert.GreaterOrEqual(t, precision, 0.9)
}

// plantMisspellings plants a typo (made by typo) in each of up to 100
// mentions of a name word that eligible accepts, chosen at random (r),
// in different places, each typo once: a slip of the fingers does not
// come back letter for letter, and a spelling the book repeats is a
// name to it. It returns the chapters so edited and each typo by where
// it is, as path@start.
func plantMisspellings(chapters []string, m *manuscript.Matcher, r *rand.Rand, eligible func(string) bool, typo func(string) (string, bool)) ([]string, map[string]string) {
	var candidates []typoPlant
	for ci, text := range chapters {
		for _, mn := range m.Scan(text) {
			w := text[mn.Range.Start:mn.Range.End]
			first, _ := utf8.DecodeRuneInString(w)
			if strings.ContainsAny(w, " .") || !unicode.IsUpper(first) || !eligible(w) {
				continue
			}
			candidates = append(candidates, typoPlant{chapter: ci, at: mn.Range})
		}
	}
	r.Shuffle(len(candidates), func(a, b int) { candidates[a], candidates[b] = candidates[b], candidates[a] })
	var plants []typoPlant
	used := map[string]bool{}
	for _, c := range candidates {
		if len(plants) == 100 {
			break
		}
		t, ok := typo(chapters[c.chapter][c.at.Start:c.at.End])
		if ok && !used[t] {
			used[t] = true
			c.typo = t
			plants = append(plants, c)
		}
	}
	edited, at := writePlants(chapters, plants)
	want := map[string]string{}
	for key, p := range at {
		want[key] = p.typo
	}
	return edited, want
}

// typoPlant is a typo to write over the name word at in a chapter.
type typoPlant struct {
	chapter    int
	at         codex.Range
	typo, word string
}

// writePlants writes each plant's typo over its place, and returns the
// chapters so edited and each plant by where its typo now stands, as
// path@start.
func writePlants(chapters []string, plants []typoPlant) ([]string, map[string]typoPlant) {
	edited := slices.Clone(chapters)
	byChapter := map[int][]typoPlant{}
	for _, p := range plants {
		byChapter[p.chapter] = append(byChapter[p.chapter], p)
	}
	at := map[string]typoPlant{}
	for ci, ps := range byChapter {
		slices.SortFunc(ps, func(a, b typoPlant) int { return a.at.Start - b.at.Start })
		var b strings.Builder
		prev := 0
		text := chapters[ci]
		for _, p := range ps {
			b.WriteString(text[prev:p.at.Start])
			at[fmt.Sprintf("manuscript/%02d.md@%d", ci+1, b.Len())] = p
			b.WriteString(p.typo)
			prev = p.at.End
		}
		b.WriteString(text[prev:])
		edited[ci] = b.String()
	}
	return edited, at
}

// scorePlanted counts the warnings and those at a planted typo, and
// lists the messages of the others and the typos missed.
func scorePlanted(got map[string][]continuity.Diagnostic, want map[string]string) (right, all int, wrong, missed []string) {
	found := map[string]bool{}
	for path, ds := range got {
		for _, d := range ds {
			all++
			at := fmt.Sprintf("%s@%d", path, d.Range.Start)
			if _, ok := want[at]; ok {
				right++
				found[at] = true
			} else {
				wrong = append(wrong, d.Message)
			}
		}
	}
	for at, typo := range want {
		if !found[at] {
			missed = append(missed, typo)
		}
	}
	slices.Sort(wrong)
	slices.Sort(missed)
	return right, all, wrong, missed
}

// The 100 excerpts, each with its own codex, are clean text too.
func TestNameSpellingOnCleanExcerpts(t *testing.T) {
	set, err := Load("testdata/litbank.json.gz")
	require.NoError(t, err)
	warnings, words := 0, 0
	var seen []string
	for _, n := range set.Novels {
		got, w := spellingFlags(t, n.Codex(nil), []string{"# " + n.Title + "\n\n" + n.Text})
		words += w
		for _, ds := range got {
			for _, d := range ds {
				warnings++
				seen = append(seen, n.Title+": "+d.Message)
			}
		}
	}
	perTwenty := float64(warnings) / (float64(words) / 20000)
	t.Logf("%d warnings in %d words of 100 excerpts (%.2f per 20,000): %v", warnings, words, perTwenty, seen)
	fmt.Printf("name-spelling on 100 clean excerpts: %d warnings in %d words (%.2f per 20,000)\n", warnings, words, perTwenty)
	assert.LessOrEqual(t, perTwenty, 1.0)
}

// The whole novel is clean text with its whole cast in the codex too:
// more names, shared surnames, and names that are everyday words.
func TestNameSpellingOnACleanNovelWithItsCast(t *testing.T) {
	chapters := novelChapters(t)
	got, words := spellingFlags(t, prideCastCodex(t), chapters)
	var flagged []string
	for path, ds := range got {
		for _, d := range ds {
			flagged = append(flagged, path+": "+d.Message)
		}
	}
	slices.Sort(flagged)
	perTwenty := float64(len(flagged)) / (float64(words) / 20000)
	t.Logf("clean novel with its cast: %d warnings in %d words (%.2f per 20,000): %v", len(flagged), words, perTwenty, flagged)
	fmt.Printf("name-spelling on Pride and Prejudice with its cast: %d warnings in %d words (%.2f per 20,000)\n", len(flagged), words, perTwenty)
	assert.LessOrEqual(t, perTwenty, 1.0, "at most one warning per 20,000 words of a clean novel")
}
