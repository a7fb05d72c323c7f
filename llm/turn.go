package llm

import (
	"context"
	"log/slog"
	"net/http"
	"os"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/llm/endpoint"
	"github.com/quire-ink/quire/llm/provenance"
	"github.com/quire-ink/quire/llm/provider"
	"github.com/quire-ink/quire/llm/tools"
	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/manuscript/continuity"
)

// TurnOptions are the parts of an advisor turn as the command line and
// the language server hold them; NewTurn makes the turn from them the
// same way for both.
type TurnOptions struct {
	Store *codex.Store
	// Canon is Store read with the book's series (nil: Store alone).
	Canon      *codex.View
	Manuscript *manuscript.Snapshot
	// Place is where the writer is: the document and the selection.
	Place manuscript.Place
	// Continuity are the book's continuity settings
	// (continuity.OptionsFrom of its quire.yaml): the advisor's as-of
	// canon and the continuity findings its context names use them.
	Continuity continuity.Options
	// Outline are the book's outline: settings, for get_outline.
	Outline manuscript.OutlineSettings
	// Timeline, when set, is the caller's canon over story time, kept
	// across turns (tools.Sources.Timeline).
	Timeline func(cat *codex.Catalog, snap *manuscript.Snapshot) *continuity.Timeline
	// Request is what is asked and of whom; the turn passes it on as
	// it is.
	Request
	// Provider are the provider settings as they apply, layered and
	// guarded; NeedKey is false for a peek, which sends nothing.
	Provider endpoint.ProviderSettings
	NeedKey  bool
	// Keys is where the provider's key is looked for; a nil Getenv reads
	// the process's environment, a nil Stored asks no keychain.
	Keys KeyFinder
	// Provenance is the folder of the record of provider calls; none is
	// kept for a peek. A record that cannot be opened is told to
	// OnProvenanceError and the turn goes on.
	Provenance        string
	OnProvenanceError func(error)
	Logger            *slog.Logger
}

// Turn is an advisor turn made ready: the input of Ask (or Peek) and the
// provider it goes to.
type Turn struct {
	In     AskInput
	Config provider.Config
	// Key says where the key came from, or which one was withheld; its
	// Key field is empty (Config holds the key).
	Key FoundKey
}

// NewTurn resolves the provider (ResolveProvider, whose errors callers
// may tell apart with ErrNoProvider and ErrNoModel), records its calls
// when a key is needed, and assembles the turn's input.
func NewTurn(ctx context.Context, o TurnOptions) (*Turn, error) {
	if o.Keys.Getenv == nil {
		o.Keys.Getenv = os.Getenv
	}
	cfg, found, err := ResolveProvider(ctx, o.Provider, o.Keys, o.NeedKey)
	if err != nil {
		return nil, err
	}
	found.Key = ""
	persona := o.persona().ID
	if o.NeedKey && o.Provenance != "" {
		// Every provider call is recorded in the cache folder, never in
		// the project: host, model, tokens, tool names, a hash of the
		// request; no prose, no key.
		if plog, err := provenance.Open(o.Provenance); err != nil {
			if o.OnProvenanceError != nil {
				o.OnProvenanceError(err)
			}
		} else {
			cfg.HTTPClient = &http.Client{Transport: plog.Transport(nil, persona, o.Logger)}
		}
	}
	provider, err := provider.New(cfg)
	if err != nil {
		return nil, err
	}
	return &Turn{Config: cfg, Key: found, In: AskInput{
		Request: o.Request,
		// One story-time cache for the turn's sources and every copy Ask makes.
		Sources:  (&tools.Sources{Store: o.Store, Canon: o.Canon, Manuscript: o.Manuscript, Place: o.Place, Continuity: o.Continuity, Outline: o.Outline, Timeline: o.Timeline}).ForTurn(nil),
		Provider: provider,
	}}, nil
}
