package settings

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Problem is one thing wrong with a settings file, as data: where it is
// and what to do. Its message keeps the "line N: " the writer has always
// read, but nobody reads the position back out of the text: Line and
// Column carry it.
type Problem struct {
	// File names the file: "quire.yaml", the user's config.yaml path, or
	// "" when the problem is not yet tied to a file.
	File string
	// Line and Column are 1-based; 0 when the problem is the whole file's.
	Line, Column int
	// Message is what the writer reads after the file's name.
	Message string
}

func (p *Problem) Error() string {
	if p.File == "" {
		return p.Message
	}
	return p.File + ": " + p.Message
}

// At is a problem of the book's quire.yaml at n.
func At(n *yaml.Node, format string, args ...any) *Problem {
	return &Problem{File: Name, Line: n.Line, Column: n.Column,
		Message: fmt.Sprintf("line %d: %s", n.Line, fmt.Sprintf(format, args...))}
}

// Position is where err says the problem is: the line and column of the
// first Problem in its chain, or 0, 0 when it names no place.
func Position(err error) (line, column int) {
	var p *Problem
	if errors.As(err, &p) {
		return p.Line, p.Column
	}
	return 0, 0
}

// syntaxProblem is the YAML library's refusal of a file's text as a
// Problem. The library keeps the position of a syntax error only in its
// message ("yaml: line 3: …"), so this is the one place quire reads a
// line out of an error's text; everything quire finds itself is a
// Problem from the start.
func syntaxProblem(file string, err error) *Problem {
	p := &Problem{File: file, Message: err.Error()}
	if rest, ok := strings.CutPrefix(err.Error(), "yaml: line "); ok {
		if n, _, ok := strings.Cut(rest, ":"); ok {
			if line, err := strconv.Atoi(n); err == nil && line > 0 {
				p.Line = line
			}
		}
	}
	return p
}

// Strings reads n as a list of strings; what names the setting in the
// problem ("MCP server dict: args"), at the node that is not one.
func Strings(n *yaml.Node, what string) ([]string, error) {
	if n.Kind != yaml.SequenceNode {
		return nil, At(n, "%s must be a list of strings", what)
	}
	out := make([]string, 0, len(n.Content))
	for _, item := range n.Content {
		if item.Kind != yaml.ScalarNode {
			return nil, At(item, "%s must be a list of strings", what)
		}
		out = append(out, item.Value)
	}
	return out, nil
}
