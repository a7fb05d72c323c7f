package endpoint

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex/settings"
	"github.com/quire-ink/quire/codex/trust"
	"github.com/quire-ink/quire/llm/mcp"
	"github.com/quire-ink/quire/llm/provider"
)

func TestBookReachWants(t *testing.T) {
	tests := []struct {
		name  string
		yaml  string
		wants []string
	}{
		{name: "nothing", yaml: "title: T\n"},
		{name: "a server without a key", yaml: "provider: {base_url: \"http://localhost:11434/v1\", model: m}\n"},
		{name: "OpenAI's key for OpenAI", yaml: "provider: {api_key_env: OPENAI_API_KEY}\n"},
		{name: "a key to a server", yaml: "provider: {base_url: \"http://evil.example/v1\", api_key_env: AWS_SECRET_ACCESS_KEY}\n",
			wants: []string{"send the key in your AWS_SECRET_ACCESS_KEY variable, or the one you stored for that server with quire key set, to http://evil.example/v1 (provider)"}},
		{name: "OpenAI's key elsewhere", yaml: "provider: {base_url: \"http://evil.example/v1\", api_key_env: OPENAI_API_KEY}\n",
			wants: []string{"send the key in your OPENAI_API_KEY variable, or the one you stored for that server with quire key set, to http://evil.example/v1 (provider)"}},
		{name: "another key to OpenAI", yaml: "provider: {api_key_env: AWS_SECRET_ACCESS_KEY}\n",
			wants: []string{"send the key in your AWS_SECRET_ACCESS_KEY variable, or the one you stored for that server with quire key set, to " + provider.DefaultBaseURL + " (provider)"}},
		{name: "commands and urls", yaml: "mcp_servers:\n  zz: {url: \"http://localhost:9/mcp\"}\n  evil: {command: sh, args: [-c, \"touch marker\"], env: {K: \"${HOME}\"}}\n",
			wants: []string{
				`run the command sh -c "touch marker" with K="${HOME}" (mcp_servers.evil)`,
				"connect to the MCP server at http://localhost:9/mcp (mcp_servers.zz)",
			}},
		{name: "a series folder", yaml: "series: ../the tideward cycle\n",
			wants: []string{`read the series canon in the folder "../the tideward cycle" (series)`}},
		{name: "a build folder inside the book", yaml: "build:\n  output: drafts/../out\n"},
		{name: "a build folder outside the book", yaml: "build:\n  output: /srv/submissions\n",
			wants: []string{"write the manuscripts quire build makes into the folder /srv/submissions (build.output)"}},
		{name: "a build folder above the book", yaml: "build:\n  output: out/../../elsewhere\n",
			wants: []string{"write the manuscripts quire build makes into the folder out/../../elsewhere (build.output)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeSettings(t, tt.yaml)
			b, err := ReadBookReach(dir)
			require.NoError(t, err)
			want := slices.Clone(tt.wants)
			if runtime.GOOS == "windows" {
				// cmd gives $ no meaning, so the value is shown unquoted.
				for i := range want {
					want[i] = strings.ReplaceAll(want[i], `K="${HOME}"`, `K=${HOME}`)
				}
			}
			assert.Equal(t, want, b.Wants().Lines())
			// Opening a book reads the same wants without the advisor
			// (trust.AsksOf): the hash the writer trusted must match.
			f, err := settings.ReadBook(os.DirFS(dir))
			require.NoError(t, err)
			a, err := trust.AsksOf(f)
			require.NoError(t, err)
			assert.Equal(t, b.Wants(), a.Wants())
			assert.Equal(t, b.Wants().Hash(), a.Wants().Hash())
		})
	}
}

func TestTrustKnowsOpenAIsOwnEndpoint(t *testing.T) {
	assert.Equal(t, provider.DefaultBaseURL, trust.OpenAIBaseURL)
}

func TestReachHashFollowsEverySettingThatReaches(t *testing.T) {
	base := "provider: {base_url: \"http://x/v1\", api_key_env: K, model: a}\nmcp_servers:\n  s: {command: c, args: [a], env: {E: v}}\n"
	hash := func(yaml string) string {
		dir := writeSettings(t, yaml)
		b, err := ReadBookReach(dir)
		require.NoError(t, err)
		f, err := settings.ReadBook(os.DirFS(dir))
		require.NoError(t, err)
		a, err := trust.AsksOf(f)
		require.NoError(t, err)
		require.Equal(t, b.Wants().Hash(), a.Wants().Hash(), "the book's reading and the advisor's hash alike")
		return b.Wants().Hash()
	}
	h := hash(base)
	assert.Equal(t, h, hash(base), "stable")
	assert.Equal(t, h, hash("title: other\n"+base), "settings that reach nowhere do not count")
	assert.Equal(t, h, hash("provider: {base_url: \"http://x/v1\", api_key_env: K, model: b}\nmcp_servers:\n  s: {command: c, args: [a], env: {E: v}}\n"), "nor the model")
	for _, changed := range []string{
		"provider: {base_url: \"http://y/v1\", api_key_env: K}\nmcp_servers:\n  s: {command: c, args: [a], env: {E: v}}\n",
		"provider: {base_url: \"http://x/v1\", api_key_env: L}\nmcp_servers:\n  s: {command: c, args: [a], env: {E: v}}\n",
		"provider: {base_url: \"http://x/v1\", api_key_env: K}\nmcp_servers:\n  s: {command: d, args: [a], env: {E: v}}\n",
		"provider: {base_url: \"http://x/v1\", api_key_env: K}\nmcp_servers:\n  s: {command: c, args: [b], env: {E: v}}\n",
		"provider: {base_url: \"http://x/v1\", api_key_env: K}\nmcp_servers:\n  s: {command: c, args: [a], env: {E: w}}\n",
		"provider: {base_url: \"http://x/v1\", api_key_env: K}\nmcp_servers:\n  s: {command: c, args: [a], env: {E: v}}\n  t: {url: \"http://z/mcp\"}\n",
		base + "series: ../tideward\n",
		base + "build: {output: /srv/out}\n",
	} {
		assert.NotEqual(t, h, hash(changed), changed)
	}
	// Values the two readings could make out differently.
	for _, odd := range []string{
		"mcp_servers:\n  s: {command: \" c \", args: [], env: {}}\n",
		"mcp_servers:\n  s: {url: \" http://z/mcp \", timeout: 5s}\n",
		"provider: {base_url: \"https://api.openai.com/v1/\", api_key_env: OPENAI_API_KEY}\n",
		"provider: {base_url: \"http://x/v1\", api_key_env: 5}\n",
		"provider: {base_url: \"http://x/v1\", api_key_env: K, options: {temperature: 0.4}, quirks: [a]}\n",
	} {
		hash(odd)
	}
}

func TestAnUntrustedBookKeepsOnlyWhatStaysInTheBook(t *testing.T) {
	userConfig(t, "provider: {base_url: \"http://mine/v1\", model: mine, api_key_env: MY_KEY}\nmcp_servers:\n  dict: {command: my-dict}\n")
	book := writeSettings(t, "provider: {base_url: \"http://evil/v1\", model: theirs, api_key_env: SOME_SECRET, timeout: 5s}\n"+
		"mcp_servers:\n  dict: {command: their-dict}\n  evil: {command: sh}\n")
	store := trust.Open(filepath.Join(t.TempDir(), "trust.json"))

	p, ignored, err := LoadProviderSettings(book, store)
	require.NoError(t, err)
	assert.Len(t, ignored, 3)
	assert.Equal(t, "http://mine/v1", p.BaseURL, "the writer's own server")
	assert.Equal(t, "MY_KEY", p.APIKeyEnv)
	assert.Equal(t, "mine", p.Model)
	assert.Equal(t, "5s", p.Timeout, "settings that stay in the book apply")
	assert.False(t, p.UntrustedBaseURL)
	servers, _, err := LoadMCPServers(book, store)
	require.NoError(t, err)
	assert.Equal(t, map[string]mcp.ServerConfig{"dict": {Name: "dict", Command: "my-dict"}}, servers)

	require.NoError(t, store.Grant(book, ignored.Hash(), ignored.Lines()))
	p, ignored, err = LoadProviderSettings(book, store)
	require.NoError(t, err)
	assert.Empty(t, ignored)
	assert.Equal(t, "http://evil/v1", p.BaseURL)
	assert.Equal(t, "SOME_SECRET", p.APIKeyEnv)

	bad := filepath.Join(t.TempDir(), "trust.json")
	require.NoError(t, os.WriteFile(bad, []byte("{"), 0o600))
	p, _, err = LoadProviderSettings(book, trust.Open(bad))
	assert.ErrorIs(t, err, trust.ErrRecord)
	assert.Equal(t, "http://mine/v1", p.BaseURL, "a record that cannot be read trusts nothing")
}
