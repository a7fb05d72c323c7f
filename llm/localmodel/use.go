package localmodel

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"go.yaml.in/yaml/v3"
)

// Use writes m as the provider of the writer's own config.yaml at path
// (never a book's quire.yaml): provider.base_url and provider.model. The
// file is edited as a YAML tree, so its other keys and its comments stay.
// The key variable and API of an earlier provider are removed: they
// belonged to that provider, and a local server needs no key.
func Use(path string, m Model) error {
	if m.BaseURL == "" || m.Model == "" {
		return errors.New("choose a model: its server's address and its name are both needed")
	}
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("read %s: %w", path, err)
	}
	var doc yaml.Node
	if len(bytes.TrimSpace(data)) > 0 {
		if err := yaml.Unmarshal(data, &doc); err != nil {
			return fmt.Errorf("%s does not read as YAML, so quire leaves it as it is: %w; correct it, or set provider.base_url: %s and provider.model: %s in it yourself", path, err, m.BaseURL, m.Model)
		}
	}
	if doc.Kind == 0 {
		doc = yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{{Kind: yaml.MappingNode}}}
	}
	top := doc.Content[0]
	if top.Kind != yaml.MappingNode {
		return fmt.Errorf("%s is not a mapping of settings, so quire leaves it as it is; set provider.base_url: %s and provider.model: %s in it yourself", path, m.BaseURL, m.Model)
	}
	prov := valueOf(top, "provider")
	if prov == nil || prov.Kind != yaml.MappingNode {
		if prov != nil {
			removeKey(top, "provider")
		}
		prov = &yaml.Node{Kind: yaml.MappingNode}
		top.Content = append(top.Content, scalar("provider"), prov)
	}
	removeKey(prov, "api_key_env")
	removeKey(prov, "api")
	set(prov, "base_url", m.BaseURL)
	set(prov, "model", m.Model)

	var out bytes.Buffer
	enc := yaml.NewEncoder(&out)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := enc.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("create the folder of %s: %w", path, err)
	}
	// Written beside, then renamed over: a failed write leaves the
	// writer's file whole.
	tmp := path + ".new"
	if err := os.WriteFile(tmp, out.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

func scalar(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }

// valueOf is the value of key in mapping m; nil when absent.
func valueOf(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// set sets key to value in mapping m, in place when the key is there.
func set(m *yaml.Node, key, value string) {
	if v := valueOf(m, key); v != nil {
		// A comment on the old value spoke of it: it goes with it.
		*v = *scalar(value)
		return
	}
	m.Content = append(m.Content, scalar(key), scalar(value))
}

// removeKey removes key from mapping m.
func removeKey(m *yaml.Node, key string) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content = append(m.Content[:i], m.Content[i+2:]...)
			return
		}
	}
}
