package endpoint

import (
	"errors"
	"maps"
	"strings"

	"github.com/quire-ink/quire/codex/settings"
	"github.com/quire-ink/quire/codex/trust"
	"github.com/quire-ink/quire/llm/mcp"
)

// Under returns the book's provider settings over the user's, field by
// field. A book that names another endpoint does not take the user's key
// variable or model, which belong to the user's endpoint.
func (p ProviderSettings) Under(book ProviderSettings) ProviderSettings {
	user := p
	if book.BaseURL != "" && book.BaseURL != p.BaseURL {
		user.APIKeyEnv, user.Model = "", ""
	}
	out := user.Over(book)
	// The user's own endpoint is one the user chose, keys and all.
	out.UntrustedBaseURL = book.UntrustedBaseURL && book.BaseURL != p.BaseURL
	// Either file turning flex_fallback on turns it on.
	if on(p.FlexFallback) || on(book.FlexFallback) {
		t := true
		out.FlexFallback = &t
	}
	return out
}

func on(b *bool) bool { return b != nil && *b }

// Over returns p with every field top sets replaced by top's: the one
// field-by-field merge of provider settings, for the user's file under
// the book's, the files under the editor's settings, and one message of
// the editor's settings over the last. UntrustedBaseURL is p's; the
// callers say what trust the merge keeps.
func (p ProviderSettings) Over(top ProviderSettings) ProviderSettings {
	str := func(dst *string, v string) {
		if v != "" {
			*dst = v
		}
	}
	str(&p.BaseURL, top.BaseURL)
	str(&p.Model, top.Model)
	str(&p.APIKeyEnv, top.APIKeyEnv)
	str(&p.API, top.API)
	str(&p.ToolCalling, top.ToolCalling)
	str(&p.Timeout, top.Timeout)
	str(&p.ServiceTier, top.ServiceTier)
	if top.Tools != nil {
		p.Tools = top.Tools
	}
	if top.Retries != nil {
		p.Retries = top.Retries
	}
	if top.FlexFallback != nil {
		p.FlexFallback = top.FlexFallback
	}
	if top.Rounds > 0 {
		p.Rounds = top.Rounds
	}
	if top.Quirks != nil {
		p.Quirks = top.Quirks
	}
	if top.Options != nil {
		p.Options = top.Options
	}
	if top.Stream != nil {
		p.Stream = top.Stream
	}
	return p
}

// LoadMCPServers reads mcp_servers from root/quire.yaml over the user's
// config.yaml: a server the book names replaces the user's of that name.
// The book's servers apply only when store trusts the book
// (BookReach.Guard); ignored lists what was set aside.
func LoadMCPServers(root string, store *trust.Store) (servers map[string]mcp.ServerConfig, ignored trust.Reach, err error) {
	l, err := settings.Load(settings.Disk(root))
	if err != nil {
		return nil, nil, err
	}
	return MCPServersOf(l, root, store)
}

// MCPServersOf are the MCP servers of loaded files: the book's, guarded
// by store, over the user's.
func MCPServersOf(l *settings.Loaded, root string, store *trust.Store) (servers map[string]mcp.ServerConfig, ignored trust.Reach, err error) {
	if l.UserErr != nil {
		return nil, nil, l.UserErr
	}
	servers = map[string]mcp.ServerConfig{}
	if l.User.Text != nil {
		if l.User.Doc == nil {
			return nil, nil, userFileError(l.User.Name, l.User.Err)
		}
		user, err := ParseMCPServers(l.User.Value("mcp_servers"))
		if err != nil {
			return nil, nil, userFileError(l.User.Name, err)
		}
		maps.Copy(servers, user)
	}
	book, err := BookReachFrom(l.Book)
	if err != nil {
		return nil, nil, err
	}
	book, ignored, err = book.Guard(root, store)
	maps.Copy(servers, book.MCPServers)
	return servers, ignored, err
}

// userFileError names the writer's own config.yaml, at path, in an error
// its section's reader wrote for quire.yaml.
func userFileError(path string, err error) error {
	return errors.New(strings.Replace(err.Error(), "quire.yaml", path, 1))
}
