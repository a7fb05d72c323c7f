package settings

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// Edit replaces the bytes [Start, End) of a file's text with Text.
type Edit struct {
	Start, End int
	Text       string
}

// AddToList is the edit that adds item to the list under the top-level
// key of a settings file's text src, leaving every other line as the
// writer wrote it: a flow list on one line (`spelling: [a, b]`) is
// rewritten on that line, a block list gets a line after its last item,
// a key with no value gets the list, and a file without the key gets it
// at its end. An item already in the list
// needs no edit (ok false); a key whose value is no list, or a file that
// is no YAML mapping, is an error to show the writer.
func AddToList(src, key, item string) (Edit, bool, error) {
	var doc yaml.Node
	if !utf8.ValidString(src) {
		return Edit{}, false, errors.New(Name + " is not UTF-8 text")
	}
	if src != "" {
		if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
			return Edit{}, false, fmt.Errorf("%s cannot be read as YAML; fix it first: %w", Name, err)
		}
	}
	quoted, err := ScalarYAML(item)
	if err != nil {
		return Edit{}, false, err
	}
	var root *yaml.Node
	if len(doc.Content) > 0 {
		root = doc.Content[0]
		if root.Kind != yaml.MappingNode || len(root.Content) > 0 && root.Content[0].Column != 1 || root.Style&yaml.FlowStyle != 0 {
			return Edit{}, false, errors.New(Name + " is not a list of settings (key: value) starting at the left margin")
		}
	}
	var k, v *yaml.Node
	if root != nil {
		for i := 0; i+1 < len(root.Content); i += 2 {
			if root.Content[i].Value == key {
				k, v = root.Content[i], root.Content[i+1]
			}
		}
	}
	lines := lineStarts(src)
	if k == nil {
		prefix := ""
		if src != "" && !strings.HasSuffix(src, "\n") {
			prefix = eol(src)
		}
		return Edit{Start: len(src), End: len(src), Text: prefix + key + ": [" + quoted + "]" + eol(src)}, true, nil
	}
	switch {
	case v.Kind == yaml.ScalarNode && v.Tag == "!!null":
		start, end := lineSpan(src, lines, k.Line)
		return Edit{Start: start, End: end, Text: key + ": [" + quoted + "]"}, true, nil
	case v.Kind != yaml.SequenceNode:
		return Edit{}, false, fmt.Errorf("%s: in %s is not a list", key, Name)
	}
	items := make([]string, 0, len(v.Content)+1)
	for _, it := range v.Content {
		if it.Kind == yaml.ScalarNode && strings.EqualFold(it.Value, item) {
			return Edit{}, false, nil
		}
		items = append(items, it.Value)
	}
	if v.Style&yaml.FlowStyle != 0 {
		start, end := lineSpan(src, lines, v.Line)
		line := src[start:end]
		open := start + byteColumn(line, v.Column)
		closing := strings.LastIndexByte(src[open:end], ']')
		if closing < 0 {
			return Edit{}, false, fmt.Errorf("%s: in %s is a list over several lines; add %s to it by hand", key, Name, item)
		}
		var out []string
		for _, it := range append(items, item) {
			q, err := ScalarYAML(it)
			if err != nil {
				return Edit{}, false, err
			}
			out = append(out, q)
		}
		return Edit{Start: open, End: open + closing + 1, Text: "[" + strings.Join(out, ", ") + "]"}, true, nil
	}
	last := v.Content[len(v.Content)-1]
	_, end := lineSpan(src, lines, last.Line)
	first, _ := lineSpan(src, lines, v.Content[0].Line)
	firstLine := src[first:]
	indent := firstLine[:len(firstLine)-len(strings.TrimLeft(firstLine, " \t"))]
	insert := end
	nl := eol(src)
	if insert < len(src) {
		insert += len(nl)
		if !strings.HasPrefix(src[end:], nl) {
			insert = end + 1
		}
		return Edit{Start: insert, End: insert, Text: indent + "- " + quoted + nl}, true, nil
	}
	return Edit{Start: insert, End: insert, Text: nl + indent + "- " + quoted}, true, nil
}

// ScalarYAML is s as one YAML scalar, in a block or a flow list alike:
// plain when it is words (letters, spaces, apostrophes, hyphens and full
// stops, starting with a letter) that YAML reads as a string, else
// double-quoted.
func ScalarYAML(s string) (string, error) {
	if !utf8.ValidString(s) || strings.IndexFunc(s, unicode.IsControl) >= 0 {
		return "", errors.New("a list item is one line of text")
	}
	first, _ := utf8.DecodeRuneInString(s)
	plain := unicode.IsLetter(first) && strings.TrimSpace(s) == s && !strings.Contains(s, "  ")
	for _, r := range s {
		if !unicode.IsLetter(r) && r != ' ' && r != '\'' && r != '’' && r != '-' && r != '.' {
			plain = false
		}
	}
	switch strings.ToLower(s) {
	case "y", "n", "yes", "no", "on", "off", "true", "false", "null":
		plain = false
	}
	if plain {
		return s, nil
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return "", err
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

// eol is the line ending src uses.
func eol(src string) string {
	if strings.Contains(src, "\r\n") {
		return "\r\n"
	}
	return "\n"
}

// lineStarts are the offsets where src's lines start.
func lineStarts(src string) []int {
	out := []int{0}
	for i := 0; i < len(src); i++ {
		if src[i] == '\n' {
			out = append(out, i+1)
		}
	}
	return out
}

// lineSpan is line n (from 1) of src, without its line ending.
func lineSpan(src string, starts []int, n int) (int, int) {
	start := starts[min(n-1, len(starts)-1)]
	end := len(src)
	if i := strings.IndexByte(src[start:], '\n'); i >= 0 {
		end = start + i
	}
	if end > start && src[end-1] == '\r' {
		end--
	}
	return start, end
}

// byteColumn is the byte offset in line of yaml's column col (from 1,
// counted in runes).
func byteColumn(line string, col int) int {
	n := 1
	for i := range line {
		if n == col {
			return i
		}
		n++
	}
	return len(line)
}
