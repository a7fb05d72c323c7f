package server

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/count"
	"github.com/quire-ink/quire/codex/proposal"
	"github.com/quire-ink/quire/llm"
	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/server/wire"
)

// synopsisMessage is what the advisor is asked, with the scene as the
// selection.
const synopsisMessage = "Write a synopsis of the selected passage for the book's outline: one to three sentences, in the present tense, saying what happens and what changes. Reply with the synopsis alone: no title, no preamble, no quotation marks."

// maxSynopsisBytes bounds a synopsis taken from an answer.
const maxSynopsisBytes = 800

// proposeSynopsis is quire.proposeSynopsis: the advisor reads the scene
// (or chapter) as the writer has it now and writes its synopsis, which
// is held as a proposal, an edit of the scene's note the writer applies
// or discards. Nothing is written.
func (s *Server) proposeSynopsis(ctx context.Context, p wire.SynopsisParams) (wire.SynopsisProposal, error) {
	t, err := s.outlineTargetOf(ctx, p.URI)
	if err != nil {
		return wire.SynopsisProposal{}, s.outcome(ctx, true, protocol.MessageTypeWarning, jsonrpc2.InvalidParams, "No synopsis asked: "+errMessage(err))
	}
	rules := t.proj.configOf().outline.Rules
	scenes := t.unit.Scenes(rules)
	if p.Scene < 0 || p.Scene > len(scenes) {
		return wire.SynopsisProposal{}, s.outcome(ctx, true, protocol.MessageTypeWarning, jsonrpc2.InvalidParams,
			fmt.Sprintf("No synopsis asked: %s has %s, and no scene %d.", t.unit.Title, count.Of(len(scenes), "scene"), p.Scene))
	}
	r := t.unit.Body
	if p.Scene > 0 {
		r = scenes[p.Scene-1].Range
	}
	what := sceneName(t.unit, rules, p.Scene)
	pr := t.cur.lines.RangeOf(r.Start, r.End)
	persona := p.Persona
	if persona == "" {
		persona = llm.DefaultPersonaID
	}
	res, err := s.quireAsk(ctx, wire.AskParams{Persona: persona, URI: t.cur.uri, Range: &pr, Message: synopsisMessage,
		SelectionHash: codex.HashText(t.cur.text[r.Start:r.End]), Action: "Synopsis of " + what})
	if err != nil {
		return wire.SynopsisProposal{}, err
	}
	synopsis := cleanSynopsis(res.Answer)
	if synopsis == "" {
		return wire.SynopsisProposal{}, s.outcome(ctx, true, protocol.MessageTypeWarning, jsonrpc2.InternalError,
			fmt.Sprintf("The %s gave no synopsis of %s; ask again.", s.personaName(persona), what))
	}
	e, err := t.unit.SetOutline(rules, p.Scene, manuscript.Field{Key: "synopsis", Value: synopsis})
	if err != nil {
		return wire.SynopsisProposal{}, s.outcome(ctx, true, protocol.MessageTypeWarning, jsonrpc2.InvalidParams, "No synopsis proposed: "+err.Error()+".")
	}
	hash := codex.HashText(t.cur.text)
	edits := []proposal.FileEdit{{Path: t.rel, Range: e.Range, NewText: e.NewText, BaseHash: hash}}
	diff, err := proposal.Diff(edits, map[string]string{t.rel: t.cur.text})
	if err != nil {
		return wire.SynopsisProposal{}, err
	}
	prop := t.proj.proposals.Add(proposal.Proposal{
		Tool: "propose_synopsis", Kind: proposal.KindUpdate, Name: "the synopsis of " + what,
		ChangeSummary: synopsis, Path: t.rel, BaseHash: hash, Edits: edits,
		Bases: map[string]string{t.rel: t.cur.text}, Markdown: synopsis, Diff: diff,
	})
	msg := fmt.Sprintf("The %s proposes a synopsis of %s: “%s” Apply or discard it from the code actions (Apply proposal) or the proposals list.",
		s.personaName(persona), what, synopsis)
	s.showMessage(ctx, protocol.MessageTypeInfo, msg)
	return wire.SynopsisProposal{ID: prop.ID, Synopsis: synopsis, Message: msg}, nil
}

// cleanSynopsis is the synopsis in a model's answer: its first paragraph,
// without a "Synopsis:" label, Markdown emphasis or surrounding quotation
// marks, on one line, cut at a sentence's end within the bound.
func cleanSynopsis(answer string) string {
	var para string
	for _, p := range strings.Split(strings.ReplaceAll(answer, "\r\n", "\n"), "\n\n") {
		if p = strings.TrimSpace(p); p != "" && !strings.HasPrefix(p, "#") {
			para = p
			break
		}
	}
	para = strings.Join(strings.Fields(para), " ")
	for _, label := range []string{"**Synopsis:**", "Synopsis:", "**Synopsis**:", "Synopsis -"} {
		if len(para) >= len(label) && strings.EqualFold(para[:len(label)], label) {
			para = strings.TrimSpace(para[len(label):])
		}
	}
	para = strings.Trim(para, "*_")
	for _, q := range [][2]string{{`"`, `"`}, {"“", "”"}, {"'", "'"}, {"‘", "’"}} {
		if strings.HasPrefix(para, q[0]) && strings.HasSuffix(para, q[1]) && len(para) > len(q[0])+len(q[1]) {
			para = strings.TrimSpace(para[len(q[0]) : len(para)-len(q[1])])
		}
	}
	para = strings.ReplaceAll(para, "-->", "->")
	if len(para) <= maxSynopsisBytes {
		return para
	}
	cut := para[:maxSynopsisBytes]
	for !utf8.ValidString(cut) {
		cut = cut[:len(cut)-1]
	}
	if i := strings.LastIndexAny(cut, ".!?"); i > 0 {
		return cut[:i+1]
	}
	return strings.TrimSpace(cut) + "…"
}
