package server

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/server/wire"
)

// The protocol's types encode exactly as the domain values they carry,
// every field set and every optional one left out, so a client reading
// `quire lookup --json` and quire/lookup reads the same JSON.
func TestWireResultsEncodeAsTheDomainValues(t *testing.T) {
	full := codex.Result{
		ProjectPath: "/book", RelativePath: "codex/characters/mara.md", Type: codex.TypeCharacter,
		Name: "Mara", Title: "Mara Vell", Aliases: []string{"M"}, Summary: "s", Tags: []string{"t"},
		Status: codex.StatusConfirmed, Excerpt: "e", SoulExcerpt: "se", Match: codex.MatchAlias, Score: 70.5,
	}
	ctxFull := &manuscript.Context{
		Units: []manuscript.ContextUnit{{Ref: "1", Kind: manuscript.KindChapter, Path: "p", Title: "T", Number: 1, Position: 2, Words: 3, Hash: "h", Text: "x", Chars: 1, Truncated: true}},
		Chars: 1, Truncated: true,
		Failed: []manuscript.FailedRef{{Ref: "r", Error: "e", Candidates: []manuscript.Candidate{{Ref: "2", Path: "q", Title: "U"}}}, {Ref: "s", Error: "f"}},
	}
	for name, tt := range map[string]struct{ domain, wire any }{
		"entry":             {full, entriesOf([]codex.Result{full})[0]},
		"bare entry":        {codex.Result{}, entriesOf([]codex.Result{{}})[0]},
		"no entries":        {[]codex.Result{}, entriesOf(nil)},
		"context":           {ctxFull, manuscriptContextOf(ctxFull)},
		"empty context":     {&manuscript.Context{}, manuscriptContextOf(&manuscript.Context{})},
		"context, no units": {&manuscript.Context{Units: []manuscript.ContextUnit{}}, manuscriptContextOf(&manuscript.Context{Units: []manuscript.ContextUnit{}})},
		"selection": {
			manuscript.SelectionMeta{Path: "p", Title: "T", Hash: "sha256:x", Words: 2, SourceWords: 3},
			wire.CaptureResult(manuscript.SelectionMeta{Path: "p", Title: "T", Hash: "sha256:x", Words: 2, SourceWords: 3}),
		},
		"quote source": {
			manuscript.QuoteSource{Entry: "e", Name: "n", Path: "p", Section: "s", Range: codex.Range{Start: 1, End: 2}, Exact: true},
			wire.QuoteSource(manuscript.QuoteSource{Entry: "e", Name: "n", Path: "p", Section: "s", Range: codex.Range{Start: 1, End: 2}, Exact: true}),
		},
		"passage": {
			manuscript.Passage{Path: "p", Title: "T", Number: 1, Position: 2, Heading: "h", Range: codex.Range{Start: 1, End: 2}, Score: 0.5, Text: "x"},
			wire.Passage(manuscript.Passage{Path: "p", Title: "T", Number: 1, Position: 2, Heading: "h", Range: codex.Range{Start: 1, End: 2}, Score: 0.5, Text: "x"}),
		},
		"bare passage": {manuscript.Passage{}, wire.Passage(manuscript.Passage{})},
	} {
		t.Run(name, func(t *testing.T) {
			want, err := json.Marshal(tt.domain)
			require.NoError(t, err)
			got, err := json.Marshal(tt.wire)
			require.NoError(t, err)
			assert.Equal(t, string(want), string(got))
		})
	}
}
