package codex

import (
	"bytes"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode"
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
	// keys holds every top-level key in lower case, for locked-field
	// checks.
	keys map[string]bool
	// typeRange locates the type value, for an unknown-type warning.
	typeRange, statusRange Range
	lockedRanges           []Range
	nameRange              Range
	aliasRanges            []Range
}

// yamlDoc maps line/column positions inside the front matter block back
// to byte offsets in the file.
type yamlDoc struct {
	src   []byte
	block Range
	// lines holds each line of the block without its line break; ascii
	// says which lines have only single-byte characters, where a column
	// is a byte count.
	lines []Range
	ascii []bool
	// cursor remembers the last column found on a line with wider
	// characters: the items of a long flow list come in order, and
	// walking on from the previous one keeps the whole list linear.
	cursor struct{ line, col, off int }
}

func newYAMLDoc(src []byte, block Range) *yamlDoc {
	d := &yamlDoc{src: src, block: block}
	for start := block.Start; ; {
		end, next := lineAt(src[:block.End], start)
		ascii := true
		for _, c := range src[start:end] {
			if c >= utf8.RuneSelf {
				ascii = false
				break
			}
		}
		d.lines = append(d.lines, Range{start, end})
		d.ascii = append(d.ascii, ascii)
		if next >= block.End {
			break
		}
		start = next
	}
	return d
}

// lineRange is the byte range of 1-based line n of the block, without its
// line break.
func (d *yamlDoc) lineRange(n int) Range {
	if n < 1 {
		n = 1
	}
	if n > len(d.lines) {
		return Range{d.block.End, d.block.End}
	}
	return d.lines[n-1]
}

// nodeRange covers a node from its position to the end of its line. YAML
// columns count characters, so outside ASCII lines they are walked as
// runes.
func (d *yamlDoc) nodeRange(n *yaml.Node) Range {
	line := d.lineRange(n.Line)
	var off int
	switch {
	case n.Line < 1 || n.Line > len(d.lines):
		off = line.Start
	case d.ascii[n.Line-1]:
		off = line.Start + min(max(n.Column-1, 0), line.Len())
	default:
		col, at := 1, line.Start
		if c := d.cursor; c.line == n.Line && c.col <= n.Column {
			col, at = c.col, c.off
		}
		for ; col < n.Column && at < line.End; col++ {
			_, size := utf8.DecodeRune(d.src[at:line.End])
			at += size
		}
		d.cursor.line, d.cursor.col, d.cursor.off = n.Line, col, at
		off = at
	}
	end := line.End
	if n.Kind == yaml.ScalarNode && !strings.Contains(n.Value, "\n") {
		switch {
		case n.Style&yaml.DoubleQuotedStyle != 0:
			end = off + quotedLen(d.src[off:end], '"')
		case n.Style&yaml.SingleQuotedStyle != 0:
			end = off + quotedLen(d.src[off:end], '\'')
		default:
			// A plain value is its source text, character for character
			// (bad bytes were replaced one for one).
			width := len(n.Value)
			if n.Line >= 1 && n.Line <= len(d.ascii) && !d.ascii[n.Line-1] {
				width = 0
				for r := utf8.RuneCountInString(n.Value); r > 0 && off+width < end; r-- {
					_, size := utf8.DecodeRune(d.src[off+width : end])
					width += size
				}
			}
			end = min(end, off+width)
		}
	}
	return Range{off, end}
}

// quotedLen measures a quoted scalar as written, quotes included, so that
// a rename replaces all of it: the decoded value is shorter than its source
// whenever it holds an escape (a backslash, or a doubled single quote). A
// quote left open on this line runs to the line's end.
func quotedLen(line []byte, quote byte) int {
	if len(line) == 0 || line[0] != quote {
		return len(line)
	}
	for i := 1; i < len(line); i++ {
		switch {
		case quote == '"' && line[i] == '\\':
			i++
		case line[i] == quote && quote == '\'' && i+1 < len(line) && line[i+1] == '\'':
			i++
		case line[i] == quote:
			return i + 1
		}
	}
	return len(line)
}

// fileLine converts a 1-based line of the block to a 1-based line of the
// file, for messages a writer can follow.
func (d *yamlDoc) fileLine(n int) int {
	return bytes.Count(d.src[:d.block.Start], []byte("\n")) + n
}

var yamlLineRe = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// yamlError turns a YAML syntax error into a problem on its line. The
// parser reports lines inconsistently (1-based for scanner errors, 0-based
// for most parser errors, sometimes the line where the broken construct
// began), so when the first key that fails to parse on its own is known
// (lines first..last of the block), the reported line is only trusted if
// it lands there.
func (d *yamlDoc) yamlError(path string, err error, first, last int) Problem {
	msg := err.Error()
	line := 0
	if m := yamlLineRe.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = m[2]
	} else {
		msg = strings.TrimPrefix(msg, "yaml: ")
	}
	if first > 0 {
		switch {
		case line >= first && line <= last:
		case line+1 >= first && line+1 <= last:
			line++
		default:
			line = first
		}
	}
	r := d.block
	if line > 0 {
		r = d.lineRange(line)
	}
	return Problem{Path: path, Code: CodeYAML, Severity: SeverityError,
		Message: "front matter is not valid YAML: " + msg, Range: r}
}

// decodeHeader reads the front matter block. When the block as a whole is
// not valid YAML, each top-level key is decoded on its own so that one bad
// line does not cost the entry its name and type. source is src as the
// entry keeps it: the values read from valid UTF-8 are pieces of it, so a
// codex of 10,000 entries does not hold its front matter twice.
func decodeHeader(path string, src []byte, source string, block Range) (header, []Problem) {
	return decodeHeaderWith(path, src, source, block, true)
}

// decodeHeaderWith is decodeHeader, with the fast reading of simple front
// matter (frontmatter_fast.go) or without, for tests to compare the two.
func decodeHeaderWith(path string, src []byte, source string, block Range, fast bool) (header, []Problem) {
	d := newYAMLDoc(src, block)
	text := validPerByte(source[block.Start:block.End])
	var h header
	if strings.TrimSpace(text) == "" {
		return h, nil
	}
	if fast {
		if m, ok := fastMapping(text); ok {
			return d.readMapping(path, m)
		}
	}
	var doc yaml.Node
	err := yaml.Unmarshal([]byte(text), &doc)
	if err == nil {
		root := &doc
		if root.Kind == yaml.DocumentNode && len(root.Content) > 0 {
			root = root.Content[0]
		}
		if root.Kind == 0 || root.Kind == yaml.DocumentNode {
			// Only comments: a writer parking notes, not a malformed block.
			return h, nil
		}
		if root.Kind != yaml.MappingNode {
			return h, []Problem{{Path: path, Code: CodeYAML, Severity: SeverityError,
				Message: "front matter must be a set of `key: value` lines", Range: block}}
		}
		return d.readMapping(path, root)
	}
	var pairs []*yaml.Node
	first, last := 0, 0
	for i, chunk := range topLevelChunks(text) {
		if i == maxYAMLNodes {
			break // past any real front matter; the error is reported
		}
		var n yaml.Node
		if yaml.Unmarshal([]byte(chunk.text), &n) != nil {
			if first == 0 {
				first, last = chunk.line, chunk.line+strings.Count(strings.TrimSuffix(chunk.text, "\n"), "\n")
			}
			continue
		}
		if len(n.Content) == 0 || n.Content[0].Kind != yaml.MappingNode {
			continue
		}
		for _, c := range n.Content[0].Content {
			shiftLines(c, chunk.line-1)
		}
		pairs = append(pairs, n.Content[0].Content...)
	}
	problems := []Problem{d.yamlError(path, err, first, last)}
	h, more := d.readMapping(path, &yaml.Node{Kind: yaml.MappingNode, Content: pairs})
	return h, append(problems, more...)
}

// validPerByte replaces each invalid byte with U+FFFD, one for one, so that
// the columns the YAML parser reports still count the file's characters
// as nodeRange walks them (strings.ToValidUTF8 would merge a run of bad
// bytes into a single replacement). Valid text is returned as it is.
func validPerByte(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var out strings.Builder
	out.Grow(len(s) + 8)
	for len(s) > 0 {
		r, size := utf8.DecodeRuneInString(s)
		out.WriteRune(r)
		s = s[size:]
	}
	return out.String()
}

type chunk struct {
	text string
	line int
}

// topLevelChunks splits YAML text into one piece per top-level key: a
// line at column zero starts a piece; indented and blank lines continue it.
// Pieces are slices of text, never concatenations, so that a block of
// many continuation lines stays linear to split.
func topLevelChunks(text string) []chunk {
	var chunks []chunk
	start, startLine := 0, 1
	line := 1
	for pos := 0; pos < len(text); line++ {
		end := len(text)
		if i := strings.IndexByte(text[pos:], '\n'); i >= 0 {
			end = pos + i + 1
		}
		c := text[pos]
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '#' && pos > start {
			chunks = append(chunks, chunk{text: text[start:pos], line: startLine})
			start, startLine = pos, line
		}
		pos = end
	}
	if start < len(text) {
		chunks = append(chunks, chunk{text: text[start:], line: startLine})
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
	h.keys = map[string]bool{}
	budget := maxYAMLNodes
	customFull := false
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			problem(CodeFieldType, SeverityWarning, k, "front matter keys must be plain words")
			continue
		}
		key := strings.TrimSpace(k.Value)
		lower := strings.ToLower(key)
		// Synonyms fill the same field, so they count as one key: with
		// both `summary:` and `description:` the first wins, as it does
		// for a key written twice.
		field := lower
		switch lower {
		case "description":
			field = "summary"
		case "alias":
			field = "aliases"
		case "tag":
			field = "tags"
		}
		if first, dup := seen[field]; dup {
			// Past the listing limit a repeated key is only counted, so
			// that thousands of them cost no more than reading them.
			if len(problems) >= MaxProblemsPerFile {
				problems = countUnlisted(problems, path, SeverityWarning, d.nodeRange(k))
				continue
			}
			if strings.EqualFold(first.Value, key) {
				problem(CodeDuplicateKey, SeverityWarning, k,
					"duplicate key %q: the value on line %d is used and this one is ignored", key, d.fileLine(first.Line))
			} else {
				problem(CodeDuplicateKey, SeverityWarning, k,
					"%q means the same as %q: the value on line %d is used and this one is ignored", key, first.Value, d.fileLine(first.Line))
			}
			continue
		}
		seen[field] = k
		h.keys[lower] = true
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
			h.Aliases, h.aliasRanges = d.dropLongAliases(path, h.Aliases, h.aliasRanges, &problems)
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
			// Custom fields are shown in hover cards and proposals: past
			// MaxListItems they are dropped, and said to be, once.
			if len(h.Custom) == MaxListItems {
				if !customFull {
					customFull = true
					problem(CodeFieldType, SeverityWarning, k, "more than %d custom fields; the rest, from %q on, are ignored", MaxListItems, key)
				}
				continue
			}
			h.Custom = append(h.Custom, Field{Key: key, Value: nodeValue(FollowAlias(v), &budget)})
		}
	}
	if budget < 0 {
		problems = append(problems, Problem{Path: path, Code: CodeFieldType, Severity: SeverityWarning,
			Message: fmt.Sprintf("front matter is too deeply nested or aliased; values past %d nodes were dropped", maxYAMLNodes),
			Range:   d.block})
	}
	return h, problems
}

// scalar reads a single text value; a list or mapping is reported and
// ignored.
func (d *yamlDoc) scalar(path string, k, v *yaml.Node, problems *[]Problem) string {
	v = FollowAlias(v)
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
	v = FollowAlias(v)
	var items []string
	var ranges []Range
	// Items past MaxListItems are dropped, and said to be, once.
	full := false
	add := func(s string, r Range) {
		if full {
			return
		}
		if s = strings.TrimSpace(s); s == "" {
			return
		}
		if len(items) == MaxListItems {
			full = true
			*problems = append(*problems, Problem{Path: path, Code: CodeFieldType, Severity: SeverityWarning,
				Message: fmt.Sprintf("`%s` has more than %d items; only the first %d are used", k.Value, MaxListItems, MaxListItems),
				Range:   r})
			return
		}
		items = append(items, s)
		ranges = append(ranges, r)
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
		// A plain one-line scalar is its own source text, so each part
		// can point at itself; otherwise every part points at the value.
		whole := d.nodeRange(v)
		exact := v.Style == 0 && whole.Len() == len(v.Value) && string(d.src[whole.Start:whole.End]) == v.Value
		pos := 0
		for part := range strings.SplitSeq(v.Value, ",") {
			if full {
				break
			}
			r := whole
			if exact {
				lead := len(part) - len(strings.TrimLeftFunc(part, unicode.IsSpace))
				r = Range{whole.Start + pos + lead, whole.Start + pos + len(strings.TrimRightFunc(part, unicode.IsSpace))}
			}
			add(part, r)
			pos += len(part) + 1
		}
	case yaml.SequenceNode:
		for _, item := range v.Content {
			if full {
				break
			}
			item = FollowAlias(item)
			if item.Kind == yaml.ScalarNode && item.ShortTag() == "!!null" {
				continue // "- ~" is an empty slot, not an alias named "~"
			}
			if item.Kind != yaml.ScalarNode && len(*problems) >= MaxProblemsPerFile {
				*problems = countUnlisted(*problems, path, SeverityWarning, d.nodeRange(item))
				continue
			}
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

// dropLongAliases leaves out aliases longer than MaxAliasBytes: such text
// is no name a writer types in prose, and every alias is matched against
// the whole book.
func (d *yamlDoc) dropLongAliases(path string, aliases []string, ranges []Range, problems *[]Problem) ([]string, []Range) {
	keep := 0
	for i, a := range aliases {
		if len(a) > MaxAliasBytes {
			*problems = append(*problems, Problem{Path: path, Code: CodeFieldType, Severity: SeverityWarning,
				Message: fmt.Sprintf("an alias of %d characters is too long to be a name (the limit is %d bytes); it is ignored", utf8.RuneCountInString(a), MaxAliasBytes),
				Range:   ranges[i]})
			continue
		}
		aliases[keep], ranges[keep] = a, ranges[i]
		keep++
	}
	return aliases[:keep], ranges[:keep]
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
	n = FollowAlias(n)
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
