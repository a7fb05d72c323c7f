package llm

import (
	"strings"

	"go.yaml.in/yaml/v3"
)

// mappingValue is the value of key in a YAML mapping, or nil. The
// settings readers look their sections up with it.
func mappingValue(m *yaml.Node, key string) *yaml.Node {
	if m == nil {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if strings.EqualFold(strings.TrimSpace(m.Content[i].Value), key) {
			return m.Content[i+1]
		}
	}
	return nil
}
