package codex

import (
	"fmt"

	"go.yaml.in/yaml/v3"
)

// TopLevelValue reads data as a YAML mapping (a quire.yaml) and returns
// the value of key, or nil when the file is empty or does not set it.
// The YAML library, decoding a mapping into a struct or map, compares
// every key with every other to find repeats, and a file of thousands of
// repeated keys then costs gigabytes; reading the tree and looking at its
// top-level keys here costs time in proportion to the file. A key set
// twice is an error: which value the writer meant is not known.
func TopLevelValue(data []byte, key string) (*yaml.Node, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	top := doc.Content[0]
	if top.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("line %d: the file must be a mapping of settings (`key: value` lines)", top.Line)
	}
	var found, value *yaml.Node
	for i := 0; i+1 < len(top.Content); i += 2 {
		k := top.Content[i]
		if k.Kind != yaml.ScalarNode || k.Value != key {
			continue
		}
		if found != nil {
			return nil, fmt.Errorf("line %d: %s is set twice (first on line %d); keep one", k.Line, key, found.Line)
		}
		found, value = k, top.Content[i+1]
	}
	return value, nil
}
