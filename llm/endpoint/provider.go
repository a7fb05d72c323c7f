package endpoint

import (
	"fmt"
	"os"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/settings"
	"github.com/quire-ink/quire/codex/trust"
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
	BaseURL     string `yaml:"base_url" json:"base_url"`
	Model       string `yaml:"model" json:"model"`
	APIKeyEnv   string `yaml:"api_key_env" json:"api_key_env"`
	API         string `yaml:"api" json:"api"`
	Tools       *bool  `yaml:"tools" json:"tools"`
	ToolCalling string `yaml:"tool_calling" json:"tool_calling"`
	Timeout     string `yaml:"timeout" json:"timeout"`
	Retries     *int   `yaml:"retries" json:"retries"`
	ServiceTier string `yaml:"service_tier" json:"service_tier"`
	// FlexFallback is a pointer so that an editor's false can turn off
	// a file's true (ProviderSettings.Over).
	FlexFallback *bool          `yaml:"flex_fallback" json:"flex_fallback"`
	Rounds       int            `yaml:"rounds" json:"rounds"`
	Quirks       []string       `yaml:"quirks" json:"quirks"`
	Options      map[string]any `yaml:"options" json:"options"`
	// Stream streams Chat Completions answers; unset leaves it to the
	// caller (the language server streams, the command line does not).
	Stream *bool `yaml:"stream" json:"stream"`
	// UntrustedBaseURL says BaseURL is one a book named without the
	// writer's trust (BookReach.Untrusted): quire asks that server, but
	// sends it no key, whichever setting names the key variable.
	UntrustedBaseURL bool `yaml:"-" json:"-"`
}

// Named says the settings name a server or a key to use: a base URL or
// the variable holding a key. Settings that name neither fall back to
// OpenAI, when the writer has an OpenAI key, or to a model on the
// writer's own computer.
func (p ProviderSettings) Named() bool { return p.BaseURL != "" || p.APIKeyEnv != "" }

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
// The user's own config.yaml (settings.UserConfigPath) lies under it. What of the
// book's own settings reaches beyond the book applies only when store
// trusts it (BookReach.Guard); ignored lists what was set aside.
func LoadProviderSettings(root string, store *trust.Store) (ps ProviderSettings, ignored trust.Reach, err error) {
	l, err := settings.Load(settings.Disk(root))
	if err != nil {
		return ProviderSettings{}, nil, err
	}
	return ProviderOf(l, root, store)
}

// ProviderOf are the provider settings of loaded files: the book's,
// guarded by store (BookReach.Guard), over the user's.
func ProviderOf(l *settings.Loaded, root string, store *trust.Store) (ps ProviderSettings, ignored trust.Reach, err error) {
	if l.UserErr != nil {
		return ProviderSettings{}, nil, l.UserErr
	}
	var user ProviderSettings
	if l.User.Text != nil {
		if user, err = ProviderFrom(l.User); err != nil {
			return ProviderSettings{}, nil, userFileError(l.User.Name, err)
		}
	}
	book, err := BookReachFrom(l.Book)
	if err != nil {
		return ProviderSettings{}, nil, err
	}
	book, ignored, err = book.Guard(root, store)
	return user.Under(book.Provider), ignored, err
}

// ReadBookReach reads the settings of root/quire.yaml that may reach
// beyond the book, from one reading of the file.
func ReadBookReach(root string) (BookReach, error) {
	f, err := settings.ReadBook(os.DirFS(root))
	if err != nil {
		return BookReach{}, err
	}
	return BookReachFrom(f)
}

// BookReachFrom decodes the settings of a book's quire.yaml that may
// reach beyond the book.
func BookReachFrom(f *settings.File) (BookReach, error) {
	var b BookReach
	var err error
	if b.Provider, err = ProviderFrom(f); err != nil {
		return b, err
	}
	if b.MCPServers, err = ParseMCPServers(f.Value("mcp_servers")); err != nil {
		return b, err
	}
	if b.Series, err = codex.SeriesFromNode(f.Value("series")); err != nil {
		return b, err
	}
	b.BuildOutput = trust.BuildOutputOf(f)
	return b, nil
}

// ParseProviderSettings reads the provider section from the text of a
// quire.yaml.
func ParseProviderSettings(data []byte) (ProviderSettings, error) {
	return ProviderFrom(settings.Parse(settings.Name, data))
}

// ProviderFrom decodes the provider section of one parsed settings file.
func ProviderFrom(f *settings.File) (ProviderSettings, error) {
	var p ProviderSettings
	if f.Err != nil {
		return p, f.Err
	}
	top := f.Top()
	if top == nil {
		return p, nil
	}
	var doc struct {
		Provider yaml.Node `yaml:"provider"`
	}
	if err := top.Decode(&doc); err != nil {
		return p, &settings.Problem{File: settings.Name, Line: top.Line, Column: top.Column, Message: err.Error()}
	}
	if doc.Provider.Kind == 0 {
		return p, nil
	}
	if doc.Provider.Kind != yaml.MappingNode {
		return p, settings.At(&doc.Provider, "provider must be a mapping of settings")
	}
	known := map[string]bool{}
	for _, k := range []string{"base_url", "model", "api_key_env", "api", "tools", "tool_calling", "timeout", "retries", "service_tier", "flex_fallback", "rounds", "quirks", "options", "stream"} {
		known[k] = true
	}
	for i := 0; i+1 < len(doc.Provider.Content); i += 2 {
		key := doc.Provider.Content[i]
		switch {
		case key.Value == "api_key" || key.Value == "key" || key.Value == "apikey":
			return p, settings.At(key, "never put an API key in the project: set it in an environment variable and name that with provider.api_key_env, or store it with quire key set (quire key set --file where no keychain answers)")
		case !known[key.Value]:
			return p, settings.At(key, "unknown provider setting %q", key.Value)
		}
	}
	if err := doc.Provider.Decode(&p); err != nil {
		return p, &settings.Problem{File: settings.Name, Line: doc.Provider.Line, Column: doc.Provider.Column, Message: "provider: " + err.Error()}
	}
	if _, err := p.TimeoutDuration(); err != nil {
		return p, &settings.Problem{File: settings.Name, Line: doc.Provider.Line, Column: doc.Provider.Column,
			Message: strings.TrimPrefix(err.Error(), settings.Name+": ")}
	}
	return p, nil
}
