package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/llm"
	"github.com/quire-ink/quire/server/wire"
)

// "Peek prompt", "Look up <Name>" and "Where is this established?" are
// code actions whose command returns its result, and most editors (Helix,
// eglot) show a command's result nowhere. Run as commands, they also give
// the writer something to see: a document opened with window/showDocument
// when the client can open one, else a message. The document lives in the
// user cache, never in the book, as answers do.

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
	if s.showDocumentSupported() && s.showDocument(ctx, pathURI(path)) {
		return
	}
	s.showMessage(ctx, protocol.MessageTypeInfo, msg)
}

// quirePeekPromptCommand is quire.peekPrompt as a command: the request
// that quire.ask would send, written as a document.
func (s *Server) quirePeekPromptCommand(ctx context.Context, params json.RawMessage) (any, error) {
	out, err := s.quirePeekPrompt(ctx, params)
	if err != nil {
		return out, err
	}
	a, _ := decode[wire.AskParams](params)
	persona := llm.ResolvePersona(a.Persona)
	if a.Persona == "" {
		persona = llm.ResolvePersona(s.adv.settings().Persona)
	}
	body, _ := out.(json.RawMessage)
	var pretty bytes.Buffer
	if json.Indent(&pretty, body, "", "  ") != nil {
		pretty.Reset()
		pretty.Write(body)
	}
	pretty.WriteString("\n")
	path, err := s.writeCacheDoc("prompts", persona.ID, ".json", pretty.String())
	if err != nil {
		s.log.Warn("prompt document not written", "err", err)
		s.showMessage(ctx, protocol.MessageTypeWarning, fmt.Sprintf("quire could not write the prompt for the %s: %v", persona.Name, err))
		return out, nil
	}
	s.showDoc(ctx, path, fmt.Sprintf("The request quire would send to the %s (nothing was sent) is in %s", persona.Name, path))
	return out, nil
}

// quireLookupCommand is quire.lookup as a command: the best entry opened,
// or named with its summary and file.
func (s *Server) quireLookupCommand(ctx context.Context, params json.RawMessage) (any, error) {
	out, err := s.quireLookup(ctx, params)
	if err != nil {
		return out, err
	}
	res, ok := out.(wire.QueryResult)
	if !ok {
		return out, nil
	}
	if len(res.Results) == 0 {
		s.showMessage(ctx, protocol.MessageTypeInfo, fmt.Sprintf("No codex entry matches %q.", res.Query))
		return out, nil
	}
	e := res.Results[0]
	path := filepath.Join(e.ProjectPath, filepath.FromSlash(e.RelativePath))
	var msg strings.Builder
	fmt.Fprintf(&msg, "%s (%s)", e.Name, e.Type)
	if e.Summary != "" {
		fmt.Fprintf(&msg, ": %s", e.Summary)
	}
	fmt.Fprintf(&msg, "\n\n%s", path)
	s.showDoc(ctx, path, msg.String())
	return out, nil
}

// explicatePreview bounds the passages an explicate message quotes.
const explicatePreview = 3

// quireExplicateCommand is quire.explicate as a command: the passages
// that support the quote, as a document.
func (s *Server) quireExplicateCommand(ctx context.Context, params json.RawMessage) (any, error) {
	out, err := s.quireExplicate(ctx, params)
	if err != nil {
		return out, err
	}
	res, ok := out.(wire.ExplicateResult)
	if !ok {
		return out, nil
	}
	if len(res.Passages) == 0 {
		s.showMessage(ctx, protocol.MessageTypeInfo, fmt.Sprintf("No passage of the manuscript establishes %q.", foldPreview(res.Quote, 80)))
		return out, nil
	}
	var doc, msg strings.Builder
	fmt.Fprintf(&doc, "# Where is this established?\n\n")
	for _, line := range strings.Split(strings.TrimSpace(res.Quote), "\n") {
		fmt.Fprintf(&doc, "> %s\n", line)
	}
	fmt.Fprintf(&msg, "Where %q is established:", foldPreview(res.Quote, 80))
	for i, p := range res.Passages {
		place := p.Path
		if p.Location != nil {
			place = fmt.Sprintf("%s:%d", p.Path, p.Location.Range.Start.Line+1)
		}
		title := p.Title
		if title == "" {
			title = p.Path
		}
		fmt.Fprintf(&doc, "\n## %s\n\n", title)
		if p.Location != nil {
			fmt.Fprintf(&doc, "[%s](%s)\n\n", place, locationURI(*p.Location))
		} else {
			fmt.Fprintf(&doc, "%s\n\n", place)
		}
		fmt.Fprintf(&doc, "%s\n", strings.TrimSpace(p.Text))
		if i < explicatePreview {
			fmt.Fprintf(&msg, "\n\n%s: %s", place, foldPreview(p.Text, answerPreview))
		}
	}
	path, err := s.writeCacheDoc("explications", "passages", ".md", doc.String())
	if err != nil {
		s.log.Warn("explication document not written", "err", err)
		s.showMessage(ctx, protocol.MessageTypeInfo, msg.String())
		return out, nil
	}
	fmt.Fprintf(&msg, "\n\nAll passages: %s", path)
	s.showDoc(ctx, path, msg.String())
	return out, nil
}

// locationURI is a link to a location's line, in the form editors follow
// in Markdown (file:///…#L12).
func locationURI(l protocol.Location) string {
	return fmt.Sprintf("%s#L%d", l.URI, l.Range.Start.Line+1)
}
