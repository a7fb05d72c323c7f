package llm

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/corpus"
	"github.com/quire-ink/quire/llm/provider"
	"github.com/quire-ink/quire/llm/provider/providertest"
	"github.com/quire-ink/quire/llm/toolloop"
	"github.com/quire-ink/quire/llm/tools"
	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/manuscript/continuity"
)

// timedTransport measures how long the provider took to answer, so the
// benchmark can report the loop's own time without it.
type timedTransport struct {
	base    http.RoundTripper
	waiting time.Duration
}

func (t *timedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	start := time.Now()
	resp, err := t.base.RoundTrip(r)
	t.waiting += time.Since(start)
	return resp, err
}

// BenchmarkAskOverhead runs whole advisor turns (a canon lookup, then the
// answer) against a book of 10,000 entries and 200 chapters, and reports
// the time per round spent outside the provider: building the prompt and
// the tool registry, encoding requests, decoding replies, running tools.
// The book's canon over story time is built once and kept across turns,
// as the language server keeps it (tools.Sources.Timeline); without it
// every turn built its own, some 60 ms at 10,000 entries.
func BenchmarkAskOverhead(b *testing.B) {
	ctx := context.Background()
	root, err := corpus.Cached(ctx, corpus.Options{Entries: 10000, Chapters: 200, ChapterWords: 5000, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	store, err := codex.Open(ctx, root, codex.Options{InMemory: true})
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	ms, err := manuscript.Open(ctx, root, manuscript.Options{Catalog: store.Catalog()})
	if err != nil {
		b.Fatal(err)
	}
	name := store.Catalog().OfType(codex.TypeCharacter)[0].Name
	tl := continuity.NewTimeline(continuity.NewCanon(store.Catalog(), continuity.Options{}), ms.Snapshot())
	src := &tools.Sources{Store: store, Manuscript: ms.Snapshot(), Place: manuscript.Place{Current: ms.Snapshot().Units()[0].Path},
		Timeline: func(*codex.Catalog, *manuscript.Snapshot) *continuity.Timeline { return tl }}
	// An answer of some 200 words, which a stream brings in about 70 pieces.
	answer := strings.Repeat("The tide ledger says the Marigold went down at slack water. ", 20)
	for _, stream := range []bool{false, true} {
		b.Run(map[bool]string{false: "plain", true: "stream"}[stream], func(b *testing.B) {
			s := providertest.New(b,
				providertest.CallsStep(providertest.Call{ID: "c1", Name: "get_character_context", Args: `{"name":"` + name + `"}`}),
				providertest.TextStep(answer),
			)
			s.Repeat()
			tt := &timedTransport{base: http.DefaultTransport}
			p := scriptedProvider(b, s, func(c *provider.Config) {
				c.HTTPClient = &http.Client{Transport: tt}
				c.Stream = stream
			})
			in := AskInput{
				Request:  Request{Persona: ResolvePersona("continuity-editor"), Message: "Who is " + name + "?", Loop: toolloop.Options{OnDelta: func(int, string) {}}},
				Sources:  src,
				Provider: p,
			}
			rounds := 0
			start := time.Now()
			for b.Loop() {
				res, err := Ask(ctx, in)
				if err != nil {
					b.Fatal(err)
				}
				rounds += res.Rounds
			}
			// A stream's body is read after the transport returns, so its
			// transfer counts as own time: an upper bound.
			own := time.Since(start) - tt.waiting
			b.ReportMetric(float64(own.Microseconds())/float64(rounds), "µs-own/round")
		})
	}
}
