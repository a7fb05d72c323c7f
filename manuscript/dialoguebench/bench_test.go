package dialoguebench

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"text/tabwriter"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The figures quire is held to, as regression guards: a change that
// makes the analyzer worse than these fails the benchmark. Each is a
// little under what the analyzer measured when it was last tuned (on
// the development set only; docs/dialogue.md has the figures); the
// issue's targets, not all met, are strict detection F1 0.95; speaker
// accuracy 0.97 explicit, 0.85 anaphoric, 0.70 implicit, 0.85 overall;
// certain speakers right 0.95.
const (
	floorLitBankF1       = 0.86  // measured 0.869
	floorLitBankAccuracy = 0.74  // 0.757
	floorLitBankCertain  = 0.97  // 0.981
	floorPDNCF1          = 0.92  // 0.931
	floorPDNCCurlyF1     = 0.92  // 0.931
	floorExplicit        = 0.97  // 0.980
	floorAnaphoric       = 0.75  // 0.764
	floorImplicit        = 0.785 // 0.800
	floorOverall         = 0.845 // 0.859
	floorCertainRight    = 0.98  // 0.992 (LitBank 0.981)
)

// analyzers are what the tables compare.
func analyzers() []struct {
	name string
	an   Analyzer
} {
	return []struct {
		name string
		an   Analyzer
	}{{"quire", Quire}, {"baseline", Baseline}}
}

// benchmark scores the analyzers on books, each split by chapters (nil:
// one chapter), straight and curly; it logs a table per typography and
// returns quire's total scores by edition name.
func benchmark(t *testing.T, source string, books []Book, chapters func(Book) []Chapter, perBook bool) map[string]Score {
	t.Helper()
	errDir := os.Getenv("QUIRE_DIALOGUE_ERRORS")
	if errDir != "" {
		require.NoError(t, os.MkdirAll(errDir, 0o755))
	}
	rows := map[string][]Row{}
	totals := map[string]map[string]*Row{}
	var stats GoldStats
	var straddling []string
	var reading strings.Builder
	rw := tabwriter.NewWriter(&reading, 0, 0, 2, ' ', 0)
	fmt.Fprintln(rw, "book\tchapters\tquotations\tgold\tcut\tnested\ttags\tparagraphs\tfilled\tto marks\tnot in codex")
	chapterCount, notInCodex := 0, 0
	for _, b := range books {
		var chs []Chapter
		if chapters != nil {
			chs = chapters(b)
		}
		eds := NewEditions(b, chs, true)
		st := eds[0].Stats
		stats.Add(st)
		notIn := 0
		for _, g := range eds[0].Gold {
			if g.Speaker == "" {
				notIn++
			}
		}
		chapterCount += len(eds[0].Chapters)
		notInCodex += notIn
		if perBook {
			fmt.Fprintf(rw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\n", b.Title, len(eds[0].Chapters), st.Quotes, st.Utterances, st.Split, st.Nested, st.Tags, st.Paragraphs, st.Filled, st.Extended, notIn)
		}
		for _, g := range eds[0].Straddling {
			straddling = append(straddling, fmt.Sprintf("%s @%d (%s)", b.Title, g.Spans[0].Start, strings.Join(g.Quotes, " ")))
		}
		for _, ed := range eds {
			if totals[ed.Name] == nil {
				totals[ed.Name] = map[string]*Row{}
			}
			for _, a := range analyzers() {
				r := Evaluate(ed, a.name, a.an)
				if perBook {
					rows[ed.Name] = append(rows[ed.Name], Row{Book: b.Title, Analyzer: a.name, Score: r.Score, Raw: r.Raw})
				}
				tot := totals[ed.Name][a.name]
				if tot == nil {
					tot = &Row{Book: "total", Analyzer: a.name}
					totals[ed.Name][a.name] = tot
				}
				tot.Score.Merge(r.Score)
				tot.Raw.Merge(r.Raw)
				if errDir != "" && a.name == "quire" {
					path := filepath.Join(errDir, fmt.Sprintf("%s-%s.%s.txt", strings.ToLower(strings.Fields(source)[0]), b.Title, ed.Name))
					f, err := os.Create(path)
					require.NoError(t, err)
					require.NoError(t, WriteErrors(f, r))
					require.NoError(t, f.Close())
				}
			}
		}
	}
	fmt.Fprintf(rw, "total\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\n", chapterCount, stats.Quotes, stats.Utterances, stats.Split, stats.Nested, stats.Tags, stats.Paragraphs, stats.Filled, stats.Extended, notInCodex)
	rw.Flush()
	t.Logf("%s: the annotation read as utterances (testdata/README.md): quotations, gold utterances made of them, "+
		"quotations cut at a paragraph that closes their speech, joins over a nested quotation, over a tag and over paragraphs, "+
		"gaps filled, utterances moved out to their marks, gold utterances whose speaker is not in the codex\n%s", source, reading.String())
	if len(straddling) > 0 {
		t.Logf("%s: %d gold utterances cross a chapter boundary and cannot be found: %s", source, len(straddling), strings.Join(straddling, "; "))
	}
	out := map[string]Score{}
	for _, name := range []string{"straight", "curly"} {
		var table []Row
		table = append(table, rows[name]...)
		for _, a := range analyzers() {
			table = append(table, *totals[name][a.name])
		}
		label := map[string]string{"straight": "quotation marks as the source prints them", "curly": "the curly copy (straight marks made typographic)"}[name]
		t.Logf("%s, %s\n%s", source, label, Table("", table))
		out[name] = totals[name]["quire"].Score
	}
	t.Logf("%s, quotation marks as the source prints them: quire's speakers by the rule that decided them\n%s", source, RuleTable(out["straight"]))
	t.Logf("%s, quotation marks as the source prints them: the speakers a pronoun gave, by the clue that resolved it\n%s", source, ClueTable(out["straight"]))
	t.Log(Legend)
	if errDir != "" {
		t.Logf("quire's errors are in %s", errDir)
	}
	return out
}

func TestDialogueOnLitBank(t *testing.T) {
	books, err := LoadLitBank("testdata/litbank-quotes.json.gz")
	require.NoError(t, err)
	require.Len(t, books, 100)
	quotes := 0
	for _, b := range books {
		quotes += len(b.Quotes)
	}
	require.Equal(t, 1765, quotes)
	t.Logf("LitBank: %d excerpts, %d quotations; each excerpt is read as one chapter", len(books), quotes)
	scores := benchmark(t, "LitBank", books, nil, false)
	q := scores["straight"]
	assert.GreaterOrEqual(t, q.F1(), floorLitBankF1, "strict detection F1 on LitBank")
	assert.GreaterOrEqual(t, q.Speakers.Accuracy(), floorLitBankAccuracy, "speaker accuracy on LitBank")
	assert.GreaterOrEqual(t, q.Speakers.CertainPrecision(), floorLitBankCertain, "certain speakers right on LitBank")
}

func TestDialogueOnPDNC(t *testing.T) {
	dir := pdncDir(t)
	books := loadPDNC(t, dir, DevNovels())
	scores := benchmark(t, "PDNC development set", books, chaptersOf, true)
	q, c := scores["straight"], scores["curly"]
	assert.GreaterOrEqual(t, q.F1(), floorPDNCF1, "strict detection F1, straight quotes")
	assert.GreaterOrEqual(t, c.F1(), floorPDNCCurlyF1, "strict detection F1, curly quotes")
	assert.GreaterOrEqual(t, q.Type(Explicit).Accuracy(), floorExplicit, "speaker accuracy, explicit quotations")
	assert.GreaterOrEqual(t, q.Type(Anaphoric).Accuracy(), floorAnaphoric, "speaker accuracy, anaphoric quotations")
	assert.GreaterOrEqual(t, q.Type(Implicit).Accuracy(), floorImplicit, "speaker accuracy, implicit quotations")
	assert.GreaterOrEqual(t, q.Speakers.Accuracy(), floorOverall, "speaker accuracy overall")
	assert.GreaterOrEqual(t, q.Speakers.CertainPrecision(), floorCertainRight, "certain speakers right")
}

// TestDialogueOnPDNCHeldOut scores the novels kept out of development,
// only when QUIRE_PDNC_HELDOUT=1: look at it to measure, never to tune.
func TestDialogueOnPDNCHeldOut(t *testing.T) {
	if os.Getenv("QUIRE_PDNC_HELDOUT") != "1" {
		t.Skip("the held-out PDNC novels are scored only with QUIRE_PDNC_HELDOUT=1 (and QUIRE_PDNC): they measure, they are not for tuning")
	}
	dir := pdncDir(t)
	novels, err := HeldOutNovels(dir)
	require.NoError(t, err)
	benchmark(t, "HELD-OUT PDNC novels (a measure, not for tuning)", loadPDNC(t, dir, novels), chaptersOf, true)
}
