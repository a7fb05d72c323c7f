package server

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/quire-ink/quire/codex/count"
	"github.com/quire-ink/quire/llm"
	"github.com/quire-ink/quire/server/wire"
)

// An editor with no chat panel (Helix, eglot, Zed) asks through the
// quire.ask command, and the command's result is not shown to the writer.
// So the answer is also written as a Markdown document in the user cache
// folder, never in the book, and opened with window/showDocument, or
// named in a message when the client cannot open it. Its proposals can be
// applied or discarded there with code actions.

// keptAnswers bounds the answer documents kept in the cache folder.
const keptAnswers = 50

// proposalMarker tags a proposal in an answer document, so the code
// actions in that document know which proposals it holds.
var proposalMarker = regexp.MustCompile(`<!-- quire-proposal: (p-[0-9a-f]+) -->`)

func (s *Server) answersDir() (string, error) { return s.cacheSubdir("answers") }

// inAnswers reports whether path is an answer document.
func (s *Server) inAnswers(path string) bool {
	dir, err := s.answersDir()
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(dir, path)
	return err == nil && !strings.HasPrefix(rel, "..") && !filepath.IsAbs(rel)
}

// personaName is the name of the persona an ask with persona id goes to,
// chosen as the ask chooses it; "advisor" for one nobody is, which the
// ask then refuses.
func (s *Server) personaName(id string) string {
	p, err := llm.ChoosePersona(id, s.clientCfg.settings().Persona)
	if err != nil {
		return "advisor"
	}
	return p.Name
}

// answerPreview bounds the start of an answer a message quotes.
const answerPreview = 200

// answeredMessage tells the writer an answer came: its start on the
// first line, then where the whole of it is.
func answeredMessage(persona string, res wire.AskResult, path string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s answered: %s", persona, foldPreview(res.Answer, answerPreview))
	for _, w := range res.Warnings {
		fmt.Fprintf(&b, "\n\nquire: %s", w)
	}
	if n := len(res.Proposals); n > 0 {
		fmt.Fprintf(&b, "\n\n%s proposed %d change", persona, n)
		if n > 1 {
			b.WriteString("s")
		}
		b.WriteString(" to the codex: open the answer to apply or discard them.")
	}
	if path != "" {
		fmt.Fprintf(&b, "\n\nFull answer: %s", path)
	}
	return b.String()
}

// foldPreview folds text onto one line and cuts it after about limit
// characters, on a space when there is one near, marking the cut with "…".
func foldPreview(text string, limit int) string {
	folded := strings.Join(strings.Fields(text), " ")
	runes := []rune(folded)
	if len(runes) <= limit {
		return folded
	}
	cut := limit
	for i := limit; i > limit*3/4; i-- {
		if runes[i] == ' ' {
			cut = i
			break
		}
	}
	return strings.TrimRight(string(runes[:cut]), " ,;:") + "…"
}

// writeAnswer writes the answer document and returns its path.
func (s *Server) writeAnswer(ctx context.Context, a wire.AskParams, res wire.AskResult) (string, error) {
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
	// An advisor action's message is a long prompt; its name says what
	// the writer asked.
	asked := a.Message
	if a.Action != "" {
		asked = a.Action
	}
	for _, line := range strings.Split(strings.TrimSpace(asked), "\n") {
		fmt.Fprintf(&b, "> %s\n", line)
	}
	fmt.Fprintf(&b, "\n%s\n", strings.TrimSpace(res.Answer))
	// What quire says of the answer (that it was cut, that it was given
	// without the book) follows it, marked as quire's: the answer itself
	// is the model's text alone.
	for _, w := range res.Warnings {
		fmt.Fprintf(&b, "\n**quire:** %s\n", w)
	}
	writeManifest(&b, res)
	if len(res.Proposals) > 0 {
		b.WriteString("\n## Proposed changes\n\nApply or discard each one with a code action in this document.\n")
		for _, id := range res.Proposals {
			_, p, err := s.findProposal(ctx, wire.ProposalParams{ID: id})
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

// answerActions are the code actions of an answer document: its proposals.
func (s *Server) answerActions(ctx context.Context, path string) []codeAction {
	text := ""
	if doc := s.openDocAt(path); doc != nil {
		text = doc.Text
	} else if b, err := os.ReadFile(path); err == nil {
		text = string(b)
	}
	var ids []string
	for _, m := range proposalMarker.FindAllStringSubmatch(text, -1) {
		ids = append(ids, m[1])
	}
	return s.proposalActions(ctx, ids)
}

// evidenceAsOf says which chapter an entry was read as of, for the
// answer's list of what it read: canon changes as the story goes on.
func evidenceAsOf(e wire.Evidence) string {
	if e.AsOf == "" {
		return ""
	}
	chapter := "chapter " + cmp.Or(e.AsOfChapter, e.AsOf)
	if e.AsOfImplied {
		return ", as of " + chapter + ", the one you were in"
	}
	return ", as of " + chapter
}

// writeManifest writes what the advisor read and why: each call in
// order with what it asked, and under it the files it read, each saying
// whether an outline led to it and whether the answer names it.
func writeManifest(b *strings.Builder, res wire.AskResult) {
	if len(res.Consulted) == 0 && len(res.Evidence) == 0 {
		return
	}
	b.WriteString("\n## What it read, and why\n\n")
	shown := make([]bool, len(res.Evidence))
	file := func(i int, call string) {
		e := res.Evidence[i]
		shown[i] = true
		fmt.Fprintf(b, "   - [%s](%s)%s", e.Path, e.URI, evidenceAsOf(e))
		if rest := strings.TrimPrefix(e.Why, call); rest != e.Why && rest != "" {
			b.WriteString(rest)
		}
		if e.Cited {
			b.WriteString(" — named in the answer")
		} else {
			b.WriteString(" — not named in the answer")
		}
		b.WriteString("\n")
	}
	for n, c := range res.Consulted {
		fmt.Fprintf(b, "%d. `%s`", n+1, c.Call)
		switch {
		case !c.OK:
			b.WriteString(" — failed")
		case c.Outlined > 0:
			fmt.Fprintf(b, " — the outline of %s", count.Of(c.Outlined, "chapter"))
		}
		b.WriteString("\n")
		for i, e := range res.Evidence {
			if !shown[i] && e.Step == n+1 {
				file(i, c.Call)
			}
		}
	}
	for i, e := range res.Evidence {
		if !shown[i] {
			fmt.Fprintf(b, "- [%s](%s) (%s%s)\n", e.Path, e.URI, e.Tool, evidenceAsOf(e))
		}
	}
}
