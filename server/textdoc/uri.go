package textdoc

import (
	"net/url"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"go.lsp.dev/protocol"
)

// URIPath is the local path of a file: URI; ok is false for any other
// scheme (untitled:, git:, vscode-notebook-cell:), which quire reads as
// text it has no project for. VS Code's file:///c%3A/… and the
// file:///C:/… of Neovim and Helix give one path, its drive letter upper
// case as Windows itself writes it.
func URIPath(u protocol.DocumentURI) (string, bool) {
	s := string(u)
	if !strings.HasPrefix(s, "file:") {
		return "", false
	}
	parsed, err := url.Parse(s)
	if err != nil || parsed.Scheme != "file" {
		return "", false
	}
	p := parsed.Path
	// file:///C:/x on Windows has the drive after the slash.
	if len(p) >= 3 && p[0] == '/' && p[2] == ':' && isDriveLetter(p[1]) {
		p = strings.ToUpper(p[1:2]) + p[2:]
	}
	if p == "" {
		return "", false
	}
	return filepath.FromSlash(p), true
}

func isDriveLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// PathURI is the file: URI of a local path, the drive letter of a
// Windows path upper case and its colon as is (file:///C:/…).
func PathURI(path string) protocol.DocumentURI {
	p := filepath.ToSlash(path)
	if len(p) >= 2 && p[1] == ':' && isDriveLetter(p[0]) {
		p = strings.ToUpper(p[:1]) + p[1:]
	}
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return protocol.DocumentURI((&url.URL{Scheme: "file", Path: p}).String())
}

// DocKey is the one name of a document, whatever the spelling of its
// URI: both drive-letter forms, and on Windows, whose file systems do not
// tell case apart, Manuscript\ and manuscript\. Maps of documents are
// keyed by it; URIs of other schemes are their own key.
func DocKey(u protocol.DocumentURI) protocol.DocumentURI {
	path, ok := URIPath(u)
	if !ok {
		return u
	}
	return PathURI(PathKey(path))
}

// PathKey is path as DocKey compares it.
func PathKey(path string) string {
	path = filepath.Clean(path)
	if runtime.GOOS == "windows" {
		path = strings.ToLower(path)
	}
	return path
}

// Names writes file URIs the way the client writes them. VS Code
// sends file:///c%3A/Users/… (drive lower case, colon escaped), Neovim
// and Helix file:///C:/Users/…; a client finds its documents by the
// URI it used, so quire answers with that very URI for a file the client
// has named, and in the client's form for any other. On Unix both forms
// are one.
type Names struct {
	mu sync.Mutex
	// form is the drive-letter form the client used first: "" until one
	// is seen, else "C:" or "c%3A"-like, told by lowerDrive and escaped.
	seenForm   bool
	lowerDrive bool
	escaped    bool
	// named are the URIs the client sent, by DocKey.
	named map[protocol.DocumentURI]protocol.DocumentURI
}

// maxNamedURIs bounds the URIs remembered; past it, files are named in
// the client's form, which every client reads as the same file.
const maxNamedURIs = 20000

// Note records a URI the client sent.
func (n *Names) Note(u protocol.DocumentURI) {
	if n == nil {
		return
	}
	path, ok := URIPath(u)
	if !ok {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.named == nil {
		n.named = map[protocol.DocumentURI]protocol.DocumentURI{}
	}
	key := PathURI(PathKey(path))
	if _, ok := n.named[key]; ok || len(n.named) < maxNamedURIs {
		n.named[key] = u
	}
	if rest, ok := strings.CutPrefix(string(u), "file:///"); ok && !n.seenForm && len(rest) >= 2 && isDriveLetter(rest[0]) {
		switch {
		case rest[1] == ':':
			n.seenForm, n.escaped = true, false
		case strings.HasPrefix(strings.ToUpper(rest[1:]), "%3A"):
			n.seenForm, n.escaped = true, true
		default:
			return
		}
		n.lowerDrive = 'a' <= rest[0] && rest[0] <= 'z'
	}
}

// URI is the URI of path for the client: the one it sent for that file,
// else PathURI's in the client's drive-letter form.
func (n *Names) URI(path string) protocol.DocumentURI {
	u := PathURI(path)
	if n == nil {
		return u
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if named, ok := n.named[PathURI(PathKey(path))]; ok {
		return named
	}
	if !n.seenForm {
		return u
	}
	rest, ok := strings.CutPrefix(string(u), "file:///")
	if !ok || len(rest) < 2 || rest[1] != ':' || !isDriveLetter(rest[0]) {
		return u
	}
	drive := rest[:1]
	if n.lowerDrive {
		drive = strings.ToLower(drive)
	}
	colon := ":"
	if n.escaped {
		colon = "%3A"
	}
	return protocol.DocumentURI("file:///" + drive + colon + rest[2:])
}
