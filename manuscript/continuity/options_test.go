package continuity

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

// TestOptionsYAML: quire.yaml's keys decode into Options as the settings
// reader will decode them.
func TestOptionsYAML(t *testing.T) {
	var o Options
	require.NoError(t, yaml.Unmarshal([]byte("traits: [scar, cloak]\nchecks: {after-death: off, style-rule: warning}\n"), &o))
	assert.Equal(t, Options{Traits: []string{"scar", "cloak"}, Checks: map[string]Level{CodeAfterDeath: LevelOff, CodeStyleRule: LevelWarning}}, o)
	assert.False(t, o.Enabled(CodeAfterDeath))
	assert.Equal(t, []string{"eyes", "hair", "scar", "cloak"}, o.traits())
	assert.Empty(t, o.Validate())
}
