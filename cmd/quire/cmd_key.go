package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/quire-ink/quire/codex/trust"
	"github.com/quire-ink/quire/llm"
	"github.com/quire-ink/quire/llm/endpoint"
	"github.com/quire-ink/quire/llm/keys"
)

// keyOptions configure `quire key set|status|remove`.
type keyOptions struct {
	*globalOptions
	// Provider is what the writer typed: a short name or a base URL;
	// empty is the provider the settings resolve to.
	Provider string
	// File keeps the key in the key file instead of the keychain.
	File bool
}

func newKeyCommand(g *globalOptions) *cobra.Command {
	o := &keyOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "key",
		Short: "Store, check or remove the API key of your model's provider",
		Long: `quire keeps API keys in your system's keychain (macOS Keychain, Windows
Credential Manager, the Secret Service on Linux), one per provider, under
the provider's base URL: a key is only ever sent to the provider it was
stored for, and never to a server named by a book you have not trusted.

PROVIDER is a base URL (https://openrouter.ai/api/v1) or one of
` + fmt.Sprint(keys.ShortNames()) + `; by default it is the provider your
settings name (OpenAI when none).

quire looks for a key in this order: the key your editor hands it
(` + keys.EditorKeyEnv + `, for the provider ` + keys.EditorBaseURLEnv + ` names),
the variable provider.api_key_env names (OPENAI_API_KEY for OpenAI), then
the keychain. A key is never written to a book, a settings file or a log.`,
	}
	set := &cobra.Command{
		Use:   "set [--file] [PROVIDER]",
		Short: "Store a key: typed without echo, or read from stdin",
		Long: `Store the API key for PROVIDER in your keychain. At a terminal quire asks
for the key and does not show it; otherwise it reads the key from stdin
(echo "$KEY" | quire key set openrouter).

Where no keychain answers (a Linux without a desktop session), nothing is
stored, unless you pass --file: the key is then kept in keys.json in
quire's folder of your user config folder, a file only you can read.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.provider(args)
			return o.set(cmd.Context())
		},
	}
	set.Flags().BoolVar(&o.File, "file", false, "keep the key in a file only you can read, in your user config folder, instead of the keychain")
	status := &cobra.Command{
		Use:   "status [PROVIDER]",
		Short: "Say where the key for the provider comes from, never the key",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.provider(args)
			return o.status(cmd.Context())
		},
	}
	remove := &cobra.Command{
		Use:   "remove [PROVIDER]",
		Short: "Remove the key stored for the provider",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.provider(args)
			return o.remove(cmd.Context())
		},
	}
	cmd.AddCommand(set, status, remove)
	return cmd
}

func (o *keyOptions) provider(args []string) {
	if len(args) == 1 {
		o.Provider = args[0]
	}
}

// settings are the provider settings as they apply where quire runs:
// the book's, guarded by trust, over the writer's config.yaml.
func (o *keyOptions) settings() (endpoint.ProviderSettings, error) {
	dir, err := o.projectDir()
	if err != nil {
		return endpoint.ProviderSettings{}, err
	}
	ps, _, err := endpoint.LoadProviderSettings(dir, o.trustStore())
	if errors.Is(err, trust.ErrRecord) {
		// The settings are the untrusted ones, and usable.
		fmt.Fprintf(o.stderr, "quire: %v\n", err)
	} else if err != nil {
		return ps, err
	}
	return ps, nil
}

// target is the normalized base URL the command is about.
func (o *keyOptions) target() (string, error) {
	if o.Provider != "" {
		return keys.ProviderURL(o.Provider)
	}
	ps, err := o.settings()
	if err != nil {
		return "", err
	}
	if ps.UntrustedBaseURL {
		// Storing a key for it by default would be a step towards sending
		// it there; the writer names such a server on purpose.
		return "", fmt.Errorf("this book's quire.yaml names %s as its provider and you have not trusted the book; name the provider you mean: quire key set URL (or one of %v)", ps.BaseURL, keys.ShortNames())
	}
	return keys.Normalize(ps.BaseURL)
}

func (o *keyOptions) set(ctx context.Context) error {
	base, err := o.target()
	if err != nil {
		return err
	}
	store := o.keyStore()
	if !o.File {
		// Ask the keychain before the writer types a key it could not
		// keep, and name the ways that work here instead.
		if err := store.KeychainAnswers(ctx, base); err != nil {
			return fmt.Errorf("%w; nothing was asked or stored: %s", err, keys.Advice(base, o.keyVariable(), err))
		}
	}
	key, err := o.readKey(base)
	if err != nil {
		return err
	}
	src, err := store.Set(ctx, base, key, o.File)
	if err != nil {
		return err
	}
	fmt.Fprintf(o.stdout, "Stored the key for %s %s.\n", base, src.Where())
	return nil
}

// maxKeyInput bounds what is read from stdin for a key.
const maxKeyInput = 64 << 10

// readKey reads the key: at a terminal without echo, else from stdin.
func (o *keyOptions) readKey(base string) (string, error) {
	if f, ok := o.stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		fmt.Fprintf(o.stderr, "Paste the API key for %s (it is not shown), then press Enter: ", base)
		data, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(o.stderr)
		if err != nil {
			return "", fmt.Errorf("reading the key from the terminal: %w; nothing was stored", err)
		}
		return string(data), nil
	}
	data, err := io.ReadAll(io.LimitReader(o.stdin, maxKeyInput))
	if err != nil {
		return "", fmt.Errorf("reading the key from stdin: %w; nothing was stored", err)
	}
	return string(data), nil
}

// keyStatus is `quire key status --json`; it never holds the key.
type keyStatus struct {
	Provider string `json:"provider"`
	// Source is editor, variable, keychain or file; "" when no key.
	Source string `json:"source,omitempty"`
	// From says where the key comes from, as a sentence's end.
	From string `json:"from,omitempty"`
	// Withheld is a key quire has and does not send to this provider.
	Withheld string `json:"withheld,omitempty"`
	// Problem says what is wrong and what to do; "" when nothing.
	Problem string `json:"problem,omitempty"`
}

var sourceNames = map[keys.Kind]string{keys.Editor: "editor", keys.Variable: "variable", keys.Keychain: "keychain", keys.File: "file"}

func (o *keyOptions) status(ctx context.Context) error {
	var ps endpoint.ProviderSettings
	if o.Provider != "" {
		base, err := keys.ProviderURL(o.Provider)
		if err != nil {
			return err
		}
		ps.BaseURL = base
	} else {
		var err error
		if ps, err = o.settings(); err != nil {
			return err
		}
	}
	base, err := keys.Normalize(ps.BaseURL)
	if err != nil {
		return err
	}
	openAI, _ := keys.Normalize("")
	f := llm.KeyFinder{Getenv: os.Getenv, Stored: o.keyStore()}.Find(ctx, ps, true)
	st := keyStatus{Provider: base}
	switch {
	case f.Source.Kind != keys.None:
		st.Source, st.From = sourceNames[f.Source.Kind], f.Source.String()
	case f.Withheld.Kind != keys.None:
		st.Withheld = f.Withheld.String()
		st.Problem = "this server is named by the book's quire.yaml, and you have not trusted the book, so no key is sent to it; to send it your key, name the server in your own settings (config.yaml, your editor's, --base-url), or trust a book that names its key with provider.api_key_env (quire trust)"
	default:
		st.Problem = "no key was found for it; " + keys.Advice(base, keyVariableOf(ps.APIKeyEnv, base == openAI), f.Stored)
		if f.Stored != nil && !errors.Is(f.Stored, keys.ErrNotFound) && !keys.KeychainDown(f.Stored) {
			st.Problem = f.Stored.Error() + "; " + st.Problem
		}
		if base != openAI && ps.APIKeyEnv == "" {
			st.Problem += " (a local server such as Ollama needs none)"
		}
	}
	if o.JSON {
		return writeJSON(o.stdout, st)
	}
	fmt.Fprintf(o.stdout, "provider: %s\n", st.Provider)
	switch {
	case st.From != "":
		fmt.Fprintf(o.stdout, "key: %s\n", st.From)
	case st.Withheld != "":
		fmt.Fprintf(o.stdout, "key: the key %s is not sent: %s\n", st.Withheld, st.Problem)
	default:
		fmt.Fprintf(o.stdout, "key: none: %s\n", st.Problem)
	}
	return nil
}

func (o *keyOptions) remove(ctx context.Context) error {
	base, err := o.target()
	if err != nil {
		return err
	}
	removed, err := o.keyStore().Remove(ctx, base)
	for _, src := range removed {
		fmt.Fprintf(o.stdout, "Removed the key for %s %s.\n", base, src.Where())
	}
	switch {
	case errors.Is(err, keys.ErrNotFound):
		return fmt.Errorf("no key is stored for %s, in your keychain or the key file; nothing was removed", base)
	case errors.Is(err, keys.ErrNoKeychain) && len(removed) > 0:
		// The file's key is gone; whether the keychain holds one is
		// unknown, and the writer is told so without failing.
		fmt.Fprintf(o.stderr, "quire: %v; if your keychain holds a key for %s, run quire key remove again where it answers\n", err, base)
		return nil
	case errors.Is(err, keys.ErrNoKeychain):
		return fmt.Errorf("%w; nothing was removed: run quire key remove again where your keychain answers", err)
	}
	return err
}

// keyVariable is the variable the key of the command's provider is read
// from, for advice: the settings' provider.api_key_env, OPENAI_API_KEY
// for OpenAI.
func (o *keyOptions) keyVariable() string {
	ps, err := o.settings()
	if err != nil {
		return "a variable you name with provider.api_key_env"
	}
	base, _ := keys.Normalize(ps.BaseURL)
	openAI, _ := keys.Normalize("")
	if o.Provider != "" {
		if named, err := keys.ProviderURL(o.Provider); err == nil && named != base {
			// Another provider than the settings': its variable is
			// whatever the writer will name.
			return keyVariableOf("", named == openAI)
		}
	}
	return keyVariableOf(ps.APIKeyEnv, base == openAI)
}

// keyVariableOf names the variable a key is read from.
func keyVariableOf(apiKeyEnv string, openAI bool) string {
	switch {
	case apiKeyEnv != "":
		return apiKeyEnv
	case openAI:
		return "OPENAI_API_KEY"
	}
	return "a variable you name with provider.api_key_env"
}
