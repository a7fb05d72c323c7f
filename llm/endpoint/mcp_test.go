package endpoint

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/quire-ink/quire/codex/settings"
	"github.com/quire-ink/quire/codex/trust"
	"github.com/quire-ink/quire/llm/mcp"
)

func TestParseMCPServers(t *testing.T) {
	tests := []struct {
		name    string
		yaml    string
		want    map[string]mcp.ServerConfig
		wantErr string
	}{
		{
			name: "stdio and http",
			yaml: `
dict:
  command: dict-mcp
  args: [--lang, en]
  env: {DICT_KEY: "${DICT_KEY}", MODE: fast}
  timeout: 20s
research:
  url: http://localhost:8080/mcp
`,
			want: map[string]mcp.ServerConfig{
				"dict": {Name: "dict", Command: "dict-mcp", Args: []string{"--lang", "en"},
					Env: map[string]string{"DICT_KEY": "${DICT_KEY}", "MODE": "fast"}, Timeout: 20 * time.Second},
				"research": {Name: "research", URL: "http://localhost:8080/mcp"},
			},
		},
		{name: "empty", yaml: ``, want: map[string]mcp.ServerConfig{}},
		{name: "null", yaml: `~`, want: map[string]mcp.ServerConfig{}},
		{name: "not a mapping", yaml: `[dict]`, wantErr: "quire.yaml: line 1: mcp_servers must map"},
		{name: "dash in name", yaml: "ok:\n  command: a\nmy-dict:\n  command: b\n", wantErr: `quire.yaml: line 3: MCP server name "my-dict"`},
		{name: "upper case name", yaml: "Dict:\n  command: a\n", wantErr: `line 1: MCP server name "Dict"`},
		{name: "name too long", yaml: strings.Repeat("a", 25) + ":\n  command: a\n", wantErr: "line 1: MCP server name"},
		{name: "unknown key", yaml: "dict:\n  command: a\n  transport: stdio\n", wantErr: `quire.yaml: line 3: MCP server dict: unknown setting "transport"`},
		{name: "neither", yaml: "dict:\n  args: [a]\n", wantErr: "quire.yaml: line 2: MCP server dict: give a command (stdio) or a url"},
		{name: "both", yaml: "dict:\n  command: a\n  url: http://x/mcp\n", wantErr: "line 2: MCP server dict: give a command or a url, not both"},
		{name: "server not a mapping", yaml: "dict: dict-mcp\n", wantErr: "line 1: MCP server dict: give command"},
		{name: "env not a string", yaml: "dict:\n  command: a\n  env:\n    PORT: 8080\n", wantErr: "quire.yaml: line 4: MCP server dict: env PORT must be a string"},
		{name: "env bad name", yaml: "dict:\n  command: a\n  env:\n    1X: a\n", wantErr: `line 4: MCP server dict: "1X" is not an environment variable name`},
		{name: "env unclosed ref", yaml: "dict:\n  command: a\n  env:\n    K: \"${KEY\"\n", wantErr: "line 4: MCP server dict: env K: ${ is not closed"},
		{name: "env bad ref", yaml: "dict:\n  command: a\n  env:\n    K: \"${A-B}\"\n", wantErr: "line 4: MCP server dict: env K: ${A-B} does not name"},
		{name: "env list", yaml: "dict:\n  command: a\n  env: [A]\n", wantErr: "line 3: MCP server dict: env must map"},
		{name: "args not a list", yaml: "dict:\n  command: a\n  args: --x\n", wantErr: "line 3: MCP server dict: args must be a list"},
		{name: "args nested", yaml: "dict:\n  command: a\n  args: [[x]]\n", wantErr: "line 3: MCP server dict: args must be a list"},
		{name: "bad timeout", yaml: "dict:\n  command: a\n  timeout: soon\n", wantErr: `line 3: MCP server dict: timeout "soon" is not a duration`},
		{name: "negative timeout", yaml: "dict:\n  command: a\n  timeout: -1s\n", wantErr: "line 3: MCP server dict: timeout"},
		{name: "bad url", yaml: "web:\n  url: ftp://x\n", wantErr: `line 2: MCP server web: url "ftp://x" is not an http`},
		{name: "url with args", yaml: "web:\n  url: http://x/mcp\n  args: [a]\n", wantErr: "line 2: MCP server web: args and env are for a command"},
		{name: "empty command", yaml: "dict:\n  command: \"\"\n", wantErr: "line 2: MCP server dict: command must be a non-empty string"},
		{name: "duplicate", yaml: "dict:\n  command: a\ndict:\n  command: b\n", wantErr: "line 3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var doc yaml.Node
			err := yaml.Unmarshal([]byte(tt.yaml), &doc)
			if err != nil {
				// yaml.v3 itself refuses duplicate keys.
				require.NotEmpty(t, tt.wantErr)
				assert.Contains(t, err.Error(), tt.wantErr)
				return
			}
			var node *yaml.Node
			if len(doc.Content) > 0 {
				node = doc.Content[0]
			}
			got, err := ParseMCPServers(node)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestParseMCPServersInQuireYAML(t *testing.T) {
	var doc yaml.Node
	require.NoError(t, yaml.Unmarshal([]byte("title: T\nmcp_servers:\n  dict:\n    command: a\n    colour: red\n"), &doc))
	_, err := ParseMCPServers(settings.MappingValueFold(doc.Content[0], "mcp_servers"))
	require.Error(t, err)
	assert.Equal(t, `quire.yaml: line 5: MCP server dict: unknown setting "colour" (command, args, env, url, timeout)`, err.Error())
}

func TestLoadMCPServersBookOverUser(t *testing.T) {
	userConfig(t, "mcp_servers:\n  dict: {command: user-dict}\n  notes: {url: \"http://localhost:9/mcp\"}\n")
	book := writeSettings(t, "mcp_servers:\n  dict: {command: book-dict, args: [--lang, en]}\n")
	store := trust.Open(filepath.Join(t.TempDir(), "trust.json"))
	servers, ignored, err := LoadMCPServers(book, store)
	require.NoError(t, err)
	assert.Equal(t, "user-dict", servers["dict"].Command, "an untrusted book's server does not replace the user's")
	require.Len(t, ignored, 1)
	require.NoError(t, store.Grant(book, ignored.Hash(), ignored.Lines()))
	servers, ignored, err = LoadMCPServers(book, store)
	require.NoError(t, err)
	assert.Empty(t, ignored)
	require.Len(t, servers, 2)
	assert.Equal(t, "book-dict", servers["dict"].Command)
	assert.Equal(t, []string{"--lang", "en"}, servers["dict"].Args)
	assert.Equal(t, "http://localhost:9/mcp", servers["notes"].URL)

	_, _, err = LoadMCPServers(writeSettings(t, "mcp_servers:\n  dict: {command: a, url: \"http://x\"}\n"), store)
	assert.ErrorContains(t, err, "line 2")
}
