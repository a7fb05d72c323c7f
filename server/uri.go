package server

import (
	"net/url"
	"path/filepath"
	"strings"

	"go.lsp.dev/protocol"
)

// uriPath is the local path of a file: URI; ok is false for any other
// scheme (untitled:, git:, vscode-notebook-cell:), which quire reads as
// text it has no project for.
func uriPath(u protocol.DocumentURI) (string, bool) {
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
	if len(p) >= 3 && p[0] == '/' && p[2] == ':' {
		p = p[1:]
	}
	if p == "" {
		return "", false
	}
	return filepath.FromSlash(p), true
}

// pathURI is the file: URI of a local path.
func pathURI(path string) protocol.DocumentURI {
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return protocol.DocumentURI((&url.URL{Scheme: "file", Path: p}).String())
}
