package server

import (
	"context"
	"time"

	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/manuscript/card"
	"github.com/quire-ink/quire/manuscript/dialogue"
	"github.com/quire-ink/quire/server/wire"
)

// Speaker hints name the speaker before each line of dialogue that no
// tag in the text names: "Emma:" where quire is sure (the writer said
// so), "Emma?" where it guesses. They are off until the writer turns
// them on, with quire.dialogue.speakerHints in the editor's settings or
// the quire.toggleSpeakerHints command. LSP 3.17's inlay hints; go.lsp.dev
// /protocol v0.12.0 predates them, so their types are here.

// methodInlayHint is LSP 3.17's request for a document's hints.
const methodInlayHint = "textDocument/inlayHint"

// inlayHintParams is textDocument/inlayHint's params.
type inlayHintParams struct {
	TextDocument protocol.TextDocumentIdentifier `json:"textDocument"`
	Range        protocol.Range                  `json:"range"`
}

// inlayHint is one hint.
type inlayHint struct {
	Position protocol.Position `json:"position"`
	Label    string            `json:"label"`
	// Kind 1 is a type hint, 2 a parameter's; a speaker reads best as
	// the parameter-like label before a value.
	Kind         int    `json:"kind,omitempty"`
	Tooltip      string `json:"tooltip,omitempty"`
	PaddingRight bool   `json:"paddingRight,omitempty"`
}

const inlayHintKindParameter = 2

// speakerHintsOn says whether hints are shown: the command's choice when
// the writer used it, else the editor's setting.
func (s *Server) speakerHintsOn() bool {
	if on := s.hintsOn.Load(); on != nil {
		return *on
	}
	return s.clientCfg.settings().Dialogue.speakerHints()
}

func (s *Server) inlayHint(ctx context.Context, p inlayHintParams) ([]inlayHint, error) {
	hints := []inlayHint{}
	if !s.speakerHintsOn() {
		return hints, nil
	}
	t, ok, err := s.resolveTarget(ctx, protocol.TextDocumentPositionParams{TextDocument: p.TextDocument})
	if err != nil || !ok {
		return hints, err
	}
	_, utts, ok := t.speech()
	if !ok {
		return hints, nil
	}
	from, to, err := t.lines.RangeOffsets(p.Range)
	if err != nil {
		from, to = 0, len(t.text)
	}
	name := entryName(t.cat)
	for i := range utts {
		u := &utts[i]
		at := u.Marks[0].Start
		if at < from || at > to || u.Rule == dialogue.RuleExplicit {
			continue
		}
		label := ""
		switch {
		case !u.Uncertain:
			label = name(u.Speaker) + ":"
		case len(u.Candidates) > 0:
			label = name(u.Candidates[0]) + "?"
		default:
			label = "?"
		}
		hints = append(hints, inlayHint{
			Position: t.lines.Position(at), Label: label, Kind: inlayHintKindParameter,
			Tooltip: card.RuleExplanation(u.Rule, u.Clue, ""), PaddingRight: true,
		})
	}
	return hints, nil
}

// toggleSpeakerHints turns speaker hints on or off for this session and
// asks the editor to draw its hints again.
func (s *Server) toggleSpeakerHints(ctx context.Context) (*wire.SpeakerHints, error) {
	on := !s.speakerHintsOn()
	s.hintsOn.Store(&on)
	s.refreshInlayHints(ctx)
	msg := "quire: speaker hints are off."
	if on {
		msg = "quire: speaker hints are on: a name before each line of dialogue no tag names (a ? where quire guesses)."
	}
	s.showMessage(ctx, protocol.MessageTypeInfo, msg)
	return &wire.SpeakerHints{On: on}, nil
}

// refreshInlayHints asks the client to ask for its hints again.
func (s *Server) refreshInlayHints(ctx context.Context) { s.refreshClient(ctx, methodInlayHintRefresh) }

const methodInlayHintRefresh = "workspace/inlayHint/refresh"

// redrawDelay gathers the changes of a burst (a name typed letter by
// letter, a folder of files written at once) into one redraw.
const redrawDelay = 100 * time.Millisecond

// redrawDialogue asks the editor to draw the open chapters' colours and
// speaker hints again, those the writer has on, after a change outside
// them that may change who speaks there or which names are coloured: a
// name in the codex, a file on disk, the book's narrator. Changes that
// come while one is on its way ride with it. The colours are asked for
// only of a client that says it can draw them again (LSP's
// refreshSupport); the hints of one whose writer turned them on, as
// when the writer turns them on.
func (s *Server) redrawDialogue(ctx context.Context) {
	if !s.redrawing.CompareAndSwap(false, true) {
		return
	}
	time.AfterFunc(redrawDelay, func() {
		s.redrawing.Store(false)
		if s.tokensRefresh.Load() && s.clientCfg.settings().Dialogue.highlight() {
			s.refreshClient(ctx, "workspace/semanticTokens/refresh")
		}
		if s.speakerHintsOn() {
			s.refreshInlayHints(ctx)
		}
	})
}

// refreshClient sends one of LSP's refresh requests (inlay hints,
// semantic tokens) without waiting for it; a client that cannot refresh
// draws them again on its next edit.
func (s *Server) refreshClient(ctx context.Context, method string) {
	go func() {
		callCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if err := s.callClient(callCtx, method, nil, nil); err != nil {
			s.log.Debug("client not refreshed", "method", method, "err", err)
		}
	}()
}
