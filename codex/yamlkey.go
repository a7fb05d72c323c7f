package codex

import (
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/quire-ink/quire/codex/settings"
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

// CheckSettingsYAML walks a settings file's tree (quire.yaml, the user's
// config.yaml) before anything decodes it into Go values, and refuses a
// mapping that repeats a key or holds thousands of keys, in time linear
// in its size (settings.Check says why). The values of the top-level keys
// in own are left to their own parser. The error is a *settings.Problem.
func CheckSettingsYAML(doc *yaml.Node, own ...string) error {
	if p := settings.Check(doc, own...); p != nil {
		return p
	}
	return nil
}

// FollowAlias is the node an alias (*anchor) stands for, or n itself
// when it is no alias; nil stays nil. YAML anchors name nodes that are
// not aliases themselves, so one step is the rule; the bound is for a
// node tree built by hand.
func FollowAlias(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && n.Alias != nil && i < 16; i++ {
		n = n.Alias
	}
	return n
}
