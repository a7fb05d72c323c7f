package advisor_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex/testhome"
	"github.com/quire-ink/quire/llm"
	"github.com/quire-ink/quire/llm/endpoint"
	"github.com/quire-ink/quire/llm/toolloop"
)

// userConfig writes the user's config.yaml in a fresh config folder.
func userConfig(t *testing.T, text string) string {
	t.Helper()
	dir := testhome.ConfigDir(t)
	if text != "" {
		require.NoError(t, os.MkdirAll(filepath.Join(dir, "quire"), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "quire", "config.yaml"), []byte(text), 0o644))
	}
	return filepath.Join(dir, "quire", "config.yaml")
}

func TestUserConfigLiesUnderTheBook(t *testing.T) {
	userConfig(t, `genre: mystery
rules: [Be brief.]
personas:
  continuity-editor: {rules: [Dates first.], tools: {groups: [manuscript_read]}}
limits: {output_bytes: 9000, rounds: 3}
provider: {base_url: "http://localhost:11434/v1", model: llama3.1, api_key_env: LOCAL_KEY, timeout: 30s}
`)
	book := writeSettings(t, `title: The Salt Ledger
genre: coastal fantasy
rules: [Use British spelling.]
personas:
  continuity-editor: {rules: [Check the tide tables.]}
limits: {argument_bytes: 5000}
provider: {model: mistral}
`)
	s, err := loadSettings(book)
	require.NoError(t, err)
	assert.Equal(t, "The Salt Ledger", s.Title)
	assert.Equal(t, "coastal fantasy", s.Genre, "the book wins")
	assert.Equal(t, []string{"Be brief.", "Use British spelling."}, s.Rules, "rules add up, the user's first")
	ed := llm.ResolvePersona("continuity-editor").With(s)
	assert.Equal(t, []string{"Be brief.", "Use British spelling.", "Dates first.", "Check the tide tables."}, ed.Rules)
	assert.Equal(t, []string{"get_manuscript_context"}, ed.Tools(), "the user's scope holds where the book gives none")
	assert.Equal(t, toolloop.Limits{MaxArgumentBytes: 5000, MaxOutputBytes: 9000}, s.Limits)
	assert.Equal(t, 3, s.Rounds)

	p, _, err := endpoint.LoadProviderSettings(book, nil)
	require.NoError(t, err)
	assert.Equal(t, "http://localhost:11434/v1", p.BaseURL)
	assert.Equal(t, "mistral", p.Model)
	assert.Equal(t, "LOCAL_KEY", p.APIKeyEnv)
	assert.Equal(t, "30s", p.Timeout)

	other := writeSettings(t, "provider: {base_url: \"https://api.example.com/v1\"}\n")
	p, _, err = endpoint.LoadProviderSettings(other, nil)
	require.NoError(t, err)
	assert.Empty(t, p.APIKeyEnv, "the user's key variable stays with the user's endpoint")
	assert.Empty(t, p.Model)

	none, err := loadSettings(t.TempDir())
	require.NoError(t, err)
	assert.Equal(t, "mystery", none.Genre, "a book without quire.yaml takes the user's settings")
}

func TestUserConfigErrorsNameTheFile(t *testing.T) {
	path := userConfig(t, "rules: be kind\n")
	_, err := loadSettings(writeSettings(t, "title: T\n"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), path+": line 1: rules must be a list")
}

func TestLimitsSettings(t *testing.T) {
	userConfig(t, "")
	for _, tt := range []struct{ yaml, err string }{
		{yaml: "limits: {rounds: 2, argument_bytes: 100, output_bytes: 200}\n"},
		{yaml: "limits: {rounds: 0}\n", err: "line 1: rounds must be a whole number from 1 to 16"},
		{yaml: "limits: {output_bytes: many}\n", err: "output_bytes must be a whole number"},
		{yaml: "limits: {seconds: 3}\n", err: `unknown limit "seconds"`},
		{yaml: "limits: 3\n", err: "limits must say"},
		{yaml: "limits: {rounds: 2}\nprovider:\n  rounds: 3\n", err: "line 3: rounds is set in limits too"},
	} {
		_, err := loadSettings(writeSettings(t, tt.yaml))
		if tt.err == "" {
			assert.NoError(t, err, tt.yaml)
			continue
		}
		assert.ErrorContains(t, err, tt.err, tt.yaml)
	}
}
