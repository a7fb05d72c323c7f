package health

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/settings"
	"github.com/quire-ink/quire/codex/trust"
	"github.com/quire-ink/quire/llm"
	"github.com/quire-ink/quire/llm/endpoint"
	"github.com/quire-ink/quire/llm/keys"
	"github.com/quire-ink/quire/llm/localmodel"
	"github.com/quire-ink/quire/llm/provider"
)

// Binary is the running quire.
type Binary struct {
	Path    string
	Version string
}

// Index is the state of the book's codex index as its opener found it.
type Index struct {
	// CacheDir is the book's folder in the cache; empty when none.
	CacheDir string
	// Rebuilt says the index was built from scratch on opening, and
	// Reason why (missing, stale schema, corrupt).
	Rebuilt bool
	Reason  string
	// Locked says another quire process holds the cache folder, so this
	// one keeps its index in memory.
	Locked bool
	// Fallback says why the index is in memory although a cache folder
	// was asked for (a full or read-only disk).
	Fallback string
	// Building says the search index is still being built.
	Building bool
	Entries  int
}

// Options are what the caller knows; Build finds the rest.
type Options struct {
	Binary Binary
	// Root is the book's folder; Found says how it was found, as the end
	// of a sentence ("as the folder you named with --project").
	Root  string
	Found string
	// Settings are the book's settings files as read.
	Settings *settings.Loaded
	// Index is nil when the index was not opened (the report then says
	// why in IndexErr).
	Index    *Index
	IndexErr error
	// Trust is the record of trusted books; nil trusts none.
	Trust *trust.Store
	// Provider, when set, are the provider settings as they apply (the
	// language server lays the editor's over the files'); nil reads them
	// from Settings under Trust.
	Provider *endpoint.ProviderSettings
	Keys     llm.KeyFinder
	// HTTP sends the one request to the model's server; nil is a client
	// of its own. Timeout bounds it; zero is ProbeTimeout.
	HTTP    *http.Client
	Timeout time.Duration
	// SeriesRead says the series' canon was opened with the book.
	SeriesRead bool
	// LocalModels, when set, are asked for their models when no provider
	// is configured, so that the report names what runs on this computer.
	LocalModels *localmodel.Options
}

// Build checks everything and returns the report. It sends one request,
// GET {base_url}/models, and no prompt.
func Build(ctx context.Context, o Options) Report {
	var r Report
	add := func(c Check) { r.Checks = append(r.Checks, c) }
	add(binaryCheck(o.Binary))
	add(bookCheck(o))
	add(indexCheck(o))

	var ps endpoint.ProviderSettings
	var ignored trust.Reach
	var trustErr, settingsErr error
	if o.Settings != nil {
		ps, ignored, settingsErr = endpoint.ProviderOf(o.Settings, o.Root, o.Trust)
		if errors.Is(settingsErr, trust.ErrRecord) {
			trustErr, settingsErr = settingsErr, nil
		}
	}
	if o.Provider != nil {
		ps = *o.Provider
	}
	prov, model, key := providerChecks(ctx, o, ps, settingsErr)
	add(prov)
	add(model)
	add(key)
	reach, reachErr := bookReach(o.Settings)
	add(trustCheck(o, reach, reachErr, ignored, trustErr))
	add(seriesCheck(o, reach, ignored))
	return r
}

func binaryCheck(b Binary) Check {
	c := Check{Name: "quire", Status: OK, Detail: fmt.Sprintf("%s, at %s", b.Version, b.Path)}
	if b.Path == "" {
		c.Detail = b.Version
	}
	return c
}

func bookCheck(o Options) Check {
	c := Check{Name: "book", Status: OK}
	if o.Root == "" {
		c.Status, c.Detail = Problem, "no book was found"
		c.Fix = "open your book's folder (the one holding codex/ and manuscript/), or create one with quire init"
		return c
	}
	c.Detail = o.Root
	if o.Found != "" {
		c.Detail += ", found " + o.Found
	}
	var files []string
	if l := o.Settings; l != nil {
		if l.Book.Text != nil {
			files = append(files, filepath.Join(o.Root, settings.Name))
		}
		if l.User.Text != nil {
			files = append(files, l.User.Name)
		}
		var bad []string
		for _, f := range []*settings.File{l.Book, l.User} {
			if f.Err != nil {
				bad = append(bad, f.Err.Error())
			}
		}
		if l.UserErr != nil {
			bad = append(bad, l.UserErr.Error())
		}
		if len(bad) > 0 {
			c.Status = Problem
			c.Fix = "correct the settings file: " + strings.Join(bad, "; ")
		}
	}
	if len(files) == 0 {
		c.Detail += "; no settings files (every setting has its default)"
	} else {
		c.Detail += "; settings from " + strings.Join(files, " and ")
	}
	if !looksLikeBook(o.Root) && c.Status == OK {
		c.Status = Warning
		c.Fix = "this folder has no codex/, manuscript/ or quire.yaml: open your book's own folder, or start one here with quire init"
	}
	return c
}

// looksLikeBook says root holds one of a book's markers.
func looksLikeBook(root string) bool {
	for _, m := range []string{settings.Name, "codex", "manuscript"} {
		if _, err := os.Stat(filepath.Join(root, m)); err == nil {
			return true
		}
	}
	return false
}

func indexCheck(o Options) Check {
	c := Check{Name: "index", Status: OK}
	ix := o.Index
	switch {
	case ix == nil && o.IndexErr != nil:
		c.Status, c.Detail = Problem, "the codex could not be read: "+o.IndexErr.Error()
		c.Fix = "correct what the message names, then run quire doctor again"
		return c
	case ix == nil:
		c.Status, c.Detail = Warning, "the codex was not opened"
		return c
	}
	where := "in " + ix.CacheDir
	if ix.CacheDir == "" {
		where = "in memory"
	}
	switch {
	case ix.Locked:
		c.Status = Warning
		c.Detail = fmt.Sprintf("%d entries; another quire process (your editor's, most likely) holds the index in %s, so this one keeps its own in memory", ix.Entries, ix.CacheDir)
		c.Fix = "nothing to do while that process runs; if none does, close your editor and run quire index"
	case ix.Fallback != "":
		c.Status = Warning
		c.Detail = fmt.Sprintf("%d entries, in memory: %s", ix.Entries, ix.Fallback)
		c.Fix = "free some disk space or make the cache folder writable"
	case ix.Rebuilt:
		c.Detail = fmt.Sprintf("%d entries, %s; built afresh (%s)", ix.Entries, where, ix.Reason)
	default:
		c.Detail = fmt.Sprintf("%d entries, %s; current", ix.Entries, where)
	}
	if ix.Building {
		c.Detail += "; the search index is still being built"
	}
	return c
}

// providerChecks are the provider's, the model's and the key's lines: the
// provider resolves as an ask resolves it (llm.ResolveProvider), and the
// model's server is asked for its models with the key an ask would send.
func providerChecks(ctx context.Context, o Options, ps endpoint.ProviderSettings, settingsErr error) (prov, model, key Check) {
	prov = Check{Name: "provider", Status: OK}
	model = Check{Name: "model", Status: OK}
	key = Check{Name: "key", Status: OK}
	if settingsErr != nil {
		prov.Status, prov.Detail = Problem, "the provider settings do not read: "+settingsErr.Error()
		prov.Fix = "correct the provider section the message names"
		model.Status, model.Detail = Warning, "not asked: the provider settings do not read"
		key.Status, key.Detail = Warning, "not looked for: the provider settings do not read"
		return prov, model, key
	}
	cfg, found, err := llm.ResolveProvider(ctx, ps, o.Keys, true)
	base := cmp.Or(ps.BaseURL, provider.DefaultBaseURL)
	official := base == provider.DefaultBaseURL || strings.HasPrefix(strings.TrimRight(base, "/"), strings.TrimRight(provider.DefaultBaseURL, "/"))
	keyNamed := ps.APIKeyEnv != "" || official
	api := cmp.Or(ps.API, "chat")
	modelName := cfg.Model
	prov.Detail = fmt.Sprintf("%s, model %s, API %s", base, cmp.Or(modelName, "(none named)"), api)
	noProvider := !ps.Named() && found.Key == ""

	// The key's line.
	keyURL, _ := keys.Normalize(ps.BaseURL)
	switch {
	case found.Source.Kind != keys.None:
		key.Detail = found.Source.String()
	case found.Withheld.Kind != keys.None:
		key.Status = Warning
		key.Detail = "the key " + found.Withheld.String() + " is not sent: " + base + " is named by this book's quire.yaml, and you have not trusted the book"
		key.Fix = "name the server in your own config.yaml or your editor's settings, or trust the book with quire trust " + o.Root
	case keyNamed:
		key.Status = Problem
		env := cmp.Or(ps.APIKeyEnv, "OPENAI_API_KEY")
		key.Detail = "none: " + env + " is not set and no key is stored for " + keyURL + storedNote(found)
		key.System = keys.SystemReason(found.Stored)
		key.Fix = keys.Advice(keyURL, env, found.Stored)
		if noProvider {
			// A book without a model is a choice, not a failure: the
			// advisor is off, everything else works.
			key.Status = Warning
			key.Fix += "; or use a model on this computer: quire models"
		}
	default:
		key.Detail = "none; none is sent (a local server such as Ollama needs none)"
	}

	switch {
	case noProvider:
		// Only the advisor needs a model; a writer who wants none is not
		// failing, so this is a warning and quire doctor exits 0.
		prov.Status = Warning
		prov.Detail = "none is configured (no provider.base_url, and no OpenAI key): the advisor is off; everything else works without a model"
		openAI, _ := keys.Normalize("")
		prov.Fix = "run quire models to find a model on this computer (Ollama, LM Studio), or set provider.base_url and provider.model in your config.yaml, or give quire your OpenAI key: " + keys.Advice(openAI, "OPENAI_API_KEY", found.Stored)
		if o.LocalModels != nil {
			if found := localmodel.Find(ctx, *o.LocalModels); len(found) > 0 {
				var names []string
				for _, m := range found {
					names = append(names, m.Model+" ("+m.Server+")")
				}
				prov.Fix = "these models run on this computer and need no key: " + strings.Join(names, ", ") +
					"; choose one with quire models --use N, or set provider.base_url and provider.model in your config.yaml"
			}
		}
	case errors.Is(err, llm.ErrNoModel):
		prov.Status = Problem
		prov.Fix = "name the model with provider.model in your config.yaml (quire models lists a local server's)"
	case err != nil && !errors.Is(err, llm.ErrNoProvider):
		prov.Status, prov.Fix = Problem, "correct the provider section: "+err.Error()
	}

	if noProvider {
		model.Status, model.Detail = Warning, "not asked: no provider is configured"
		return prov, model, key
	}
	if official && found.Key == "" {
		model.Status, model.Detail = Warning, "not asked: OpenAI answers nothing without a key"
		return prov, model, key
	}
	client := o.HTTP
	if client == nil {
		client = &http.Client{}
	}
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = ProbeTimeout
	}
	p := listModels(ctx, client, base, found.Key, timeout)
	model.Detail, model.Status, model.Fix = modelLine(p, base, modelName, found, keys.Advice(keyURL, keyVariable(ps.APIKeyEnv, official), found.Stored), timeout)
	return prov, model, key
}

// keyVariable is the variable a key for the provider is read from, as
// advice names it.
func keyVariable(apiKeyEnv string, official bool) string {
	switch {
	case apiKeyEnv != "":
		return apiKeyEnv
	case official:
		return "OPENAI_API_KEY"
	}
	return "a variable you name with provider.api_key_env"
}

// modelLine says what the server's answer to GET /models means.
func modelLine(p probe, base, name string, found llm.FoundKey, keyAdvice string, timeout time.Duration) (string, Status, string) {
	switch {
	case p.Refused:
		return "nothing answers at " + base + ": the server is not running", Problem,
			"start it (for Ollama: ollama serve; in LM Studio: start the local server), or correct provider.base_url"
	case p.Timeout:
		return fmt.Sprintf("%s did not answer within %s", base, timeout), Problem,
			"check your network connection and provider.base_url; a local server may still be starting"
	case p.Err != nil:
		return "could not reach " + base + ": " + p.Err.Error(), Problem, "check provider.base_url and your network connection"
	case p.Status == http.StatusUnauthorized || p.Status == http.StatusForbidden:
		if found.Key == "" {
			return fmt.Sprintf("%s wants a key (HTTP %d) and quire has none to send", base, p.Status), Problem,
				keyAdvice
		}
		return fmt.Sprintf("%s refused the key %s (HTTP %d)", base, found.Source, p.Status), Problem,
			"the key is wrong or revoked: give quire the right one; " + keyAdvice
	case p.Status != http.StatusOK:
		// Some compatible servers list no models; the chat may still work.
		return fmt.Sprintf("%s answered HTTP %d when asked for its models", base, p.Status), Warning,
			"check provider.base_url: it usually ends in /v1"
	}
	detail := "answers at " + base
	if name != "" && len(p.Models) > 0 {
		if !slices.Contains(p.Models, name) {
			shown := p.Models[:min(len(p.Models), 5)]
			return detail + "; but it lists no model " + name, Warning,
				"set provider.model to one it lists: " + strings.Join(shown, ", ")
		}
		detail += "; model " + name + " is there"
	}
	return detail, OK, ""
}

func storedNote(f llm.FoundKey) string {
	if f.Stored != nil && !errors.Is(f.Stored, keys.ErrNotFound) {
		return " (" + f.Stored.Error() + ")"
	}
	return ""
}

func bookReach(l *settings.Loaded) (endpoint.BookReach, error) {
	if l == nil {
		return endpoint.BookReach{}, nil
	}
	return endpoint.BookReachFrom(l.Book)
}

func trustCheck(o Options, reach endpoint.BookReach, reachErr error, ignored trust.Reach, trustErr error) Check {
	c := Check{Name: "trust", Status: OK}
	switch {
	case reachErr != nil:
		c.Status, c.Detail = Warning, "not known: "+reachErr.Error()
		c.Fix = "correct quire.yaml"
	case trustErr != nil:
		c.Status, c.Detail = Problem, trustErr.Error()+"; no book is trusted"
		c.Fix = "check that your user config folder can be read; quire trust " + o.Root + " writes the record again"
	case len(ignored) > 0:
		c.Status = Warning
		c.Detail = "not trusted; quire ignores what this book's quire.yaml asks beyond the book: " + strings.Join(ignored.Lines(), "; ")
		c.Fix = "if you trust this book, run: quire trust " + o.Root
	case len(reach.Wants()) > 0:
		c.Detail = "trusted: " + strings.Join(reach.Wants().Lines(), "; ")
	default:
		c.Detail = "nothing to trust: this book's quire.yaml asks nothing beyond the book"
	}
	return c
}

func seriesCheck(o Options, reach endpoint.BookReach, ignored trust.Reach) Check {
	c := Check{Name: "series", Status: OK}
	if reach.Series == "" {
		c.Detail = "none named"
		return c
	}
	root, err := codex.SeriesRoot(o.Root, reach.Series)
	trusted := !slices.ContainsFunc(ignored, func(w trust.Want) bool { return w.Setting == "series" })
	switch {
	case err != nil:
		c.Status, c.Detail = Problem, err.Error()
		c.Fix = "correct series: in quire.yaml to name the folder of the series canon"
	case !trusted:
		c.Status = Warning
		c.Detail = root + ", readable, not trusted: its canon is not read"
		c.Fix = "if you trust this book, run: quire trust " + o.Root
	case !o.SeriesRead:
		c.Status, c.Detail = Warning, root+", trusted, but its canon was not read"
		c.Fix = "check that the folder holds a codex quire can read"
	default:
		c.Detail = root + ", readable and trusted"
	}
	return c
}

// Executable is the running binary's path, symlinks resolved, for
// Binary.Path; empty when the system does not say.
func Executable() string {
	p, err := os.Executable()
	if err != nil {
		return ""
	}
	if real, err := filepath.EvalSymlinks(p); err == nil {
		p = real
	}
	return p
}
