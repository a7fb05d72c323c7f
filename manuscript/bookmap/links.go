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
	if t := m.editorURI; t != "" && safeTemplate(t) {
		return fillEditorURI(t, abs, line, column)
	}
	return "file://" + escapePath(fileURIPath(abs)) + "#L" + strconv.Itoa(line)
}

// fileURIPath is a slash-separated absolute path as a file URI's path:
// a Windows one (C:/book/…) after a slash.
func fileURIPath(abs string) string {
	if !strings.HasPrefix(abs, "/") {
		return "/" + abs
	}
	return abs
}

func escapePath(p string) string { return (&url.URL{Path: p}).EscapedPath() }

// fillEditorURI fills a template's {path} with the absolute path as the
// system writes it, slash-separated and escaped (/home/zoe/… or
// C:/Users/Zoe/…), {line} and {column}. Editors' templates put a slash
// before the path (vscode://file/{path}); a path that starts with one
// does not double it, since vscode://file//home/… and vscode://file//C:/…
// name a network share, not the file.
func fillEditorURI(template, abs string, line, column int) string {
	escaped := escapePath(fileURIPath(abs)) // always starts with a slash
	asWritten := escaped
	if !strings.HasPrefix(abs, "/") {
		asWritten = escaped[1:]
	}
	// At one position the first listed match wins, and "/{path}" starts
	// before its "{path}".
	return strings.NewReplacer(
		"/{path}", escaped,
		"{path}", asWritten,
		"{line}", strconv.Itoa(line),
		"{column}", strconv.Itoa(column),
	).Replace(template)
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
