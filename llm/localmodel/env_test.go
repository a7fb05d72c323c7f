package localmodel

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestServersFromEnv(t *testing.T) {
	env := func(v string) func(string) string {
		return func(name string) string {
			if name == ServersEnv {
				return v
			}
			return ""
		}
	}
	got, err := ServersFromEnv(env(""))
	require.NoError(t, err)
	require.Nil(t, got, "unset: the usual ports")

	got, err = ServersFromEnv(env(" ollama=http://127.0.0.1:11500/ , LM Studio=http://127.0.0.1:1300,http://127.0.0.1:9000 "))
	require.NoError(t, err)
	require.Equal(t, []Server{
		{Name: "ollama", URL: "http://127.0.0.1:11500", Ollama: true},
		{Name: "LM Studio", URL: "http://127.0.0.1:1300"},
		{Name: "127.0.0.1:9000", URL: "http://127.0.0.1:9000"},
	}, got)
	require.Equal(t, "http://127.0.0.1:11500/v1", got[0].BaseURL())

	_, err = ServersFromEnv(env("Ollama=127.0.0.1:11434"))
	require.ErrorContains(t, err, `"Ollama=127.0.0.1:11434" is no http URL`)
}
