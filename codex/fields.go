package codex

import (
	"bytes"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// maxYAMLNodes bounds the work of walking a front matter tree, so that a
// file built from nested YAML aliases cannot make parsing explode.
const maxYAMLNodes = 10000

// header is what the front matter says, before defaults are applied.
type header struct {
	Type, Name, Title, Summary string
	Status                     string
	Aliases, Tags, Locked      []string
	Exclude                    []string
	Mentions                   *bool
	Custom                     Fields
	// keys holds every top-level key as written, for locked-field checks.
	keys []string
	// typeRange locates the type value, for an unknown-type warning.
	typeRange, statusRange Range
	lockedRanges           []Range
	nameRange              Range
	aliasRanges            []Range
}

// yamlDoc maps line/column positions inside the front matter block back
// to byte offsets in the file.
type yamlDoc struct {
	src        []byte
	block      Range
	lineStarts []int
}

func newYAMLDoc(src []byte, block Range) *yamlDoc {
	d := &yamlDoc{src: src, block: block, lineStarts: []int{block.Start}}
	for i := block.Start; i < block.End; i++ {
		if src[i] == '\n' && i+1 < block.End {
			d.lineStarts = append(d.lineStarts, i+1)
		}
	}
	return d
}

// lineRange is the byte range of 1-based line n of the block, without its
// line break.
func (d *yamlDoc) lineRange(n int) Range {
	if n < 1 {
		n = 1
	}
	if n > len(d.lineStarts) {
		return Range{d.block.End, d.block.End}
	}
	start := d.lineStarts[n-1]
	end, _ := lineAt(d.src[:d.block.End], start)
	return Range{start, end}
}

// nodeRange covers a node from its position to the end of its line. YAML
// columns count characters, so they are walked as runes.
func (d *yamlDoc) nodeRange(n *yaml.Node) Range {
	line := d.lineRange(n.Line)
	off := line.Start
	for col := 1; col < n.Column && off < line.End; col++ {
		_, size := utf8.DecodeRune(d.src[off:line.End])
		off += size
	}
	end := line.End
	if n.Kind == yaml.ScalarNode && !strings.Contains(n.Value, "\n") {
		width := len(n.Value)
		if n.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle) != 0 {
			width += 2
		}
		end = min(end, off+width)
	}
	return Range{off, end}
}

// fileLine converts a 1-based line of the block to a 1-based line of the
// file, for messages a writer can follow.
func (d *yamlDoc) fileLine(n int) int {
	return bytes.Count(d.src[:d.block.Start], []byte("\n")) + n
}

var yamlLineRe = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// yamlError turns a YAML syntax error into a problem on its line.
func (d *yamlDoc) yamlError(path string, err error) Problem {
	msg := err.Error()
	r := d.block
	if m := yamlLineRe.FindStringSubmatch(msg); m != nil {
		if n, convErr := strconv.Atoi(m[1]); convErr == nil {
			r = d.lineRange(n)
		}
		msg = m[2]
	} else {
		msg = strings.TrimPrefix(msg, "yaml: ")
	}
	return Problem{Path: path, Code: CodeYAML, Severity: SeverityError,
		Message: "front matter is not valid YAML: " + msg, Range: r}
}

// decodeHeader reads the front matter block. When the block as a whole is
// not valid YAML, each top-level key is decoded on its own so that one bad
// line does not cost the entry its name and type.
func decodeHeader(path string, src []byte, block Range) (header, []Problem) {
	d := newYAMLDoc(src, block)
	text := strings.ToValidUTF8(string(src[block.Start:block.End]), "\uFFFD")
	var h header
	if strings.TrimSpace(text) == "" {
		return h, nil
	}
	var doc yaml.Node
	err := yaml.Unmarshal([]byte(text), &doc)
	if err == nil {
		root := &doc
		if root.Kind == yaml.DocumentNode && len(root.Content) > 0 {
			root = root.Content[0]
		}
		if root.Kind != yaml.MappingNode {
			return h, []Problem{{Path: path, Code: CodeYAML, Severity: SeverityError,
				Message: "front matter must be a set of `key: value` lines", Range: block}}
		}
		return d.readMapping(path, root)
	}
	problems := []Problem{d.yamlError(path, err)}
	var pairs []*yaml.Node
	for _, chunk := range topLevelChunks(text) {
		var n yaml.Node
		if yaml.Unmarshal([]byte(chunk.text), &n) != nil || len(n.Content) == 0 || n.Content[0].Kind != yaml.MappingNode {
			continue
		}
		for _, c := range n.Content[0].Content {
			shiftLines(c, chunk.line-1)
		}
		pairs = append(pairs, n.Content[0].Content...)
	}
	h, more := d.readMapping(path, &yaml.Node{Kind: yaml.MappingNode, Content: pairs})
	return h, append(problems, more...)
}

type chunk struct {
	text string
	line int
}

// topLevelChunks splits YAML text into one piece per top-level key: a
// line at column zero starts a piece; indented and blank lines continue it.
func topLevelChunks(text string) []chunk {
	var chunks []chunk
	lines := strings.SplitAfter(text, "\n")
	for i, line := range lines {
		if line == "" {
			continue
		}
		if c := line[0]; c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '#' || len(chunks) == 0 {
			chunks = append(chunks, chunk{line: i + 1})
		}
		chunks[len(chunks)-1].text += line
	}
	return chunks
}

func shiftLines(n *yaml.Node, by int) {
	n.Line += by
	for _, c := range n.Content {
		shiftLines(c, by)
	}
}

func (d *yamlDoc) readMapping(path string, m *yaml.Node) (header, []Problem) {
	var h header
	var problems []Problem
	problem := func(code string, sev Severity, n *yaml.Node, format string, args ...any) {
		problems = append(problems, Problem{Path: path, Code: code, Severity: sev,
			Message: fmt.Sprintf(format, args...), Range: d.nodeRange(n)})
	}
	seen := map[string]*yaml.Node{}
	budget := maxYAMLNodes
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			problem(CodeFieldType, SeverityWarning, k, "front matter keys must be plain words")
			continue
		}
		key := strings.TrimSpace(k.Value)
		lower := strings.ToLower(key)
		if first, dup := seen[lower]; dup {
			problem(CodeDuplicateKey, SeverityWarning, k,
				"duplicate key %q: the value on line %d is used and this one is ignored", key, d.fileLine(first.Line))
			continue
		}
		seen[lower] = k
		h.keys = append(h.keys, key)
		switch lower {
		case "type":
			h.Type = d.scalar(path, k, v, &problems)
			h.typeRange = d.nodeRange(v)
		case "name":
			h.Name = d.scalar(path, k, v, &problems)
			h.nameRange = d.nodeRange(v)
		case "title":
			h.Title = d.scalar(path, k, v, &problems)
		case "summary", "description":
			h.Summary = d.scalar(path, k, v, &problems)
		case "status":
			h.Status = d.scalar(path, k, v, &problems)
			h.statusRange = d.nodeRange(v)
		case "aliases", "alias":
			h.Aliases, h.aliasRanges = d.list(path, k, v, false, &problems)
		case "tags", "tag":
			h.Tags, _ = d.list(path, k, v, true, &problems)
		case "locked":
			h.Locked, h.lockedRanges = d.list(path, k, v, true, &problems)
		case "exclude":
			h.Exclude, _ = d.list(path, k, v, false, &problems)
		case "mentions":
			var b bool
			if v.Kind == yaml.ScalarNode && v.Decode(&b) == nil {
				h.Mentions = &b
			} else {
				problem(CodeFieldType, SeverityWarning, v, "`mentions` must be true or false")
			}
		default:
			h.Custom = append(h.Custom, Field{Key: key, Value: nodeValue(resolveAlias(v), &budget)})
		}
	}
	if budget < 0 {
		problems = append(problems, Problem{Path: path, Code: CodeFieldType, Severity: SeverityWarning,
			Message: fmt.Sprintf("front matter is too deeply nested or aliased; values past %d nodes were dropped", maxYAMLNodes),
			Range:   d.block})
	}
	return h, problems
}

func resolveAlias(n *yaml.Node) *yaml.Node {
	for i := 0; n.Kind == yaml.AliasNode && n.Alias != nil && i < 16; i++ {
		n = n.Alias
	}
	return n
}

// scalar reads a single text value; a list or mapping is reported and
// ignored.
func (d *yamlDoc) scalar(path string, k, v *yaml.Node, problems *[]Problem) string {
	v = resolveAlias(v)
	if v.Kind != yaml.ScalarNode {
		*problems = append(*problems, Problem{Path: path, Code: CodeFieldType, Severity: SeverityWarning,
			Message: fmt.Sprintf("`%s` must be a single value, not a list or mapping", k.Value), Range: d.nodeRange(v)})
		return ""
	}
	if v.ShortTag() == "!!null" {
		return ""
	}
	return strings.TrimSpace(v.Value)
}

// list reads a list of text values and where each one is. A single value
// is a one-item list; with splitCommas, "a, b" is two items, as writers
// type tags that way.
func (d *yamlDoc) list(path string, k, v *yaml.Node, splitCommas bool, problems *[]Problem) ([]string, []Range) {
	v = resolveAlias(v)
	var items []string
	var ranges []Range
	add := func(s string, r Range) {
		if s = strings.TrimSpace(s); s != "" {
			items = append(items, s)
			ranges = append(ranges, r)
		}
	}
	switch v.Kind {
	case yaml.ScalarNode:
		if v.ShortTag() == "!!null" {
			return nil, nil
		}
		if !splitCommas {
			add(v.Value, d.nodeRange(v))
			break
		}
		for _, part := range strings.Split(v.Value, ",") {
			add(part, d.nodeRange(v))
		}
	case yaml.SequenceNode:
		for _, item := range v.Content {
			item = resolveAlias(item)
			if item.Kind != yaml.ScalarNode {
				*problems = append(*problems, Problem{Path: path, Code: CodeFieldType, Severity: SeverityWarning,
					Message: fmt.Sprintf("items of `%s` must be single values", k.Value), Range: d.nodeRange(item)})
				continue
			}
			add(item.Value, d.nodeRange(item))
		}
	default:
		*problems = append(*problems, Problem{Path: path, Code: CodeFieldType, Severity: SeverityWarning,
			Message: fmt.Sprintf("`%s` must be a list", k.Value), Range: d.nodeRange(v)})
	}
	return items, ranges
}

// nodeValue converts a YAML value into the shapes encoding/json produces
// (string, float64, bool, nil, []any, map[string]any), so custom fields
// survive a JSON round trip unchanged. Dates and other scalars stay text,
// as the writer typed them.
func nodeValue(n *yaml.Node, budget *int) any {
	*budget--
	if *budget < 0 || n == nil {
		return nil
	}
	n = resolveAlias(n)
	switch n.Kind {
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			return nil
		case "!!bool":
			var b bool
			if n.Decode(&b) == nil {
				return b
			}
		case "!!int", "!!float":
			var f float64
			if n.Decode(&f) == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
				return f
			}
		}
		return strings.ToValidUTF8(n.Value, "\uFFFD")
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			if *budget < 0 {
				break
			}
			out = append(out, nodeValue(c, budget))
		}
		return out
	case yaml.MappingNode:
		out := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content) && *budget >= 0; i += 2 {
			out[strings.ToValidUTF8(n.Content[i].Value, "\uFFFD")] = nodeValue(n.Content[i+1], budget)
		}
		return out
	}
	return nil
}
