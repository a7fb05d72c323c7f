package dialoguebench

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/manuscript/dialogue"
)

// afterEdits edits every chapter of books a few times over, one edit
// after another, and requires the analysis that takes from the version
// before what an edit did not reach (dialogue.AnalyzeAfter) to be the
// fresh one: on real novels, in every style of dialogue the benchmark
// holds. It returns how many conversations were taken and how many
// there were.
func afterEdits(t *testing.T, books []Book, chapters func(Book) []Chapter, edits int) (reused, total int) {
	t.Helper()
	r := rand.New(rand.NewPCG(5, 6))
	inserts := []string{"x", " Well, ", "\"", "\n\n", " said she", ", said he, \"", "--", "'"}
	for _, b := range books {
		entries := b.Codex()
		m := manuscript.NewMatcherOf(entries)
		cast := dialogue.NewCast(entries)
		chapter := func(text string) dialogue.Chapter {
			return dialogue.Chapter{Text: text, Body: codex.Range{End: len(text)}, Mentions: m.ScanAll(text)}
		}
		chs := []Chapter{{Start: 0, End: len(b.Text)}}
		if chapters != nil {
			chs = chapters(b)
		}
		for _, c := range chs {
			text := b.Text[c.Start:c.End]
			if text == "" {
				continue
			}
			prev := dialogue.AnalyzeAfter(nil, chapter(text), cast, dialogue.Options{})
			for n := range edits {
				at := r.IntN(len(text))
				if r.IntN(3) == 0 {
					text = text[:at] + text[min(len(text), at+1+r.IntN(120)):]
				} else {
					text = text[:at] + inserts[r.IntN(len(inserts))] + text[at:]
				}
				if text == "" {
					break
				}
				got := dialogue.AnalyzeAfter(prev, chapter(text), cast, dialogue.Options{})
				require.Equal(t, dialogue.Analyze(chapter(text), cast, dialogue.Options{}), got.Utterances(),
					"%s, the chapter at %d, edit %d", b.Title, c.Start, n)
				rr, cc := got.Reused()
				reused, total = reused+rr, total+cc
				prev = got
			}
		}
	}
	return reused, total
}

func TestAnalyzeAfterEditsOnLitBank(t *testing.T) {
	books, err := LoadLitBank("testdata/litbank-quotes.json.gz")
	require.NoError(t, err)
	reused, total := afterEdits(t, books, nil, 10)
	t.Logf("LitBank, 10 edits of each of %d excerpts: %d of %d conversations taken from the version before", len(books), reused, total)
	require.Positive(t, reused)
}

func TestAnalyzeAfterEditsOnPDNC(t *testing.T) {
	dir := pdncDir(t)
	books := loadPDNC(t, dir, DevNovels())
	reused, total := afterEdits(t, books, chaptersOf, 5)
	t.Logf("PDNC development set, 5 edits of each chapter: %d of %d conversations taken from the version before", reused, total)
	require.Positive(t, reused)
}
