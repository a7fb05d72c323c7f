package advisor_test

import (
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/llm/endpoint"
)

// A quire.yaml of thousands of repeated keys is refused in time and
// memory in proportion to its size: the YAML library alone, decoding it
// into structs, kept an error for every pair of keys (gigabytes).
func TestSettingsWithThousandsOfRepeatedKeysAreBounded(t *testing.T) {
	for _, section := range []string{"", "provider:\n", "limits:\n", "mcp_servers:\n  a:\n"} {
		indent := strings.Repeat(" ", strings.Count(section, "\n")*2)
		text := section + strings.Repeat(indent+"x: y\n", 8000)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, errSettings := parseSettings([]byte(text))
		_, errProvider := endpoint.ParseProviderSettings([]byte(text))
		runtime.ReadMemStats(&after)
		require.Error(t, errSettings, section)
		require.Error(t, errProvider, section)
		assert.Contains(t, errSettings.Error(), "x is set twice", section)
		assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(64<<20), "bytes allocated for %q", section)
	}
}
