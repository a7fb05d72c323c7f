package codex

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// A fast reading of the front matter most entries have: top-level
// `key: value` lines whose values are single-line scalars (plain, single-
// or double-quoted) or lists of them, in flow (`[a, "b"]`) or block
// (`- a`) style, with comments and blank lines between. It builds the
// very nodes the YAML decoder builds for such text (kind, tag, style,
// value, line and column), so that readMapping makes the same header and
// problems of them; anything else, or anything it is unsure of, is left
// to the decoder, which costs twice as much as the rest of parsing an
// entry. frontmatter_fast_test.go compares both on the sample book, the
// test files, a generated corpus and fuzzed text.
//
// Every line is read once, and each value once more at most, so the
// time stays linear in the block whatever it holds.

// maxFastKey bounds a key read here; YAML allows an implicit key of at
// most 1024 characters, and no front matter key is near this.
const maxFastKey = 128

// fastMapping reads text as a mapping of simple values. ok is false when
// text is not of that shape (or holds no key at all), and the YAML
// decoder must read it.
func fastMapping(text string) (m *yaml.Node, ok bool) {
	if strings.ContainsAny(text, "\t\r") || !printable(text) {
		return nil, false
	}
	lines := strings.Split(text, "\n")
	m = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	for i := 0; i < len(lines); {
		line := lines[i]
		if insignificant(line) {
			i++
			continue
		}
		k := keyLen(line)
		if k == 0 {
			return nil, false
		}
		if len(m.Content) == 0 {
			m.Line, m.Column = i+1, 1
		}
		key := line[:k]
		keyNode := &yaml.Node{Kind: yaml.ScalarNode, Tag: plainTag(key), Value: key, Line: i + 1, Column: 1}
		rest := line[k+1:]
		var value *yaml.Node
		if insignificantTail(rest) {
			// No value on the key's line: a block list follows, or the
			// value is null.
			next := i + 1
			for next < len(lines) && insignificant(lines[next]) {
				next++
			}
			if next < len(lines) && strings.HasPrefix(strings.TrimLeft(lines[next], " "), "-") {
				var end int
				value, end, ok = blockList(lines, next)
				if !ok {
					return nil, false
				}
				i = end
			} else {
				if next < len(lines) && lines[next][0] == ' ' {
					return nil, false // an indented value: a mapping or text
				}
				value = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Line: i + 1, Column: k + 2}
				i = next
			}
		} else {
			if rest[0] != ' ' {
				return nil, false
			}
			at := k + 1 + countSpaces(rest)
			var end int
			value, end, ok = inlineValue(line, at, i+1, false)
			if !ok || !insignificantTail(line[end:]) {
				return nil, false
			}
			i++
			// A more indented line after a value continues it (or breaks
			// the YAML): the decoder reads that.
			for i < len(lines) && insignificant(lines[i]) {
				i++
			}
			if i < len(lines) && lines[i][0] == ' ' {
				return nil, false
			}
		}
		m.Content = append(m.Content, keyNode, value)
	}
	if len(m.Content) == 0 {
		return nil, false
	}
	return m, true
}

// blockList reads the `- item` lines from lines[first], all at one
// indentation, and returns the list and the index of the line after it.
func blockList(lines []string, first int) (*yaml.Node, int, bool) {
	indent := countSpaces(lines[first])
	seq := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Line: first + 1, Column: indent + 1}
	i := first
	for i < len(lines) {
		line := lines[i]
		if insignificant(line) {
			i++
			continue
		}
		n := countSpaces(line)
		if n == 0 && indent > 0 || n == 0 && !strings.HasPrefix(line, "- ") {
			break // the next key
		}
		if n != indent || !strings.HasPrefix(line[n:], "- ") {
			return nil, 0, false
		}
		at := n + 1 + countSpaces(line[n+1:])
		item, end, ok := inlineValue(line, at, i+1, true)
		if !ok || item.Kind != yaml.ScalarNode || !insignificantTail(line[end:]) {
			return nil, 0, false
		}
		seq.Content = append(seq.Content, item)
		i++
	}
	if len(seq.Content) == 0 {
		return nil, 0, false
	}
	// What follows the list must be the next key or the end: an indented
	// line would continue the last item.
	if i < len(lines) && lines[i][0] == ' ' {
		return nil, 0, false
	}
	return seq, i, true
}

// inlineValue reads the value starting at byte at of line (a 1-based line
// of the block): a quoted or plain scalar, or, unless inList, a flow
// list. It returns the node and where the value ends on the line.
func inlineValue(line string, at, lineNo int, inList bool) (*yaml.Node, int, bool) {
	if at >= len(line) {
		return nil, 0, false
	}
	col := column(line, at)
	switch c := line[at]; {
	case c == '"' || c == '\'':
		v, end, ok := quoted(line, at)
		if !ok {
			return nil, 0, false
		}
		style := yaml.DoubleQuotedStyle
		if c == '\'' {
			style = yaml.SingleQuotedStyle
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Style: style, Value: v, Line: lineNo, Column: col}, end, true
	case c == '[' && !inList:
		return flowList(line, at, lineNo)
	}
	v, end, ok := plain(line, at)
	if !ok {
		return nil, 0, false
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: plainTag(v), Value: v, Line: lineNo, Column: col}, end, true
}

// flowList reads `[a, "b", 'c']` on one line.
func flowList(line string, at, lineNo int) (*yaml.Node, int, bool) {
	seq := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle, Line: lineNo, Column: column(line, at)}
	// Columns are counted on from the previous item, so that a long
	// list stays linear.
	colAt, col := at, seq.Column
	i := at + 1
	i += countSpaces(line[i:])
	if i < len(line) && line[i] == ']' {
		return seq, i + 1, true
	}
	for i < len(line) {
		var item *yaml.Node
		col += utf8.RuneCountInString(line[colAt:i])
		colAt = i
		switch line[i] {
		case '"', '\'':
			v, end, ok := quoted(line, i)
			if !ok {
				return nil, 0, false
			}
			style := yaml.DoubleQuotedStyle
			if line[i] == '\'' {
				style = yaml.SingleQuotedStyle
			}
			item = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Style: style, Value: v, Line: lineNo, Column: col}
			i = end
		default:
			v, end, ok := flowPlain(line, i)
			if !ok {
				return nil, 0, false
			}
			item = &yaml.Node{Kind: yaml.ScalarNode, Tag: plainTag(v), Value: v, Line: lineNo, Column: col}
			i = end
		}
		seq.Content = append(seq.Content, item)
		i += countSpaces(line[i:])
		if i >= len(line) {
			return nil, 0, false
		}
		switch line[i] {
		case ']':
			return seq, i + 1, true
		case ',':
			i++
			i += countSpaces(line[i:])
			if i >= len(line) || line[i] == ']' || line[i] == ',' {
				return nil, 0, false // a trailing or empty item: the decoder's
			}
		default:
			return nil, 0, false
		}
	}
	return nil, 0, false
}

// quoted reads a quoted scalar on one line. A double-quoted one with an
// escape, or one left open, is the decoder's.
func quoted(line string, at int) (string, int, bool) {
	q := line[at]
	var b strings.Builder
	start := at + 1
	for i := start; i < len(line); i++ {
		c := line[i]
		if c == '\\' && q == '"' {
			return "", 0, false
		}
		if c != q {
			continue
		}
		if q == '\'' && i+1 < len(line) && line[i+1] == '\'' {
			b.WriteString(line[start : i+1])
			i++
			start = i + 1
			continue
		}
		v := line[start:i]
		if b.Len() > 0 {
			b.WriteString(v)
			v = b.String()
		}
		return v, i + 1, true
	}
	return "", 0, false
}

// plain reads a plain scalar in block context: from a letter to the end
// of the line or a comment, trailing spaces left out. A `: ` inside
// would make it a key, and is the decoder's.
func plain(line string, at int) (string, int, bool) {
	if r, _ := utf8.DecodeRuneInString(line[at:]); !unicode.IsLetter(r) {
		return number(line, at)
	}
	end := len(line)
	if c := strings.Index(line[at:], " #"); c >= 0 {
		end = at + c
	}
	v := strings.TrimRight(line[at:end], " ")
	if strings.Contains(v, ": ") || strings.HasSuffix(v, ":") {
		return "", 0, false
	}
	return v, at + len(v), true
}

// flowPlain reads a plain item of a flow list: a letter, then letters,
// digits, spaces and a few safe marks, up to `,` or `]`.
func flowPlain(line string, at int) (string, int, bool) {
	if r, _ := utf8.DecodeRuneInString(line[at:]); !unicode.IsLetter(r) {
		return number(line, at)
	}
	i := at
	for i < len(line) {
		r, size := utf8.DecodeRuneInString(line[i:])
		if r == ',' || r == ']' {
			break
		}
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune(" .-_'()/", r)) {
			return "", 0, false
		}
		i += size
	}
	v := strings.TrimRight(line[at:i], " ")
	return v, at + len(v), true
}

// number reads a small whole number written plainly (a story day, an
// age): 0, or up to nine digits not starting with 0, ended by a space, a
// `,` or `]`, or the line's end. Other numbers, dates and times are the
// decoder's.
func number(line string, at int) (string, int, bool) {
	i := at
	for i < len(line) && '0' <= line[i] && line[i] <= '9' {
		i++
	}
	n := i - at
	if n == 0 || n > 9 || n > 1 && line[at] == '0' {
		return "", 0, false
	}
	if i < len(line) && line[i] != ' ' && line[i] != ',' && line[i] != ']' {
		return "", 0, false
	}
	return line[at:i], i, true
}

// plainTag is the tag the decoder resolves a plain scalar to, for the
// ones read here: a number, or text starting with a letter.
func plainTag(v string) string {
	if v != "" && '0' <= v[0] && v[0] <= '9' {
		return "!!int"
	}
	switch v {
	case "true", "True", "TRUE", "false", "False", "FALSE":
		return "!!bool"
	case "null", "Null", "NULL":
		return "!!null"
	}
	return "!!str"
}

// keyLen is the length of the key a line starts with, a letter then
// letters, digits, `_` and `-` (ASCII), followed by a colon; 0 if none.
func keyLen(line string) int {
	for i := 0; i < len(line) && i <= maxFastKey; i++ {
		c := line[i]
		switch {
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '_' || c == '-'):
		case c == ':' && i > 0:
			return i
		default:
			return 0
		}
	}
	return 0
}

// printable reports whether the decoder takes every character of s as
// text as it is: lines of no control characters, none of YAML's other
// line breaks (U+0085, U+2028, U+2029), no byte order mark.
func printable(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\n' || c == 0x7F {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if !printableRune(r) {
			return false
		}
		i += size
	}
	return true
}

// printableRune reports whether the decoder takes a character wider than
// ASCII as text.
func printableRune(r rune) bool {
	switch {
	case r == 0x2028 || r == 0x2029 || r == 0xFEFF || r == utf8.RuneError:
		return false
	}
	return r >= 0xA0 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= unicode.MaxRune
}

// insignificant reports a blank line or a comment.
func insignificant(line string) bool {
	rest := strings.TrimLeft(line, " ")
	return rest == "" || rest[0] == '#'
}

// insignificantTail reports whether what follows a value on its line is
// nothing, spaces, or a comment after a space.
func insignificantTail(tail string) bool {
	rest := strings.TrimLeft(tail, " ")
	return rest == "" || rest[0] == '#' && len(rest) < len(tail)
}

func countSpaces(s string) int {
	return len(s) - len(strings.TrimLeft(s, " "))
}

// column is the decoder's 1-based column of byte at: it counts
// characters.
func column(line string, at int) int {
	return utf8.RuneCountInString(line[:at]) + 1
}
