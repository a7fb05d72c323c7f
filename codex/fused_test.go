package codex

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/document"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The fused analysis (fused.go) must give exactly the terms, counts and
// lengths bleve's analyzer chain gives. Each check here analyzes the same
// text both ways and compares what the index would receive.

// fusedTestIndex is an index whose analyzers are fused, shared by the
// checks so that its word caches fill and their hits are compared too.
func fusedTestIndex(t testing.TB) *bleveIndex {
	t.Helper()
	ix, err := newMemoryIndex()
	require.NoError(t, err)
	t.Cleanup(func() { _ = ix.close() })
	require.NotNil(t, ix.an.fused[ix.an.prose], "the prose analyzer is fused")
	require.NotNil(t, ix.an.fused[ix.an.name], "the name analyzer is fused")
	require.NotNil(t, ix.an.fused[ix.an.keyword], "the keyword analyzer is fused")
	return ix
}

// fusedMismatch analyzes text with an analyzer both ways and describes
// any difference, or returns "".
func fusedMismatch(an docAnalyzers, analyzer analysis.Analyzer, text string) string {
	ref := document.NewTextFieldCustom("f", []uint64{1}, []byte(text), fieldOptions, analyzer)
	ref.Analyze()
	got := newFusedField("f", []uint64{1}, []byte(text), an.fused[analyzer])
	got.Analyze()
	want := indexedFields(&document.Document{Fields: []document.Field{ref}})
	have := indexedFields(&document.Document{Fields: []document.Field{got}})
	if want[0] != have[0] {
		return "bleve: " + want[0] + "\nfused: " + have[0]
	}
	return ""
}

// checkEntryFused compares every field of e's document, fused and not.
func checkEntryFused(t testing.TB, an docAnalyzers, e *Entry) {
	t.Helper()
	plain := an
	plain.fused = nil
	want := indexedFields(plain.document(e))
	got := indexedFields(an.document(e))
	if !assert.Equal(t, want, got, e.ID) {
		t.FailNow()
	}
}

func TestFusedAnalysisMatchesBleve(t *testing.T) {
	ix := fusedTestIndex(t)
	texts := []string{
		"",
		"   ",
		"The Harbor Witch's coat; Mara’s boat and the Guild＇s seal",
		"MARA'S MARA'S mara's Mara'S",
		"'s s 's x's",
		"Year 238, 3.5 knots, 1,200 hulls; 1,200 again.",
		"Séverine Aubrac, Ølby, naïve NAÏVE ΣΟΦΟΣ σοφος Ⱥnd Ⱦ",
		"tea 茶室 here ひらがな カタカナ",
		"the and of a an is was it its they running runs ran runner",
		"emoji 🔔 bell x\xffy \xc3",
		strings.Repeat("ledger harbor tide ", 50),
	}
	for _, text := range texts {
		for _, a := range []analysis.Analyzer{ix.an.prose, ix.an.name, ix.an.keyword} {
			// Twice: the second time every word comes from the cache.
			for range 2 {
				assert.Empty(t, fusedMismatch(ix.an, a, text), "%q", text)
			}
		}
	}
}

// TestFusedDocumentsOfTheSampleAndTestdata compares whole documents of
// the sample book's codex and the parser's test files.
func TestFusedDocumentsOfTheSampleAndTestdata(t *testing.T) {
	ix := fusedTestIndex(t)
	n := 0
	eachMarkdownFile(t, []string{"../cmd/quire/sample/codex", "testdata/parse"}, func(p string, src []byte) {
		folder := ParseType(filepath.Base(filepath.Dir(p)))
		e, _ := Parse(filepath.ToSlash(p), src, folder)
		if e == nil {
			return
		}
		if strings.HasSuffix(p, "/index.md") {
			if soul, err := os.ReadFile(filepath.Join(filepath.Dir(p), "soul.md")); err == nil {
				e.Soul = ParseSoul("soul.md", soul)
			}
		}
		checkEntryFused(t, ix.an, e)
		n++
	})
	assert.Greater(t, n, 25, "entries compared")
}

// FuzzFusedAnalysis compares the fused analysis with bleve's on any
// text. Run it with:
// go test ./codex -run '^$' -fuzz '^FuzzFusedAnalysis$' -fuzztime 60s
func FuzzFusedAnalysis(f *testing.F) {
	f.Add("Mara's 3.5 茶 tide-reading THE Ⱥ σοφοσ")
	f.Add("''..,, ＇s ’S")
	for _, src := range fuzzEntries {
		f.Add(src)
	}
	ix := fusedTestIndex(f)
	f.Fuzz(func(t *testing.T, text string) {
		for _, a := range []analysis.Analyzer{ix.an.prose, ix.an.name, ix.an.keyword} {
			if m := fusedMismatch(ix.an, a, text); m != "" {
				t.Fatalf("%q:\n%s", text, m)
			}
		}
	})
}

// TestFusedFieldSize checks that the size a fused field reports without
// walking its terms is the one bleve's walk gives.
func TestFusedFieldSize(t *testing.T) {
	ix := fusedTestIndex(t)
	for _, text := range []string{"", "Mara's boat, the boat", "naïve 茶 tide tide tide"} {
		for _, a := range []analysis.Analyzer{ix.an.prose, ix.an.keyword} {
			f := newFusedField("f", nil, []byte(text), ix.an.fused[a])
			f.Analyze()
			assert.Equal(t, f.frequencies.Size(), f.freqSize, text)
		}
	}
}
