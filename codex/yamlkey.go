package codex

import (
	"fmt"
	"slices"

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

// maxMappingKeys bounds the keys of one mapping in a settings file; no
// quire.yaml needs more, and the YAML library's struct decoding compares
// each key of a mapping with every other.
const maxMappingKeys = 1000

// CheckSettingsYAML walks a settings file's tree (quire.yaml, the user's
// config.yaml) before anything decodes it into Go values, and refuses a
// mapping that repeats a key or holds more than maxMappingKeys keys. The
// YAML library finds repeated keys by comparing every key with every
// other and keeps an error for each, so such a file would cost time and
// memory quadratic in its size; here a set makes it linear. The error
// names the lines, as the library's would. The values of the top-level
// keys in own are left to their own parser (advisor actions set aside
// only the action at fault).
func CheckSettingsYAML(doc *yaml.Node, own ...string) error {
	if doc == nil {
		return nil
	}
	var skip *yaml.Node
	if top := doc; len(own) > 0 {
		if top.Kind == yaml.DocumentNode && len(top.Content) > 0 {
			top = top.Content[0]
		}
		if top.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(top.Content); i += 2 {
				if slices.Contains(own, top.Content[i].Value) {
					skip = top.Content[i+1]
				}
			}
		}
	}
	stack := []*yaml.Node{doc}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n == skip {
			continue
		}
		if n.Kind == yaml.MappingNode {
			seen := make(map[string]int, min(len(n.Content)/2, maxMappingKeys))
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := n.Content[i]
				if k.Kind != yaml.ScalarNode {
					continue
				}
				if first, ok := seen[k.Value]; ok {
					return fmt.Errorf("line %d: %s is set twice (first on line %d); keep one", k.Line, k.Value, first)
				}
				seen[k.Value] = k.Line
			}
			if len(n.Content)/2 > maxMappingKeys {
				return fmt.Errorf("line %d: this mapping has %d keys; quire reads at most %d", n.Line, len(n.Content)/2, maxMappingKeys)
			}
		}
		// Aliases are not followed: their target is walked where it stands.
		if n.Kind != yaml.AliasNode {
			stack = append(stack, n.Content...)
		}
	}
	return nil
}
