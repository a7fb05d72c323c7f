package manuscript

import (
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/settings"
)

// projectConfig is the part of quire.yaml the manuscript reads: where
// the chapters are.
type projectConfig struct {
	// Manuscript lists globs of chapter files, relative to the project;
	// one string or a list.
	Manuscript globList `yaml:"manuscript"`
}

type globList []string

func (g *globList) UnmarshalYAML(n *yaml.Node) error {
	switch n.Kind {
	case yaml.ScalarNode:
		*g = globList{n.Value}
		return nil
	case yaml.SequenceNode:
		var list []string
		if err := n.Decode(&list); err != nil {
			return err
		}
		*g = list
		return nil
	}
	return fmt.Errorf("line %d: manuscript must be a glob or a list of globs", n.Line)
}

// GlobsFromText reads the `manuscript:` globs from the text of a
// quire.yaml; none means DefaultGlobs. Each glob is checked.
func GlobsFromText(data []byte) ([]string, error) {
	// The one key is read from the tree: decoding the whole file into a
	// struct costs the square of its keys (see codex.TopLevelValue).
	n, err := codex.TopLevelValue(data, "manuscript")
	if err != nil {
		return nil, fmt.Errorf("quire.yaml: %w", err)
	}
	return GlobsFromNode(n)
}

// GlobsFromNode reads the `manuscript:` section of a quire.yaml (its
// value); none means DefaultGlobs. Each glob is checked.
func GlobsFromNode(n *yaml.Node) ([]string, error) {
	c, err := configFromNode(n)
	if err != nil {
		return nil, err
	}
	for _, p := range c.Manuscript {
		if _, err := compileGlob(p); err != nil {
			return nil, fmt.Errorf("quire.yaml: manuscript: %w", err)
		}
	}
	return c.Manuscript, nil
}

func configFromNode(n *yaml.Node) (projectConfig, error) {
	var c projectConfig
	n = codex.FollowAlias(n)
	// `manuscript:` with nothing after it sets nothing, as before.
	if n == nil || n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" {
		return c, nil
	}
	if err := c.Manuscript.UnmarshalYAML(n); err != nil {
		return c, &settings.Problem{File: settings.Name, Line: n.Line, Column: n.Column, Message: err.Error()}
	}
	return c, nil
}
