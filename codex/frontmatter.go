package codex

import "bytes"

// frontMatter locates a YAML block fenced by "---" lines at the top of a file.
type frontMatter struct {
	// Present is true when the file opens with a fence.
	Present bool
	// Closed is false when no closing fence was found; YAML then holds the
	// lines up to the first blank line or heading, the best guess at where
	// the writer meant the block to end.
	Closed bool
	// Open covers the opening fence line; YAML the block between fences;
	// Body what follows the closing fence line.
	Open, YAML, Body Range
}

// splitFrontMatter finds the front matter of src. A UTF-8 byte order mark
// before the opening fence is tolerated; "..." closes a block as in YAML.
func splitFrontMatter(src []byte) frontMatter {
	start := 0
	if bytes.HasPrefix(src, []byte("\xEF\xBB\xBF")) {
		start = 3
	}
	first, next := lineAt(src, start)
	if !isFence(src[start:first], "---") {
		return frontMatter{Body: Range{start, len(src)}}
	}
	fm := frontMatter{Present: true, Open: Range{start, first}}
	for pos := next; pos < len(src); {
		end, after := lineAt(src, pos)
		line := src[pos:end]
		if isFence(line, "---") || isFence(line, "...") {
			fm.Closed = true
			fm.YAML = Range{next, pos}
			fm.Body = Range{after, len(src)}
			return fm
		}
		pos = after
	}
	// Unclosed: guess the block ends at the first blank line or heading.
	pos := next
	for pos < len(src) {
		end, after := lineAt(src, pos)
		line := bytes.TrimSpace(src[pos:end])
		if len(line) == 0 || line[0] == '#' {
			break
		}
		pos = after
	}
	fm.YAML = Range{next, pos}
	fm.Body = Range{pos, len(src)}
	return fm
}

// lineAt returns the end of the line starting at pos (before any \r\n or
// \n) and the start of the next line.
func lineAt(src []byte, pos int) (end, next int) {
	i := bytes.IndexByte(src[pos:], '\n')
	if i < 0 {
		return len(src), len(src)
	}
	end = pos + i
	next = end + 1
	if end > pos && src[end-1] == '\r' {
		end--
	}
	return end, next
}

func isFence(line []byte, fence string) bool {
	return string(bytes.TrimRight(line, " \t")) == fence
}
