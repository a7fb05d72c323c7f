package bookmap

import (
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
)

// unsafeSchemes run code or carry a document in a link: an editor URI
// template never needs them.
var unsafeSchemes = []string{"javascript:", "data:", "vbscript:"}

// chapterLink is the link that opens the chapter at path (relative to
// the book) at line and column: the editor URI template filled in, or
// a file:// URI with the line as #L<line>.
func (m *Map) chapterLink(path string, line, column int) string {
	abs := filepath.ToSlash(filepath.Join(m.root, filepath.FromSlash(path)))
	if !strings.HasPrefix(abs, "/") {
		// A Windows path (C:/book/…) is a file URI's path after a slash.
		abs = "/" + abs
	}
	escaped := (&url.URL{Path: abs}).EscapedPath()
	if t := m.editorURI; t != "" && safeTemplate(t) {
		return strings.NewReplacer("{path}", escaped, "{line}", strconv.Itoa(line), "{column}", strconv.Itoa(column)).Replace(t)
	}
	return "file://" + escaped + "#L" + strconv.Itoa(line)
}

func safeTemplate(t string) bool {
	lower := strings.ToLower(strings.TrimSpace(t))
	for _, s := range unsafeSchemes {
		if strings.HasPrefix(lower, s) {
			return false
		}
	}
	return strings.Contains(lower, "{path}")
}
