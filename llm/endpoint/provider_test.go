package endpoint

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex/trust"
)

func TestLoadProviderSettings(t *testing.T) {
	tests := []struct {
		name    string
		yaml    string
		check   func(t *testing.T, p ProviderSettings)
		wantErr string
	}{
		{name: "no section", yaml: "title: X\n", check: func(t *testing.T, p ProviderSettings) { assert.Equal(t, ProviderSettings{}, p) }},
		{name: "full", yaml: "provider:\n  base_url: http://localhost:11434/v1\n  model: llama3.1\n  api_key_env: LOCAL_KEY\n  api: chat\n  tools: false\n  tool_calling: none\n  timeout: 90s\n  retries: 0\n  service_tier: flex\n  flex_fallback: true\n  rounds: 3\n  quirks: [blank_arguments]\n  options: {temperature: 0.4}\n",
			check: func(t *testing.T, p ProviderSettings) {
				assert.Equal(t, "llama3.1", p.Model)
				require.NotNil(t, p.Tools)
				assert.False(t, *p.Tools)
				require.NotNil(t, p.Retries)
				assert.Equal(t, 0, *p.Retries)
				d, err := p.TimeoutDuration()
				require.NoError(t, err)
				assert.Equal(t, 90*time.Second, d)
				assert.Equal(t, 0.4, p.Options["temperature"])
				assert.Equal(t, []string{"blank_arguments"}, p.Quirks)
			}},
		{name: "a key in the file is refused", yaml: "provider:\n  model: x\n  api_key: sk-secret\n", wantErr: "line 3: never put an API key"},
		{name: "unknown setting", yaml: "provider:\n  modle: x\n", wantErr: `line 2: unknown provider setting "modle"`},
		{name: "bad timeout", yaml: "provider:\n  timeout: soon\n", wantErr: "provider.timeout"},
		{name: "not a mapping", yaml: "provider: openai\n", wantErr: "provider must be a mapping"},
		{name: "wrong type", yaml: "provider:\n  rounds: many\n", wantErr: "quire.yaml: provider"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			require.NoError(t, os.WriteFile(filepath.Join(root, "quire.yaml"), []byte(tt.yaml), 0o644))
			// Trusted, so that every setting is read as written.
			store := trust.Open(filepath.Join(t.TempDir(), "trust.json"))
			if b, err := ReadBookReach(root); err == nil {
				require.NoError(t, store.Grant(root, b.Wants().Hash(), nil))
			}
			p, _, err := LoadProviderSettings(root, store)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				assert.NotContains(t, err.Error(), "sk-secret")
				return
			}
			require.NoError(t, err)
			tt.check(t, p)
		})
	}
	p, _, err := LoadProviderSettings(t.TempDir(), nil)
	require.NoError(t, err, "no quire.yaml at all")
	assert.Equal(t, ProviderSettings{}, p)
}
