package trust

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

// Has reports whether r holds the want of setting ("series").
func (r Reach) Has(setting string) bool {
	return slices.ContainsFunc(r, func(w Want) bool { return w.Setting == setting })
}

// OpenAIBaseURL is OpenAI's own API, where OpenAI's own key variable
// reaches nowhere the default does not. It equals provider.DefaultBaseURL
// (llm/provider), which lies above this package; a test there holds the
// two equal.
const OpenAIBaseURL = "https://api.openai.com/v1"

// IsOpenAI reports whether base is OpenAI's own API ("" is).
func IsOpenAI(base string) bool {
	return base == "" || strings.HasPrefix(strings.TrimRight(base, "/"), strings.TrimRight(OpenAIBaseURL, "/"))
}

// KeyReaches reports whether a book's provider section names a key to
// send. A base_url alone sends no key, and OpenAI's own variable named
// for OpenAI's own endpoint asks nothing the default does not.
func KeyReaches(baseURL, apiKeyEnv string) bool {
	if apiKeyEnv == "" {
		return false
	}
	return !(apiKeyEnv == "OPENAI_API_KEY" && IsOpenAI(baseURL))
}

// Server is an MCP server a book's quire.yaml names, as far as trust
// is concerned: what it would run or connect to.
type Server struct {
	Command string
	Args    []string
	Env     map[string]string
	URL     string
}

// Asks are the settings of a book's own quire.yaml (never the user's,
// which are trusted) that can reach beyond the book. A setting of that
// kind added to quire.yaml belongs here: Wants names it, and whoever
// applies it asks the store first.
type Asks struct {
	// BaseURL and APIKeyEnv are the provider's: a key sent to a server.
	BaseURL, APIKeyEnv string
	// Servers are the MCP servers by name.
	Servers map[string]Server
	// Series is the series folder as quire.yaml names it (series:): a
	// folder outside the book whose canon quire would read.
	Series string
	// Output is build: output as quire.yaml names it, when it names a
	// folder outside the book (OutputReaches): where quire build would
	// write.
	Output string
}

// Wants lists what the book asks beyond itself.
func (a Asks) Wants() Reach {
	var r Reach
	if KeyReaches(a.BaseURL, a.APIKeyEnv) {
		host := a.BaseURL
		if host == "" {
			host = OpenAIBaseURL
		}
		r = append(r, Want{Setting: "provider",
			Says:  fmt.Sprintf("send the key in your %s variable, or the one you stored for that server with quire key set, to %s", a.APIKeyEnv, host),
			exact: map[string]string{"base_url": a.BaseURL, "api_key_env": a.APIKeyEnv}})
	}
	for _, name := range slices.Sorted(maps.Keys(a.Servers)) {
		c := a.Servers[name]
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
	if a.Series != "" {
		r = append(r, Want{Setting: "series", Says: "read the series canon in the folder " + shellWord(runtime.GOOS, a.Series), exact: a.Series})
	}
	if a.Output != "" {
		r = append(r, Want{Setting: "build.output", Says: "write the manuscripts quire build makes into the folder " + shellWord(runtime.GOOS, a.Output), exact: a.Output})
	}
	return r
}

// OutputReaches reports whether build: output, as a book's quire.yaml
// writes it, names a folder outside the book by its words alone: an
// absolute path, one from the home folder (~) or one that climbs out
// (..), with / or \ between folders on every system. A folder that
// leads out through a symbolic link is the build's to refuse.
func OutputReaches(written string) bool {
	p := strings.ReplaceAll(strings.TrimSpace(written), `\`, "/")
	if p == "" {
		return false
	}
	if strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~") || len(p) >= 2 && p[1] == ':' {
		return true
	}
	depth := 0
	for part := range strings.SplitSeq(p, "/") {
		switch part {
		case "", ".":
		case "..":
			if depth--; depth < 0 {
				return true
			}
		default:
			depth++
		}
	}
	return false
}

// ErrRecord marks an error reading the record of trusted books; what
// comes with it is what applies untrusted, and usable.
var ErrRecord = errors.New("the record of trusted books could not be read")

// Allows reports whether the writer trusted exactly wants for the book
// at root; nothing wanted needs no trust. A record that cannot be read
// trusts nothing, and err (ErrRecord) says why.
func (s *Store) Allows(root string, wants Reach) (bool, error) {
	if len(wants) == 0 {
		return true, nil
	}
	ok, err := s.Trusts(root, wants.Hash())
	if err != nil {
		err = fmt.Errorf("%w: %w", ErrRecord, err)
	}
	return ok, err
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
