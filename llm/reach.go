package llm

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/quire-ink/quire/codex/trust"
	"github.com/quire-ink/quire/llm/mcp"
	"github.com/quire-ink/quire/llm/provider"
)

// Want is one setting of a book's own quire.yaml that reaches beyond the
// book: a command it would run, a server it would connect to, a key it
// would send somewhere.
type Want struct {
	// Setting is where it is in quire.yaml: "provider", "mcp_servers.dict".
	Setting string `json:"setting"`
	// Says is what it would make quire do, for the writer to read after
	// "asks quire to": "run the command …".
	Says string `json:"says"`
	// exact is the setting itself, which the hash covers.
	exact any
}

// String is the want as the writer is shown it.
func (w Want) String() string { return w.Says + " (" + w.Setting + ")" }

// Reach is everything a book asks beyond itself, sorted by setting.
type Reach []Want

// Hash names exactly these settings: trusting a book trusts this hash,
// and any change to one of them is a new question.
func (r Reach) Hash() string {
	type item struct {
		Setting string `json:"setting"`
		Exact   any    `json:"exact"`
	}
	items := make([]item, len(r))
	for i, w := range r {
		items[i] = item{w.Setting, w.exact}
	}
	// Maps marshal with sorted keys, so equal settings hash equal.
	data, _ := json.Marshal(items)
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// Lines are the wants as the writer reads them, one a line.
func (r Reach) Lines() []string {
	var out []string
	for _, w := range r {
		out = append(out, w.String())
	}
	return out
}

// BookReach holds the settings of a book's own quire.yaml (never the
// user's, which are trusted) that can reach beyond the book. A setting of
// that kind added to quire.yaml (a series folder outside the book, say)
// belongs here: Wants names it and Untrusted sets it aside.
type BookReach struct {
	Provider   ProviderSettings
	MCPServers map[string]mcp.ServerConfig
	// Series is the series folder as quire.yaml names it (series:): a
	// folder outside the book whose canon quire would read.
	Series string
}

// providerReaches reports whether the book's provider section names a
// key to send. A base_url alone sends no key (see
// ProviderSettings.UntrustedBaseURL), and OpenAI's own variable named for
// OpenAI's own endpoint asks nothing the default does not.
func providerReaches(p ProviderSettings) bool {
	if p.APIKeyEnv == "" {
		return false
	}
	return !(p.APIKeyEnv == "OPENAI_API_KEY" && isOpenAI(p.BaseURL))
}

// Wants lists what the book asks beyond itself.
func (b BookReach) Wants() Reach {
	var r Reach
	if p := b.Provider; providerReaches(p) {
		host := p.BaseURL
		if host == "" {
			host = provider.DefaultBaseURL
		}
		r = append(r, Want{Setting: "provider",
			Says:  fmt.Sprintf("send the key in your %s variable, or the one you stored for that server with quire key set, to %s", p.APIKeyEnv, host),
			exact: map[string]string{"base_url": p.BaseURL, "api_key_env": p.APIKeyEnv}})
	}
	for _, name := range slices.Sorted(maps.Keys(b.MCPServers)) {
		c := b.MCPServers[name]
		w := Want{Setting: "mcp_servers." + name,
			exact: map[string]any{"command": c.Command, "args": c.Args, "env": c.Env, "url": c.URL}}
		if c.URL != "" {
			w.Says = "connect to the MCP server at " + c.URL
		} else {
			w.Says = "run the command " + commandLine(c.Command, c.Args)
			if len(c.Env) > 0 {
				var env []string
				for _, k := range slices.Sorted(maps.Keys(c.Env)) {
					env = append(env, k+"="+shellWord(runtime.GOOS, c.Env[k]))
				}
				w.Says += " with " + strings.Join(env, " ")
			}
		}
		r = append(r, w)
	}
	if b.Series != "" {
		r = append(r, Want{Setting: "series", Says: "read the series canon in the folder " + shellWord(runtime.GOOS, b.Series), exact: b.Series})
	}
	return r
}

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

// ErrTrustRecord marks an error reading the record of trusted books; the
// settings that come with it are the untrusted ones, and usable.
var ErrTrustRecord = errors.New("the record of trusted books could not be read")

// Guard returns b as it applies to the book at root: whole when the
// writer trusted exactly what it wants, else Untrusted, with the wants
// that were set aside. A trust record that cannot be read trusts nothing,
// and err says why.
func (b BookReach) Guard(root string, store *trust.Store) (BookReach, Reach, error) {
	wants := b.Wants()
	if len(wants) == 0 {
		return b.Untrusted(), nil, nil
	}
	ok, err := store.Trusts(root, wants.Hash())
	if err != nil {
		err = fmt.Errorf("%w: %w", ErrTrustRecord, err)
	}
	if ok {
		// Trust covers the wants the writer was shown: a base_url named
		// without a key was not among them.
		b.Provider.UntrustedBaseURL = b.Provider.BaseURL != "" && !providerReaches(b.Provider)
		return b, nil, nil
	}
	return b.Untrusted(), wants, err
}

// IgnoredMessage tells the writer what quire set aside for the book at
// dir and how to trust it.
func IgnoredMessage(dir string, ignored Reach) string {
	var b strings.Builder
	b.WriteString("this book's quire.yaml asks quire to do what reaches beyond the book, and you have not trusted the book, so quire ignores these settings and uses your own:\n")
	for _, l := range ignored.Lines() {
		b.WriteString("  - " + l + "\n")
	}
	b.WriteString("If you trust this book, run: quire trust " + shellWord(runtime.GOOS, dir))
	return b.String()
}

// isOpenAI reports whether base is OpenAI's own API ("" is).
func isOpenAI(base string) bool {
	return base == "" || strings.HasPrefix(strings.TrimRight(base, "/"), strings.TrimRight(provider.DefaultBaseURL, "/"))
}

func commandLine(cmd string, args []string) string {
	return commandLineFor(runtime.GOOS, cmd, args)
}

func commandLineFor(goos, cmd string, args []string) string {
	words := []string{shellWord(goos, cmd)}
	for _, a := range args {
		words = append(words, shellWord(goos, a))
	}
	return strings.Join(words, " ")
}

// shellWord quotes s when it would not read back as one word: as a Unix
// shell reads it, or on Windows as cmd does, where a backslash separates
// folders (C:\Users\Zoë\marker, not "C:\\Users\\Zoë\\marker") and "…"
// quotes without escapes.
func shellWord(goos, s string) string {
	printable := strings.IndexFunc(s, func(r rune) bool { return !unicode.IsPrint(r) }) < 0
	if goos == "windows" && printable {
		if s != "" && !strings.ContainsAny(s, " \"&|<>()^%") {
			return s
		}
		if !strings.Contains(s, `"`) {
			return `"` + s + `"`
		}
	}
	if s != "" && !strings.ContainsAny(s, " \t\n\"'\\$`;&|<>()*?[]{}#~") && strconv.Quote(s) == `"`+s+`"` {
		return s
	}
	return strconv.Quote(s)
}
