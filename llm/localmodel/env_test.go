package localmodel

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestServersFromEnv(t *testing.T) {
	t.Setenv(OllamaHostEnv, "")
	for _, tt := range []struct {
		name    string
		list    string
		want    []Server
		errSays string
	}{
		{name: "nothing set", want: DefaultServers()},
		{name: "QUIRE_LOCAL_MODELS replaces the usual ports", list: "Ollama=127.0.0.1:5555, LM Studio=http://127.0.0.1:6666/",
			want: []Server{{Name: "Ollama", URL: "http://127.0.0.1:5555", Ollama: true}, {Name: "LM Studio", URL: "http://127.0.0.1:6666"}}},
		{name: "a name holding Ollama is asked as Ollama", list: "My Ollama=http://[::]:7000",
			want: []Server{{Name: "My Ollama", URL: "http://127.0.0.1:7000", Ollama: true}}},
		{name: "without a name", list: "http://127.0.0.1:5555", errSays: "is not Name=URL"},
		{name: "without a port", list: "Mine=http://localhost", errSays: "names no port"},
		{name: "not http", list: "Mine=ftp://localhost:21", errSays: "is not an http address"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ServersFromEnv(func(k string) string {
				if k == LocalModelsEnv {
					return tt.list
				}
				return ""
			})
			if tt.errSays != "" {
				require.ErrorContains(t, err, tt.errSays)
			} else {
				require.NoError(t, err)
			}
			assert.Equal(t, tt.want, got)
		})
	}
}
