package llm

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"go.yaml.in/yaml/v3"

	"github.com/quire-ink/quire/llm/mcp"
	"github.com/quire-ink/quire/llm/trust"
)

// UserConfigPath is the writer's own settings file, which lies under
// every book's quire.yaml: <user config folder>/quire/config.yaml
// (on Linux $XDG_CONFIG_HOME/quire/config.yaml).
func UserConfigPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("find user config folder: %w", err)
	}
	return filepath.Join(dir, "quire", "config.yaml"), nil
}

// ReadUserConfig returns the text of the user's config.yaml and its path;
// no file is no text and no error.
func ReadUserConfig() ([]byte, string, error) {
	path, err := UserConfigPath()
	if err != nil {
		return nil, "", err
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, path, nil
	}
	if err != nil {
		return nil, path, fmt.Errorf("read %s: %w", path, err)
	}
	return data, path, nil
}

// Under returns the book's settings over the user's: what the book sets
// wins; rules add up, the user's first; a persona the book configures
// takes the book's scope when it gives one, and both sets of rules.
func (s Settings) Under(book Settings) Settings {
	out := book
	str := func(dst *string, v string) {
		if *dst == "" {
			*dst = v
		}
	}
	str(&out.Title, s.Title)
	str(&out.Genre, s.Genre)
	str(&out.AudienceAge, s.AudienceAge)
	str(&out.AudienceLens, s.AudienceLens)
	out.Rules = append(slices.Clone(s.Rules), book.Rules...)
	if len(s.Personas)+len(book.Personas) > 0 {
		out.Personas = maps.Clone(s.Personas)
		if out.Personas == nil {
			out.Personas = map[string]PersonaSettings{}
		}
		for id, bp := range book.Personas {
			up := out.Personas[id]
			if bp.Tools.IsZero() {
				bp.Tools = up.Tools
			}
			bp.Rules = append(slices.Clone(up.Rules), bp.Rules...)
			out.Personas[id] = bp
		}
	}
	if out.Limits.MaxArgumentBytes == 0 {
		out.Limits.MaxArgumentBytes = s.Limits.MaxArgumentBytes
	}
	if out.Limits.MaxOutputBytes == 0 {
		out.Limits.MaxOutputBytes = s.Limits.MaxOutputBytes
	}
	if out.Limits.MaxCallsPerRound == 0 {
		out.Limits.MaxCallsPerRound = s.Limits.MaxCallsPerRound
	}
	if out.Limits.MaxAnswerBytes == 0 {
		out.Limits.MaxAnswerBytes = s.Limits.MaxAnswerBytes
	}
	if out.Rounds == 0 {
		out.Rounds = s.Rounds
	}
	if len(s.Groups) > 0 {
		groups := maps.Clone(s.Groups)
		maps.Copy(groups, book.Groups)
		out.Groups = groups
	}
	return out
}

// Under returns the book's provider settings over the user's, field by
// field. A book that names another endpoint does not take the user's key
// variable or model, which belong to the user's endpoint.
func (p ProviderSettings) Under(book ProviderSettings) ProviderSettings {
	if book.BaseURL != "" && book.BaseURL != p.BaseURL {
		p.APIKeyEnv, p.Model = "", ""
	}
	out := book
	// The user's own endpoint is one the user chose, keys and all.
	out.UntrustedBaseURL = book.UntrustedBaseURL && book.BaseURL != p.BaseURL
	str := func(dst *string, v string) {
		if *dst == "" {
			*dst = v
		}
	}
	str(&out.BaseURL, p.BaseURL)
	str(&out.Model, p.Model)
	str(&out.APIKeyEnv, p.APIKeyEnv)
	str(&out.API, p.API)
	str(&out.ToolCalling, p.ToolCalling)
	str(&out.Timeout, p.Timeout)
	str(&out.ServiceTier, p.ServiceTier)
	if out.Tools == nil {
		out.Tools = p.Tools
	}
	if out.Retries == nil {
		out.Retries = p.Retries
	}
	if out.Stream == nil {
		out.Stream = p.Stream
	}
	out.FlexFallback = out.FlexFallback || p.FlexFallback
	if out.Rounds == 0 {
		out.Rounds = p.Rounds
	}
	if out.Quirks == nil {
		out.Quirks = p.Quirks
	}
	if out.Options == nil {
		out.Options = p.Options
	}
	return out
}

// LoadMCPServers reads mcp_servers from root/quire.yaml over the user's
// config.yaml: a server the book names replaces the user's of that name.
// The book's servers apply only when store trusts the book
// (BookReach.Guard); ignored lists what was set aside.
func LoadMCPServers(root string, store *trust.Store) (servers map[string]mcp.ServerConfig, ignored Reach, err error) {
	servers = map[string]mcp.ServerConfig{}
	if data, path, err := ReadUserConfig(); err != nil {
		return nil, nil, err
	} else if data != nil {
		var doc yaml.Node
		if err := yaml.Unmarshal(data, &doc); err != nil {
			return nil, nil, userFileError(path, fmt.Errorf("quire.yaml: %w", err))
		}
		if len(doc.Content) > 0 {
			user, err := ParseMCPServers(mappingValue(doc.Content[0], "mcp_servers"))
			if err != nil {
				return nil, nil, userFileError(path, err)
			}
			maps.Copy(servers, user)
		}
	}
	book, err := ReadBookReach(root)
	if err != nil {
		return nil, nil, err
	}
	book, ignored, err = book.Guard(root, store)
	maps.Copy(servers, book.MCPServers)
	return servers, ignored, err
}
