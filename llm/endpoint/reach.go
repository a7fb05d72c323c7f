package endpoint

import (
	"github.com/quire-ink/quire/codex/trust"
	"github.com/quire-ink/quire/llm/mcp"
)

// BookReach holds the settings of a book's own quire.yaml (never the
// user's, which are trusted) that can reach beyond the book, as the
// advisor applies them. What of them reaches, and whether the writer
// trusts it, is codex/trust's (trust.Asks), which opening a book asks
// too; a setting of that kind added to quire.yaml belongs in both.
type BookReach struct {
	Provider   ProviderSettings
	MCPServers map[string]mcp.ServerConfig
	// Series is the series folder as quire.yaml names it (series:): a
	// folder outside the book whose canon quire would read.
	Series string
	// BuildOutput is build: output when it names a folder outside the
	// book (trust.BuildOutputOf), which quire build writes to once the
	// book is trusted (manuscript/export.OutputFolder asks the store).
	BuildOutput string
}

// asks is b as the trust record weighs it.
func (b BookReach) asks() trust.Asks {
	a := trust.Asks{BaseURL: b.Provider.BaseURL, APIKeyEnv: b.Provider.APIKeyEnv, Series: b.Series, Output: b.BuildOutput}
	if len(b.MCPServers) > 0 {
		a.Servers = make(map[string]trust.Server, len(b.MCPServers))
		for name, c := range b.MCPServers {
			a.Servers[name] = trust.Server{Command: c.Command, Args: c.Args, Env: c.Env, URL: c.URL}
		}
	}
	return a
}

// Wants lists what the book asks beyond itself.
func (b BookReach) Wants() trust.Reach { return b.asks().Wants() }

// providerReaches reports whether the book's provider section names a
// key to send (trust.KeyReaches): a base_url alone sends no key (see
// ProviderSettings.UntrustedBaseURL).
func providerReaches(p ProviderSettings) bool { return trust.KeyReaches(p.BaseURL, p.APIKeyEnv) }

// Untrusted is what of b applies while the book is not trusted: its
// provider endpoint with the key it names (and the model, which belongs
// to that endpoint), every MCP server and the series folder are set
// aside. A base_url
// named alone stays, marked so that no key is sent to it.
func (b BookReach) Untrusted() BookReach {
	p := b.Provider
	if providerReaches(p) {
		p.BaseURL, p.APIKeyEnv, p.Model = "", "", ""
	}
	p.UntrustedBaseURL = p.BaseURL != ""
	return BookReach{Provider: p}
}

// Guard returns b as it applies to the book at root: whole when the
// writer trusted exactly what it wants, else Untrusted, with the wants
// that were set aside. A trust record that cannot be read trusts nothing,
// and err (trust.ErrRecord) says why.
func (b BookReach) Guard(root string, store *trust.Store) (BookReach, trust.Reach, error) {
	wants := b.Wants()
	if len(wants) == 0 {
		return b.Untrusted(), nil, nil
	}
	ok, err := store.Allows(root, wants)
	if ok {
		// Trust covers the wants the writer was shown: a base_url named
		// without a key was not among them.
		b.Provider.UntrustedBaseURL = b.Provider.BaseURL != "" && !providerReaches(b.Provider)
		return b, nil, nil
	}
	return b.Untrusted(), wants, err
}

// isOpenAI reports whether base is OpenAI's own API ("" is).
func isOpenAI(base string) bool { return trust.IsOpenAI(base) }
