package server

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/llm"
)

// An editor with no chat panel (Helix, eglot, Zed) asks through the
// quire.ask command, and the command's result is not shown to the writer.
// So the answer is also written as a Markdown document in the user cache
// folder, never in the book, and opened with window/showDocument. Its
// proposals can be applied or discarded there with code actions.

// keptAnswers bounds the answer documents kept in the cache folder.
const keptAnswers = 50

// proposalMarker tags a proposal in an answer document, so the code
// actions in that document know which proposals it holds.
var proposalMarker = regexp.MustCompile(`<!-- quire-proposal: (p-[0-9a-f]+) -->`)

func (s *Server) answersDir() (string, error) {
	if s.opts.CacheDir != "" {
		return filepath.Join(s.opts.CacheDir, "answers"), nil
	}
	dir, err := codex.CacheDirFor("")
	if err != nil {
		return "", err
	}
	return filepath.Join(filepath.Dir(dir), "answers"), nil
}

// inAnswers reports whether path is an answer document.
func (s *Server) inAnswers(path string) bool {
	dir, err := s.answersDir()
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(dir, path)
	return err == nil && !strings.HasPrefix(rel, "..") && !filepath.IsAbs(rel)
}

func (s *Server) showDocumentSupported() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.client.Window != nil && s.client.Window.ShowDocument != nil && s.client.Window.ShowDocument.Support
}

// quireAskCommand is quire.ask run as a command: the ask, then its answer
// shown as a document when the client can open one.
func (s *Server) quireAskCommand(ctx context.Context, params json.RawMessage) (any, error) {
	out, err := s.quireAsk(ctx, params)
	if err != nil || !s.showDocumentSupported() {
		return out, err
	}
	res, ok := out.(askResult)
	a, derr := decode[askArgs](params)
	if !ok || derr != nil {
		return out, nil
	}
	path, err := s.writeAnswer(ctx, a, res)
	if err != nil {
		s.log.Warn("answer document not written", "err", err)
		return out, nil
	}
	callCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	var shown struct {
		Success bool `json:"success"`
	}
	if _, err := s.conn.Call(callCtx, "window/showDocument", map[string]any{"uri": pathURI(path), "takeFocus": true}, &shown); err != nil || !shown.Success {
		s.log.Debug("answer document not shown", "err", err)
	}
	return out, nil
}

// writeAnswer writes the answer document and returns its path.
func (s *Server) writeAnswer(ctx context.Context, a askArgs, res askResult) (string, error) {
	dir, err := s.answersDir()
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("answers folder: %w", err)
	}
	var b strings.Builder
	persona := llm.ResolvePersona(res.Persona)
	fmt.Fprintf(&b, "# %s\n\n", persona.Name)
	for _, line := range strings.Split(strings.TrimSpace(a.Message), "\n") {
		fmt.Fprintf(&b, "> %s\n", line)
	}
	fmt.Fprintf(&b, "\n%s\n", strings.TrimSpace(res.Answer))
	if len(res.Evidence) > 0 {
		b.WriteString("\n## What it read\n\n")
		for _, e := range res.Evidence {
			fmt.Fprintf(&b, "- [%s](%s) (%s)\n", e.Path, e.URI, e.Tool)
		}
	}
	if len(res.Proposals) > 0 {
		b.WriteString("\n## Proposed changes\n\nApply or discard each one with a code action in this document.\n")
		for _, id := range res.Proposals {
			_, p, err := s.findProposal(ctx, applyProposalArgs{ID: id})
			if err != nil {
				continue
			}
			fmt.Fprintf(&b, "\n### %s %s: %s\n<!-- quire-proposal: %s -->\n\n", p.Kind, p.Name, p.ChangeSummary, p.ID)
			for _, w := range p.Warnings {
				fmt.Fprintf(&b, "- %s\n", w)
			}
			fence := "```"
			for strings.Contains(p.Diff, fence) {
				fence += "`"
			}
			fmt.Fprintf(&b, "\n%sdiff\n%s%s\n", fence, p.Diff, fence)
		}
	}
	name := fmt.Sprintf("%s-%s.md", time.Now().Format("20060102-150405.000"), res.Persona)
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		return "", fmt.Errorf("write answer: %w", err)
	}
	pruneAnswers(dir)
	return path, nil
}

// pruneAnswers keeps the newest answer documents; their names sort by time.
func pruneAnswers(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".md") {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	for len(names) > keptAnswers {
		_ = os.Remove(filepath.Join(dir, names[0]))
		names = names[1:]
	}
}

// proposalActions offers to apply or discard each pending proposal in ids.
func (s *Server) proposalActions(ctx context.Context, ids []string) []codeAction {
	var out []codeAction
	for _, id := range ids {
		_, p, err := s.findProposal(ctx, applyProposalArgs{ID: id})
		if err != nil || !p.Applied.IsZero() {
			continue
		}
		apply := fmt.Sprintf("Apply proposal: %s %s (%s)", p.Kind, p.Name, p.ChangeSummary)
		discard := fmt.Sprintf("Discard proposal: %s %s (%s)", p.Kind, p.Name, p.ChangeSummary)
		arg := []any{map[string]string{"id": p.ID}}
		out = append(out,
			codeAction{Title: apply, Command: &actionCommand{Title: apply, Command: "quire.applyProposal", Arguments: arg}},
			codeAction{Title: discard, Command: &actionCommand{Title: discard, Command: "quire.discardProposal", Arguments: arg}})
	}
	return out
}

// answerActions are the code actions of an answer document: its proposals.
func (s *Server) answerActions(ctx context.Context, path string) []codeAction {
	text := ""
	if doc := s.openDocAt(path); doc != nil {
		text = doc.text
	} else if b, err := os.ReadFile(path); err == nil {
		text = string(b)
	}
	var ids []string
	for _, m := range proposalMarker.FindAllStringSubmatch(text, -1) {
		ids = append(ids, m[1])
	}
	return s.proposalActions(ctx, ids)
}

// pendingFor lists the pending proposals that edit rel in proj.
func (proj *project) pendingFor(rel string) []string {
	var ids []string
	for _, p := range proj.proposals.List() {
		if !p.Applied.IsZero() {
			continue
		}
		for _, e := range p.Edits {
			if e.Path == rel {
				ids = append(ids, p.ID)
				break
			}
		}
	}
	return ids
}
