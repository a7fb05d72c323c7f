package server

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	"go.lsp.dev/protocol"
	"go.yaml.in/yaml/v3"

	"github.com/quire-ink/quire/codex/trust"
	"github.com/quire-ink/quire/server/textdoc"
)

// The writer's answers to the question whether to trust a book.
const (
	trustAction  = "Trust this book"
	notNowAction = "Not now"
)

// openTrust opens the record of trusted books at path, or in the user
// config folder; without one no book is trusted.
func openTrust(path string, log *slog.Logger) *trust.Store {
	if path != "" {
		return trust.Open(path)
	}
	store, err := trust.Default()
	if err != nil {
		log.Warn("no record of trusted books; no book is trusted", "err", err)
		return nil
	}
	return store
}

// offerTrust asks the writer, once per set of settings, whether to trust
// a book whose own settings reaching beyond it were set aside: with
// window/showMessageRequest where the client has it, else with a warning
// that says how to trust it from a terminal. Until then the book works
// with the writer's own settings.
func (s *Server) offerTrust(p *openBook) {
	c := p.configOf()
	if !c.ignored {
		return
	}
	hash := c.wants.Hash()
	p.trustMu.Lock()
	asked := p.trustAsked == hash
	p.trustAsked = hash
	p.trustMu.Unlock()
	if asked {
		return
	}
	s.mu.Lock()
	canAsk := s.client.Window != nil && s.client.Window.ShowMessage != nil
	s.mu.Unlock()
	if !canAsk || s.trust == nil {
		s.showMessage(s.ctx, protocol.MessageTypeWarning, "quire: "+trust.IgnoredMessage(p.real, c.wants)+
			" (then ask again: nothing needs restarting)")
		return
	}
	var msg strings.Builder
	fmt.Fprintf(&msg, "The book in %s asks quire to:\n", p.real)
	for _, l := range c.wants.Lines() {
		msg.WriteString("- " + l + "\n")
	}
	msg.WriteString("Trust this book only if you trust whoever wrote its quire.yaml. Until you do, quire ignores these settings and uses your own.")
	s.work.Add(1)
	go func() {
		defer s.work.Done()
		var choice *protocol.MessageActionItem
		err := s.callClient(s.ctx, protocol.MethodWindowShowMessageRequest, protocol.ShowMessageRequestParams{
			Type:    protocol.MessageTypeWarning,
			Message: msg.String(),
			Actions: []protocol.MessageActionItem{{Title: trustAction}, {Title: notNowAction}},
		}, &choice)
		if err != nil || choice == nil || choice.Title != trustAction {
			s.log.Debug("book not trusted", "root", p.real, "err", err)
			return
		}
		if err := s.trust.Grant(p.real, hash, c.wants.Lines()); err != nil {
			s.showMessage(s.ctx, protocol.MessageTypeError, fmt.Sprintf("quire could not record your trust in %s: %v", p.real, err))
			return
		}
		s.refreshTrust(s.ctx, p)
		if now := p.configOf(); !now.ignored {
			s.showMessage(s.ctx, protocol.MessageTypeInfo, fmt.Sprintf("quire trusts %s now: its settings apply. To take the trust back, run: quire trust --revoke %s", p.real, p.real))
		}
	}()
}

// refreshTrust reads quire.yaml again when the writer's trust in the book
// changed since it was read (trusted from the editor, or with quire trust
// or --revoke in a terminal), so the change applies without a restart.
func (s *Server) refreshTrust(ctx context.Context, p *openBook) {
	c := p.configOf()
	if len(c.wants) == 0 {
		return
	}
	trusted, err := s.trust.Trusts(p.real, c.wants.Hash())
	if err != nil {
		s.log.Warn("trust record not read", "err", err)
	}
	if trusted != c.ignored {
		return
	}
	p.followMu.Lock()
	err = p.reloadConfig(ctx)
	p.followMu.Unlock()
	if err != nil {
		s.log.Warn("quire.yaml not applied", "err", err)
	}
	s.publishDiagnostics(ctx, p.uri(configFile))
	// What the trusted settings bring (a series' canon) shows everywhere
	// at once, as after a change on disk.
	s.publishCodexProblems(ctx, p)
	s.republishOpen()
	s.publishStatus(ctx, p)
}

// trustDiagnostics mark, in the text of quire.yaml, the settings quire
// ignores because the writer has not trusted the book, so the file says
// so for as long as it is true.
func (p *openBook) trustDiagnostics(text string) []protocol.Diagnostic {
	c := p.configOf()
	if !c.ignored {
		return nil
	}
	var doc yaml.Node
	if yaml.Unmarshal([]byte(text), &doc) != nil || len(doc.Content) == 0 {
		return nil
	}
	top := doc.Content[0]
	lines := textdoc.NewLines(text)
	var out []protocol.Diagnostic
	for i := 0; i+1 < len(top.Content); i += 2 {
		key := top.Content[i].Value
		var says []string
		for _, w := range c.wants {
			if w.Setting == key || strings.HasPrefix(w.Setting, key+".") {
				says = append(says, w.String())
			}
		}
		if len(says) == 0 {
			continue
		}
		out = append(out, protocol.Diagnostic{Range: lines.LineRange(top.Content[i].Line), Severity: protocol.DiagnosticSeverityInformation,
			Source: "quire", Code: "trust",
			Message: "quire ignores this until you trust this book, since it reaches beyond the book (" + strings.Join(says, "; ") +
				"). Answer quire's question in the editor, or run: quire trust " + p.real})
	}
	return out
}
