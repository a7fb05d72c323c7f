package server

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex"
)

// Documents shown to the writer. "Peek prompt", "Look up <Name>" and
// "Where is this established?" are code actions whose command returns its
// result, and most editors (Helix, eglot) show a command's result
// nowhere. Run as commands, they also give the writer something to see: a
// document opened with window/showDocument when the client can open one,
// else a message. The document lives in the user cache, never in the
// book, as answers do (answer_doc.go).

// writeCacheDoc writes text as a new document named <time>-<stem><ext> in
// the cache folder kind ("prompts", "explications") and returns its path.
func (s *Server) writeCacheDoc(kind, stem, ext, text string) (string, error) {
	dir, err := s.cacheSubdir(kind)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("%s folder: %w", kind, err)
	}
	path := filepath.Join(dir, fmt.Sprintf("%s-%s%s", time.Now().Format("20060102-150405.000"), stem, ext))
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		return "", fmt.Errorf("write %s: %w", kind, err)
	}
	pruneAnswers(dir)
	return path, nil
}

// showDoc opens path in the client when it can; else, and when opening
// fails, it tells the writer msg.
func (s *Server) showDoc(ctx context.Context, path, msg string) {
	if s.showDocumentSupported() && s.showDocument(ctx, s.names.URI(path)) {
		return
	}
	s.showMessage(ctx, protocol.MessageTypeInfo, msg)
}

// cacheSubdir is the folder kind in quire's user cache folder (in
// Options.CacheDir when set).
func (s *Server) cacheSubdir(kind string) (string, error) {
	if s.opts.CacheDir != "" {
		return filepath.Join(s.opts.CacheDir, kind), nil
	}
	dir, err := codex.CacheDirFor("")
	if err != nil {
		return "", err
	}
	return filepath.Join(filepath.Dir(dir), kind), nil
}

func (s *Server) showDocumentSupported() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.client.Window != nil && s.client.Window.ShowDocument != nil && s.client.Window.ShowDocument.Support
}

// showDocument asks the client to open uri and reports whether it did.
func (s *Server) showDocument(ctx context.Context, uri protocol.DocumentURI) bool {
	return s.callShowDocument(ctx, map[string]any{"uri": uri, "takeFocus": true})
}

// showExternal asks the client to open uri outside the editor (the
// browser, for a page) and reports whether it did.
func (s *Server) showExternal(ctx context.Context, uri protocol.DocumentURI) bool {
	return s.callShowDocument(ctx, map[string]any{"uri": uri, "external": true})
}

// callShowDocument sends window/showDocument with params and reports
// whether the client says it showed the document.
func (s *Server) callShowDocument(ctx context.Context, params map[string]any) bool {
	callCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	var shown struct {
		Success bool `json:"success"`
	}
	if err := s.callClient(callCtx, "window/showDocument", params, &shown); err != nil || !shown.Success {
		s.log.Debug("document not shown", "uri", params["uri"], "err", err)
		return false
	}
	return true
}
