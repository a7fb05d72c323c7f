package codex

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/document"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mappedDocument is what the index mapping makes of an entry given as a
// map, the way quire indexed before building documents directly: the
// reference the direct document must match field for field.
func mappedDocument(e *Entry) map[string]any {
	aliases := make([]string, len(e.Aliases))
	aliasKeys := make([]string, len(e.Aliases))
	for i, a := range e.Aliases {
		aliases[i] = clipLongWords(Fold(a), maxIndexedWord)
		aliasKeys[i] = clipLongWords(Normalize(a), maxIndexedWord)
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
	return map[string]any{
		fieldName:      clipLongWords(Fold(e.Name), maxIndexedWord),
		fieldNameKey:   clipLongWords(Normalize(e.Name), maxIndexedWord),
		fieldAliases:   aliases,
		fieldAliasKeys: aliasKeys,
		fieldTitle:     clipLongWords(Fold(e.Title), maxIndexedWord),
		fieldType:      string(e.Type),
		fieldTags:      tags,
		fieldStatus:    string(e.Status),
		fieldPath:      Fold(e.ID),
		fieldSummary:   clipLongWords(Fold(e.Summary), maxIndexedWord),
		fieldBody:      Fold(body),
	}
}

// indexedFields describes a document's fields as the index sees them:
// name, array positions, options, value and analyzed terms, sorted.
func indexedFields(d *document.Document) []string {
	var out []string
	for _, f := range d.Fields {
		f.Analyze()
		var terms []string
		for term, tf := range f.AnalyzedTokenFrequencies() {
			var locs []string
			for _, l := range tf.Locations {
				locs = append(locs, fmt.Sprintf("%d@%d-%d%v", l.Position, l.Start, l.End, l.ArrayPositions))
			}
			terms = append(terms, fmt.Sprintf("%s×%d[%s]", term, tf.Frequency(), strings.Join(locs, " ")))
		}
		slices.Sort(terms)
		out = append(out, fmt.Sprintf("%s%v opts=%v len=%d %q: %s", f.Name(), f.ArrayPositions(), f.Options(),
			f.AnalyzedLength(), f.Value(), strings.Join(terms, ", ")))
	}
	slices.Sort(out)
	return out
}

func TestDocumentMatchesTheMapping(t *testing.T) {
	ix, err := newMemoryIndex()
	require.NoError(t, err)
	defer ix.close()
	m := ix.idx.Mapping()
	soul := ParseSoul("codex/characters/ilse/soul.md", []byte("# Soul\n\nShe fears the deep water’s pull.\n"))
	entries := []*Entry{}
	for id, src := range map[string]string{
		"codex/characters/ilse/index.md": entryMD("type: character\nname: Ilse Dörn\naliases: [the Harbormistress, Ilse's Ghost]\ntags: [Protagonist, coast]\nstatus: tentative\nsummary: Keeps the harbour's ledgers.",
			"# Ilse Dörn\n\nShe counts 1,200 ships; naïve captains pay twice. 港口 the harbour.\n"),
		"codex/items/lamp.md":     entryMD("type: item\nname: Lamp", "# Lamp\n"),
		"codex/concepts/empty.md": entryMD("type: concept\nname: Nothing\naliases: []\ntags: []", ""),
		"codex/places/long.md":    entryMD("type: location\nname: "+strings.Repeat("x", 300), "word "+strings.Repeat("y", 400)+" end\n"),
	} {
		e, probs := Parse(id, []byte(src), "")
		require.NotNil(t, e, "%s: %v", id, probs)
		entries = append(entries, e)
	}
	withSoul := *entries[0]
	withSoul.Soul = soul
	entries = append(entries, &withSoul)

	for _, e := range entries {
		t.Run(e.ID, func(t *testing.T) {
			mapped := document.NewDocument(e.ID)
			require.NoError(t, m.MapDocument(mapped, mappedDocument(e)))
			direct := ix.an.document(e)
			assert.Equal(t, indexedFields(mapped), indexedFields(direct))
			assert.Equal(t, mapped.ID(), direct.ID())
			assert.True(t, direct.Indexed())
		})
	}
}
