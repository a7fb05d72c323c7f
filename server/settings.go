package server

import (
	"encoding/json"
	"strings"
	"unicode"

	"github.com/quire-ink/quire/llm"
)

// clientSettings are the advisor settings an editor sends, in
// initializationOptions or, under "quire", in
// workspace/didChangeConfiguration:
//
//	{"provider": {"base_url": "http://localhost:11434/v1", "model": "llama3.1",
//	              "api_key_env": "OLLAMA_KEY", "tools": false, …},
//	 "persona": "continuity-editor"}
//
// The provider keys are quire.yaml's (camelCase spellings such as baseUrl
// are read too). Whatever is set here wins over quire.yaml; the API key
// itself is never a setting, only the name of the variable holding it.
type clientSettings struct {
	Provider clientProvider `json:"provider"`
	// Persona is who answers when a request names nobody.
	Persona string `json:"persona"`
}

// clientProvider is ProviderSettings with "unset" told apart from zero.
type clientProvider struct {
	BaseURL      string         `json:"base_url"`
	Model        string         `json:"model"`
	APIKeyEnv    string         `json:"api_key_env"`
	API          string         `json:"api"`
	Tools        *bool          `json:"tools"`
	ToolCalling  string         `json:"tool_calling"`
	Timeout      string         `json:"timeout"`
	Retries      *int           `json:"retries"`
	ServiceTier  string         `json:"service_tier"`
	FlexFallback *bool          `json:"flex_fallback"`
	Rounds       int            `json:"rounds"`
	Quirks       []string       `json:"quirks"`
	Options      map[string]any `json:"options"`
	Stream       *bool          `json:"stream"`
}

// parseClientSettings reads settings leniently: a client's settings are
// not the place to fail a session, so what does not decode is dropped.
// A settings object holding a "quire" key is read from under it.
func parseClientSettings(raw json.RawMessage) clientSettings {
	var cs clientSettings
	var top map[string]json.RawMessage
	if json.Unmarshal(raw, &top) != nil {
		return cs
	}
	if q, ok := top["quire"]; ok {
		if json.Unmarshal(q, &top) != nil {
			return cs
		}
	}
	if p, ok := top["persona"]; ok {
		_ = json.Unmarshal(p, &cs.Persona)
	}
	var prov map[string]json.RawMessage
	if p, ok := top["provider"]; !ok || json.Unmarshal(p, &prov) != nil {
		return cs
	}
	norm := map[string]json.RawMessage{}
	for k, v := range prov {
		k = snake(k)
		if k == "api_key" || k == "key" || k == "apikey" {
			// Never a key in settings: it would travel in editor configs.
			continue
		}
		norm[k] = v
	}
	// Field by field, so one bad value drops only itself.
	for k, v := range norm {
		one, _ := json.Marshal(map[string]json.RawMessage{k: v})
		var p clientProvider
		if json.Unmarshal(one, &p) == nil {
			cs.Provider = cs.Provider.over(p)
		}
	}
	return cs
}

// snake turns baseUrl into base_url; base_url stays.
func snake(k string) string {
	var b strings.Builder
	for i, r := range k {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// over returns c with every field o sets replaced by o's.
func (c clientProvider) over(o clientProvider) clientProvider {
	str := func(dst *string, v string) {
		if v != "" {
			*dst = v
		}
	}
	str(&c.BaseURL, o.BaseURL)
	str(&c.Model, o.Model)
	str(&c.APIKeyEnv, o.APIKeyEnv)
	str(&c.API, o.API)
	str(&c.ToolCalling, o.ToolCalling)
	str(&c.Timeout, o.Timeout)
	str(&c.ServiceTier, o.ServiceTier)
	if o.Tools != nil {
		c.Tools = o.Tools
	}
	if o.Retries != nil {
		c.Retries = o.Retries
	}
	if o.FlexFallback != nil {
		c.FlexFallback = o.FlexFallback
	}
	if o.Rounds > 0 {
		c.Rounds = o.Rounds
	}
	if o.Quirks != nil {
		c.Quirks = o.Quirks
	}
	if o.Options != nil {
		c.Options = o.Options
	}
	if o.Stream != nil {
		c.Stream = o.Stream
	}
	return c
}

// over returns c with o's settings over it.
func (c clientSettings) over(o clientSettings) clientSettings {
	c.Provider = c.Provider.over(o.Provider)
	if o.Persona != "" {
		c.Persona = o.Persona
	}
	return c
}

// onto merges the client's provider settings over quire.yaml's, by the
// same rule as over.
func (c clientProvider) onto(ps llm.ProviderSettings) llm.ProviderSettings {
	// A client that names another endpoint takes its key variable and
	// model with it: quire.yaml's belong to quire.yaml's endpoint.
	if c.BaseURL != "" && c.BaseURL != ps.BaseURL {
		ps.APIKeyEnv, ps.Model = "", ""
	}
	flex := ps.FlexFallback
	m := clientProvider{
		BaseURL: ps.BaseURL, Model: ps.Model, APIKeyEnv: ps.APIKeyEnv, API: ps.API, Tools: ps.Tools,
		ToolCalling: ps.ToolCalling, Timeout: ps.Timeout, Retries: ps.Retries, ServiceTier: ps.ServiceTier,
		FlexFallback: &flex, Rounds: ps.Rounds, Quirks: ps.Quirks, Options: ps.Options, Stream: ps.Stream,
	}.over(c)
	out := llm.ProviderSettings{
		BaseURL: m.BaseURL, Model: m.Model, APIKeyEnv: m.APIKeyEnv, API: m.API, Tools: m.Tools,
		ToolCalling: m.ToolCalling, Timeout: m.Timeout, Retries: m.Retries, ServiceTier: m.ServiceTier,
		FlexFallback: *m.FlexFallback, Rounds: m.Rounds, Quirks: m.Quirks, Options: m.Options, Stream: m.Stream,
	}
	// A server the client names is the writer's own choice, keys and all.
	out.UntrustedBaseURL = ps.UntrustedBaseURL && c.BaseURL == ""
	return out
}
