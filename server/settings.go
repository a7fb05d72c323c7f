package server

import (
	"encoding/json"
	"strings"
	"unicode"

	"github.com/quire-ink/quire/llm/endpoint"
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
	// Dialogue is how the editor shows speech (semantic_tokens.go,
	// inlay_hints.go): {"dialogue": {"highlight": false, "speakerHints":
	// true}}.
	Dialogue clientDialogue `json:"dialogue"`
}

// clientDialogue are the dialogue settings; nil is unset.
type clientDialogue struct {
	// Highlight colours dialogue and characters' names (on by default).
	Highlight *bool `json:"highlight"`
	// SpeakerHints names the speaker before each line of dialogue that
	// has no explicit tag (off by default).
	SpeakerHints *bool `json:"speakerHints"`
}

func (d clientDialogue) highlight() bool    { return d.Highlight == nil || *d.Highlight }
func (d clientDialogue) speakerHints() bool { return d.SpeakerHints != nil && *d.SpeakerHints }

func (d clientDialogue) over(o clientDialogue) clientDialogue {
	if o.Highlight != nil {
		d.Highlight = o.Highlight
	}
	if o.SpeakerHints != nil {
		d.SpeakerHints = o.SpeakerHints
	}
	return d
}

// clientProvider is endpoint.ProviderSettings as an editor sends it, "unset"
// told apart from zero by the same fields; merged by the same
// endpoint.ProviderSettings.Over.
type clientProvider endpoint.ProviderSettings

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
	if d, ok := top["dialogue"]; ok {
		var one map[string]json.RawMessage
		if json.Unmarshal(d, &one) == nil {
			// Key by key, so one bad value drops only itself.
			for k, v := range one {
				var b bool
				if json.Unmarshal(v, &b) != nil {
					continue
				}
				switch snake(k) {
				case "highlight":
					cs.Dialogue.Highlight = &b
				case "speaker_hints":
					cs.Dialogue.SpeakerHints = &b
				}
			}
		}
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
	return clientProvider(endpoint.ProviderSettings(c).Over(endpoint.ProviderSettings(o)))
}

// over returns c with o's settings over it.
func (c clientSettings) over(o clientSettings) clientSettings {
	c.Provider = c.Provider.over(o.Provider)
	c.Dialogue = c.Dialogue.over(o.Dialogue)
	if o.Persona != "" {
		c.Persona = o.Persona
	}
	return c
}

// onto merges the client's provider settings over quire.yaml's, by the
// same rule as over.
func (c clientProvider) onto(ps endpoint.ProviderSettings) endpoint.ProviderSettings {
	// A client that names another endpoint takes its key variable and
	// model with it: quire.yaml's belong to quire.yaml's endpoint.
	untrusted := ps.UntrustedBaseURL
	if c.BaseURL != "" && c.BaseURL != ps.BaseURL {
		ps.APIKeyEnv, ps.Model = "", ""
	}
	out := ps.Over(endpoint.ProviderSettings(c))
	// A server the client names is the writer's own choice, keys and all.
	out.UntrustedBaseURL = untrusted && c.BaseURL == ""
	return out
}
