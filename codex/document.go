package codex

import (
	"fmt"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/mapping"
	index "github.com/blevesearch/bleve_index_api"
)

// What bleve indexes for an entry, built directly as a bleve document.
// Handing bleve a map instead makes it walk the map by reflection, look
// up every field's mapping by path, and add an "_all" field that no query
// of quire's reads: a quarter of the cost of a cold index. The fields,
// their analyzers and array positions are exactly what the mapping
// (indexMapping) makes of the same values, which document_test.go checks;
// queries still analyze their text through the mapping.

// fieldOptions are every field's: indexed, not stored, no term vectors
// nor doc values (see indexMapping).
const fieldOptions = index.IndexField

// docAnalyzers are the mapping's analyzers, resolved once per index.
type docAnalyzers struct {
	prose, name, keyword analysis.Analyzer
	// fused are the analyzers taken apart for fused analysis (fused.go),
	// by analyzer; an analyzer missing here is run by bleve.
	fused map[analysis.Analyzer]*fusedChain
}

func analyzersOf(m mapping.IndexMapping) (docAnalyzers, error) {
	a := docAnalyzers{
		prose:   m.AnalyzerNamed(analyzerProse),
		name:    m.AnalyzerNamed(analyzerName),
		keyword: m.AnalyzerNamed(keyword.Name),
	}
	if a.prose == nil || a.name == nil || a.keyword == nil {
		return a, fmt.Errorf("index mapping lacks quire's analyzers")
	}
	a.fused = map[analysis.Analyzer]*fusedChain{}
	for _, an := range []analysis.Analyzer{a.prose, a.name, a.keyword} {
		if c, ok := fuse(an); ok {
			a.fused[an] = c
		}
	}
	return a, nil
}

// document is the bleve document of e. Text is folded (see Fold);
// keyword copies of name and aliases hold the normalized form, so exact
// matches ignore case and diacritics like the catalog does.
func (a docAnalyzers) document(e *Entry) *document.Document {
	d := document.NewDocument(e.ID)
	field := func(name string, pos []uint64, value string, an analysis.Analyzer) {
		if c := a.fused[an]; c != nil {
			d.AddField(newFusedField(name, pos, []byte(value), c))
			return
		}
		d.AddField(document.NewTextFieldCustom(name, pos, []byte(value), fieldOptions, an))
	}
	text := func(name, value string, an analysis.Analyzer) {
		field(name, nil, value, an)
	}
	list := func(name string, values []string, an analysis.Analyzer) {
		for i, v := range values {
			field(name, []uint64{uint64(i)}, v, an)
		}
	}
	aliases := make([]string, len(e.Aliases))
	aliasKeys := make([]string, len(e.Aliases))
	for i, al := range e.Aliases {
		aliases[i] = clipLongWords(Fold(al), maxIndexedWord)
		aliasKeys[i] = clipLongWords(Normalize(al), maxIndexedWord)
	}
	tags := make([]string, len(e.Tags))
	for i, t := range e.Tags {
		tags[i] = Normalize(t)
	}
	body := e.BodyText()
	if e.Soul != nil {
		body += "\n\n" + e.Soul.Source[e.Soul.Body.Start:e.Soul.Body.End]
	}
	body = clipLongWords(body, maxIndexedWord)

	text(fieldName, clipLongWords(Fold(e.Name), maxIndexedWord), a.name)
	text(fieldNameKey, clipLongWords(Normalize(e.Name), maxIndexedWord), a.keyword)
	list(fieldAliases, aliases, a.name)
	list(fieldAliasKeys, aliasKeys, a.keyword)
	text(fieldTitle, clipLongWords(Fold(e.Title), maxIndexedWord), a.name)
	text(fieldType, string(e.Type), a.keyword)
	list(fieldTags, tags, a.keyword)
	text(fieldStatus, string(e.Status), a.keyword)
	text(fieldPath, Fold(e.ID), a.name)
	text(fieldSummary, clipLongWords(Fold(e.Summary), maxIndexedWord), a.prose)
	text(fieldBody, Fold(body), a.prose)
	d.SetIndexed()
	return d
}
