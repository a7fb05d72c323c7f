package localmodel

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestServersFromEnv(t *testing.T) {
	defaults := DefaultServers()
	ollamaAt := func(url string) []Server {
		s := DefaultServers()
		s[0].URL = url
		return s
	}
	for _, tt := range []struct {
		name    string
		env     map[string]string
		want    []Server
		errSays string
	}{
		{name: "nothing set", want: defaults},
		{name: "OLLAMA_HOST with a port", env: map[string]string{EnvOllamaHost: "127.0.0.1:5555"}, want: ollamaAt("http://127.0.0.1:5555")},
		{name: "OLLAMA_HOST listening everywhere", env: map[string]string{EnvOllamaHost: "0.0.0.0"}, want: ollamaAt("http://127.0.0.1:11434")},
		{name: "OLLAMA_HOST a port only", env: map[string]string{EnvOllamaHost: ":7000"}, want: ollamaAt("http://127.0.0.1:7000")},
		{name: "OLLAMA_HOST a URL", env: map[string]string{EnvOllamaHost: "https://gpu-box.local:443"}, want: ollamaAt("https://gpu-box.local:443")},
		{name: "OLLAMA_HOST IPv6", env: map[string]string{EnvOllamaHost: "[::1]:11434"}, want: ollamaAt("http://[::1]:11434")},
		{name: "OLLAMA_HOST unreadable", env: map[string]string{EnvOllamaHost: "ftp://x:1"}, want: defaults, errSays: "OLLAMA_HOST"},
		{name: "QUIRE_LOCAL_MODELS replaces the usual ports", env: map[string]string{
			EnvLocalModels: "Ollama=127.0.0.1:5555, LM Studio=http://127.0.0.1:6666/", EnvOllamaHost: "127.0.0.1:1"},
			want: []Server{{Name: "Ollama", URL: "http://127.0.0.1:5555", Ollama: true}, {Name: "LM Studio", URL: "http://127.0.0.1:6666"}}},
		{name: "QUIRE_LOCAL_MODELS without a name", env: map[string]string{EnvLocalModels: "http://127.0.0.1:5555"}, errSays: "is not Name=URL"},
		{name: "QUIRE_LOCAL_MODELS without a port", env: map[string]string{EnvLocalModels: "Mine=http://localhost"}, errSays: "names no port"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ServersFromEnv(func(k string) string { return tt.env[k] })
			if tt.errSays != "" {
				require.ErrorContains(t, err, tt.errSays)
			} else {
				require.NoError(t, err)
			}
			assert.Equal(t, tt.want, got)
		})
	}
}
