package server

import (
	"context"
	"fmt"
	"path"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/clip"
	"github.com/quire-ink/quire/llm"
	"github.com/quire-ink/quire/server/textdoc"
	"github.com/quire-ink/quire/server/wire"
)

// codeAction offers, for each untracked name and broken [[link]] in
// range, to create a codex entry for the name (create_entry.go); the
// fixes of continuity slips; on a line of dialogue quire is unsure of,
// the characters who may speak it (speakerActions). It then offers the
// advisor's actions on the selection or at the cursor
// (selectionActions).
func (s *Server) codeAction(ctx context.Context, p protocol.CodeActionParams) ([]codeAction, error) {
	actions := []codeAction{}
	file, ok := textdoc.URIPath(p.TextDocument.URI)
	if !ok {
		return actions, nil
	}
	if s.inAnswers(file) {
		return append(actions, filterKinds(s.answerActions(ctx, file), p.Context.Only)...), nil
	}
	proj, rel, ok := s.projectFor(file)
	if !ok || s.ready(ctx, proj) != nil {
		return actions, nil
	}
	actions = append(actions, s.createEntryActions(ctx, p)...)
	actions = append(actions, filterKinds(s.continuityActions(ctx, p, proj, rel), p.Context.Only)...)
	actions = append(actions, filterKinds(s.speakerActions(ctx, p, proj), p.Context.Only)...)
	more, err := s.selectionActions(ctx, p, proj)
	if err != nil {
		return nil, err
	}
	more = append(more, s.proposalActions(ctx, proj.pendingFor(rel))...)
	if strings.EqualFold(path.Ext(rel), ".md") {
		more = append(more, doctorAction(p.TextDocument.URI))
		chapter := false
		if u, ok := proj.ms.Snapshot().Unit(rel); ok && u.Position > 0 {
			more = append(more, wordCountsAction(p.TextDocument.URI))
			chapter = true
		}
		more = append(more, s.buildActions(ctx, p, proj, rel)...)
		more = append(more, s.useModelActions(ctx, proj)...)
		if chapter {
			more = append(more, s.snapshotActions(ctx, p, proj, rel)...)
			// Last: the scene's actions come and go as the cursor moves,
			// and the menu's other rows keep their places.
			more = append(more, s.outlineActions(ctx, p, proj)...)
		}
	}
	return append(actions, filterKinds(more, p.Context.Only)...), nil
}

// Messages the selection actions ask with.
const (
	askMessage     = "What do you think of this passage?"
	proposeMessage = "Propose a codex update for the canon this passage establishes: use propose_codex_update for an entry that exists, propose_codex_create for something new, and say what changed."
	// maxQuoteBytes bounds the quote "Where is this established?" sends.
	maxQuoteBytes = 1000
)

// selectionActions are the advisor's actions on a Markdown document of a
// project. Listing them is cheap: no model call, no index build; the
// command does the work when chosen.
//
//   - with a selection: "Ask <persona> about this" for each board member,
//     "Propose codex update from selection" and "Peek prompt" (no kind:
//     they are neither fixes nor refactorings, and an empty kind keeps
//     them in the editor's light bulb);
//   - in a codex file with a selection: "Where is this established?";
//   - on a mention of an entry: "Look up <Name>".
func (s *Server) selectionActions(ctx context.Context, p protocol.CodeActionParams, proj *openBook) ([]codeAction, error) {
	var out []codeAction
	t, ok, err := s.resolveTarget(ctx, protocol.TextDocumentPositionParams{TextDocument: p.TextDocument, Position: p.Range.Start})
	if err != nil || !ok || t.proj != proj {
		return out, nil
	}
	if ext := strings.ToLower(path.Ext(t.rel)); ext != ".md" && ext != ".markdown" {
		return out, nil
	}
	start, end, err := t.lines.RangeOffsets(p.Range)
	if err != nil {
		return out, nil
	}
	// A range that covers no whole word is the cursor: Helix always sends
	// the cursor's one-character selection, eglot point..point+1.
	if start < end && !coversWord(t.text, start, end) {
		end = start
		p.Range.End = p.Range.Start
	}
	uri := p.TextDocument.URI
	if start < end {
		selected := t.text[start:end]
		hash := codex.HashText(selected)
		// The selection travels with the hash of its text, so the ask can
		// tell the selection moved on since the action was listed.
		selection := func(persona, message string) wire.AskParams {
			r := p.Range
			return wire.AskParams{Persona: persona, URI: uri, Range: &r, Message: message, SelectionHash: hash}
		}
		command := func(title, name string, arg any) *actionCommand {
			return &actionCommand{Title: title, Command: name, Arguments: []any{arg}}
		}
		for _, persona := range llm.Personas() {
			title := fmt.Sprintf("Ask %s about this", persona.Name)
			out = append(out, codeAction{Title: title, Command: command(title, wire.CommandAsk,
				selection(persona.ID, askMessage))})
		}
		const propose = "Propose codex update from selection"
		proposal := selection("continuity-editor", proposeMessage)
		proposal.Action = propose
		out = append(out, codeAction{Title: propose, Command: command(propose, wire.CommandAsk, proposal)})
		if _, isEntry := t.cat.Get(t.rel); isEntry || strings.HasPrefix(t.rel, "codex/") {
			const where = "Where is this established?"
			out = append(out, codeAction{Title: where, Command: command(where, wire.CommandExplicate,
				explicateCommandArgs{Quote: boundQuote(selected), URI: uri})})
		}
		const peek = "Peek prompt"
		// No persona: the peek shows the writer's configured one.
		out = append(out, codeAction{Title: peek, Command: command(peek, wire.CommandPeekPrompt,
			selection("", askMessage))})
	}
	out = append(out, s.adviserActions(t, p, start, end)...)
	if atTitle(t.text, start) {
		out = append(out, bookMapAction(uri))
	}
	// A mention under the cursor, or one the selection lies inside.
	if e, r, ok := t.entryAt(); ok && r.Start <= start && end <= r.End {
		title := fmt.Sprintf("Look up %s", e.Name)
		out = append(out, codeAction{Title: title, Command: &actionCommand{Title: title, Command: wire.CommandLookup,
			Arguments: []any{lookupCommandArgs{Name: e.Name, URI: uri}}}})
	}
	out = append(out, linesOfActions(t, uri, start, end)...)
	return out, nil
}

type explicateCommandArgs struct {
	Quote string               `json:"quote"`
	URI   protocol.DocumentURI `json:"uri"`
}

type lookupCommandArgs struct {
	Name string               `json:"name"`
	URI  protocol.DocumentURI `json:"uri,omitempty"`
}

// boundQuote trims a selection to a quote of at most maxQuoteBytes, cut
// on a character boundary.
func boundQuote(s string) string {
	return clip.Bytes(strings.TrimSpace(s), maxQuoteBytes)
}

// coversWord reports whether text[start:end] holds at least one whole
// word (a run of letters and digits) and more than one character.
func coversWord(text string, start, end int) bool {
	if utf8.RuneCountInString(text[start:end]) < 2 {
		return false
	}
	for i := start; i < end; {
		r, n := utf8.DecodeRuneInString(text[i:])
		before, _ := utf8.DecodeLastRuneInString(text[:i])
		if !isWordRune(r) || i > 0 && isWordRune(before) {
			i += n
			continue
		}
		j := i
		for j < len(text) {
			r, n := utf8.DecodeRuneInString(text[j:])
			if !isWordRune(r) {
				break
			}
			j += n
		}
		if j <= end {
			return true
		}
		i = j
	}
	return false
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// filterKinds keeps the actions the client asked for: with only set, an
// action whose kind is one of them or under one of them ("refactor"
// covers "refactor.extract"); kindless actions are then left out.
func filterKinds(actions []codeAction, only []protocol.CodeActionKind) []codeAction {
	if len(only) == 0 {
		return actions
	}
	var out []codeAction
	for _, a := range actions {
		for _, k := range only {
			if a.Kind != "" && (a.Kind == k || strings.HasPrefix(string(a.Kind), string(k)+".")) {
				out = append(out, a)
				break
			}
		}
	}
	return out
}
