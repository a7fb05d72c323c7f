package llm

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/quire-ink/quire/llm/trust"
)

// ProviderSettings are the `provider:` section of quire.yaml: which model
// the advisor asks and how. Command-line flags override each of them. The
// key itself is never in the file, only the name of the environment
// variable that holds it.
//
//	provider:
//	  base_url: http://localhost:11434/v1
//	  model: llama3.1
//	  api_key_env: OLLAMA_KEY
//	  api: chat            # or responses
//	  tools: false         # the model cannot call tools: context goes inline
//	  tool_calling: best_effort
//	  timeout: 90s
//	  retries: 2
//	  service_tier: flex
//	  flex_fallback: true
//	  rounds: 4
//	  quirks: [content_tool_call_tags]
//	  options: {temperature: 0.4}
type ProviderSettings struct {
	BaseURL      string         `yaml:"base_url"`
	Model        string         `yaml:"model"`
	APIKeyEnv    string         `yaml:"api_key_env"`
	API          string         `yaml:"api"`
	Tools        *bool          `yaml:"tools"`
	ToolCalling  string         `yaml:"tool_calling"`
	Timeout      string         `yaml:"timeout"`
	Retries      *int           `yaml:"retries"`
	ServiceTier  string         `yaml:"service_tier"`
	FlexFallback bool           `yaml:"flex_fallback"`
	Rounds       int            `yaml:"rounds"`
	Quirks       []string       `yaml:"quirks"`
	Options      map[string]any `yaml:"options"`
	// Stream streams Chat Completions answers; unset leaves it to the
	// caller (the language server streams, the command line does not).
	Stream *bool `yaml:"stream"`
	// UntrustedBaseURL says BaseURL is one a book named without the
	// writer's trust (BookReach.Untrusted): quire asks that server, but
	// sends it no key, whichever setting names the key variable.
	UntrustedBaseURL bool `yaml:"-"`
}

// TimeoutDuration is the parsed timeout; zero when unset.
func (p ProviderSettings) TimeoutDuration() (time.Duration, error) {
	if p.Timeout == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(p.Timeout)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("quire.yaml: provider.timeout %q is not a duration such as 90s", p.Timeout)
	}
	return d, nil
}

// LoadProviderSettings reads the provider section of root/quire.yaml. No
// file or no section means zero settings. Unknown keys are errors with
// their line, and so is a key written into the file.
// The user's own config.yaml (UserConfigPath) lies under it. What of the
// book's own settings reaches beyond the book applies only when store
// trusts it (BookReach.Guard); ignored lists what was set aside.
func LoadProviderSettings(root string, store *trust.Store) (ps ProviderSettings, ignored Reach, err error) {
	var user ProviderSettings
	if data, path, err := ReadUserConfig(); err != nil {
		return ProviderSettings{}, nil, err
	} else if data != nil {
		if user, err = ParseProviderSettings(data); err != nil {
			return ProviderSettings{}, nil, userFileError(path, err)
		}
	}
	book, err := ReadBookReach(root)
	if err != nil {
		return ProviderSettings{}, nil, err
	}
	book, ignored, err = book.Guard(root, store)
	return user.Under(book.Provider), ignored, err
}

// ReadBookReach reads the settings of root/quire.yaml that may reach
// beyond the book, from one reading of the file.
func ReadBookReach(root string) (BookReach, error) {
	var b BookReach
	data, err := os.ReadFile(filepath.Join(root, "quire.yaml"))
	if errors.Is(err, os.ErrNotExist) {
		return b, nil
	}
	if err != nil {
		return b, fmt.Errorf("read quire.yaml: %w", err)
	}
	if b.Provider, err = ParseProviderSettings(data); err != nil {
		return b, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return b, fmt.Errorf("quire.yaml: %w", err)
	}
	if len(doc.Content) > 0 {
		if b.MCPServers, err = ParseMCPServers(mappingValue(doc.Content[0], "mcp_servers")); err != nil {
			return b, err
		}
	}
	return b, nil
}

// ParseProviderSettings reads the provider section from the text of a
// quire.yaml.
func ParseProviderSettings(data []byte) (ProviderSettings, error) {
	if err := checkSettingsText(data); err != nil {
		return ProviderSettings{}, err
	}
	var doc struct {
		Provider yaml.Node `yaml:"provider"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return ProviderSettings{}, fmt.Errorf("quire.yaml: %w", err)
	}
	var p ProviderSettings
	if doc.Provider.Kind == 0 {
		return p, nil
	}
	if doc.Provider.Kind != yaml.MappingNode {
		return p, fmt.Errorf("quire.yaml: line %d: provider must be a mapping of settings", doc.Provider.Line)
	}
	known := map[string]bool{}
	for _, k := range []string{"base_url", "model", "api_key_env", "api", "tools", "tool_calling", "timeout", "retries", "service_tier", "flex_fallback", "rounds", "quirks", "options", "stream"} {
		known[k] = true
	}
	for i := 0; i+1 < len(doc.Provider.Content); i += 2 {
		key := doc.Provider.Content[i]
		switch {
		case key.Value == "api_key" || key.Value == "key" || key.Value == "apikey":
			return p, fmt.Errorf("quire.yaml: line %d: never put an API key in the project; set it in an environment variable and name that with provider.api_key_env", key.Line)
		case !known[key.Value]:
			return p, fmt.Errorf("quire.yaml: line %d: unknown provider setting %q", key.Line, key.Value)
		}
	}
	if err := doc.Provider.Decode(&p); err != nil {
		return p, fmt.Errorf("quire.yaml: provider: %w", err)
	}
	if _, err := p.TimeoutDuration(); err != nil {
		return p, err
	}
	return p, nil
}
