package dialoguebench

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/manuscript/dialogue"
)

// oracle is the analyzer that knows the answers: each chapter's gold
// utterances, in the chapter's offsets, with their speakers. The
// benchmark must give it full marks, on the curly copy too: a check of
// its chapters, offsets, curly map and matching all at once.
func oracle(e *Edition) Analyzer {
	next := 0
	return func(ch dialogue.Chapter, cast *dialogue.Cast) []dialogue.Utterance {
		c := e.Chapters[next]
		next++
		var out []dialogue.Utterance
		for _, g := range e.Gold {
			if g.Spans[0].Start < c.Start || g.Spans[len(g.Spans)-1].End > c.End {
				continue
			}
			u := dialogue.Utterance{Spans: shifted(g.Spans, -c.Start), Marks: shifted(g.Spans, -c.Start)}
			if g.Speaker != "" {
				u.Speaker = EntryID(g.Speaker)
				if _, ok := cast.Character(u.Speaker); !ok {
					panic("the codex has no entry " + u.Speaker)
				}
			}
			out = append(out, u)
		}
		return out
	}
}

func checkOracle(t *testing.T, books []Book, chapters func(Book) []Chapter) {
	t.Helper()
	for _, b := range books {
		var chs []Chapter
		if chapters != nil {
			chs = chapters(b)
		}
		for _, ed := range NewEditions(b, chs, true) {
			r := Evaluate(ed, "oracle", oracle(ed))
			s := r.Score
			assert.Equal(t, len(ed.Gold)-len(ed.Straddling), s.Matched, "%s, %s", b.Title, ed.Name)
			assert.Equal(t, s.Found, s.Matched, "%s, %s", b.Title, ed.Name)
			assert.Equal(t, s.Speakers.N, s.Speakers.CertainRight, "%s, %s", b.Title, ed.Name)
		}
	}
}

func TestOracleOnLitBank(t *testing.T) {
	books, err := LoadLitBank("testdata/litbank-quotes.json.gz")
	require.NoError(t, err)
	checkOracle(t, books, nil)
}

func TestOracleOnPDNC(t *testing.T) {
	dir := pdncDir(t)
	checkOracle(t, loadPDNC(t, dir, DevNovels()), chaptersOf)
}
