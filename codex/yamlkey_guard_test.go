package codex

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

func TestCheckSettingsYAML(t *testing.T) {
	many := func(n int, dup bool) string {
		var b strings.Builder
		b.WriteString("provider:\n")
		for i := range n {
			if dup {
				b.WriteString("  x: y\n")
			} else {
				fmt.Fprintf(&b, "  k%d: y\n", i)
			}
		}
		return b.String()
	}
	tests := []struct {
		name, text, err string
	}{
		{"empty", "", ""},
		{"plain", "title: A\nprovider:\n  model: m\n", ""},
		{"repeated at the top", "title: A\ntitle: B\n", "line 2: title is set twice (first on line 1)"},
		{"repeated inside", "provider:\n  model: a\n  model: b\n", "line 3: model is set twice (first on line 2)"},
		{"thousands repeated", many(8000, true), "line 3: x is set twice (first on line 2)"},
		{"too many keys", many(1500, false), "this mapping has"},
		{"in a list", "actions:\n  - id: a\n    id: b\n", "line 3: id is set twice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var doc yaml.Node
			require.NoError(t, yaml.Unmarshal([]byte(tt.text), &doc))
			err := CheckSettingsYAML(&doc)
			if tt.err == "" {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.err)
		})
	}
}
