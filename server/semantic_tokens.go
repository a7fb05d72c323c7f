package server

import (
	"context"
	"slices"
	"strconv"
	"sync"

	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/manuscript/dialogue"
	"github.com/quire-ink/quire/server/textdoc"
)

// Semantic tokens colour a chapter's dialogue and its characters' names:
// the editor paints them from the legend below (VS Code through the
// extension's token types, Neovim through @lsp.type.dialogue and
// @lsp.type.character). A line whose speaker quire is unsure of, and a
// name that may be someone else's, carry the uncertain modifier.
// quire.dialogue.highlight false in the editor's settings turns them off.

// The legend's indexes.
const (
	tokenDialogue  = 0
	tokenCharacter = 1

	modUncertain = 1 << 0
)

var semanticLegend = protocol.SemanticTokensLegend{
	TokenTypes:     []protocol.SemanticTokenTypes{"dialogue", "character"},
	TokenModifiers: []protocol.SemanticTokenModifiers{"uncertain"},
}

// semanticTokensOptions is the capability as LSP 3.16 writes it
// (go.lsp.dev/protocol's type leaves out the legend).
type semanticTokensOptions struct {
	Legend protocol.SemanticTokensLegend `json:"legend"`
	Full   struct {
		Delta bool `json:"delta"`
	} `json:"full"`
	Range bool `json:"range"`
}

func semanticTokensCapability() semanticTokensOptions {
	o := semanticTokensOptions{Legend: semanticLegend}
	o.Full.Delta = true
	return o
}

// tokenResults keeps each document's last tokens, so the next request may
// answer with the edit from them (full/delta).
type tokenResults struct {
	mu    sync.Mutex
	next  uint64
	byURI map[protocol.DocumentURI]tokenResult
}

type tokenResult struct {
	id   string
	data []uint32
}

// maxTokenResults bounds the documents whose tokens are kept.
const maxTokenResults = 64

func (r *tokenResults) keep(uri protocol.DocumentURI, data []uint32) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.byURI == nil {
		r.byURI = map[protocol.DocumentURI]tokenResult{}
	}
	if _, ok := r.byURI[uri]; !ok && len(r.byURI) >= maxTokenResults {
		for k := range r.byURI {
			delete(r.byURI, k)
			break
		}
	}
	r.next++
	id := strconv.FormatUint(r.next, 10)
	r.byURI[uri] = tokenResult{id: id, data: data}
	return id
}

func (r *tokenResults) previous(uri protocol.DocumentURI, id string) ([]uint32, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	prev, ok := r.byURI[uri]
	if !ok || prev.id != id {
		return nil, false
	}
	return prev.data, true
}

func (s *Server) semanticTokensFull(ctx context.Context, p protocol.SemanticTokensParams) (*protocol.SemanticTokens, error) {
	data, err := s.tokenData(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	return &protocol.SemanticTokens{ResultID: s.semantic.keep(p.TextDocument.URI, data), Data: data}, nil
}

// semanticTokensDelta answers with the one edit that turns the tokens the
// client holds into the new ones: the data they share at each end is
// left alone. A result id quire no longer holds gets the full tokens.
func (s *Server) semanticTokensDelta(ctx context.Context, p protocol.SemanticTokensDeltaParams) (any, error) {
	data, err := s.tokenData(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	prev, ok := s.semantic.previous(p.TextDocument.URI, p.PreviousResultID)
	id := s.semantic.keep(p.TextDocument.URI, data)
	if !ok {
		return &protocol.SemanticTokens{ResultID: id, Data: data}, nil
	}
	return &protocol.SemanticTokensDelta{ResultID: id, Edits: tokenEdits(prev, data)}, nil
}

// tokenEdits is the edit from old to new: none when they are equal, else
// one that replaces what lies between their common prefix and suffix.
func tokenEdits(old, new []uint32) []protocol.SemanticTokensEdit {
	pre := 0
	for pre < len(old) && pre < len(new) && old[pre] == new[pre] {
		pre++
	}
	if pre == len(old) && pre == len(new) {
		return []protocol.SemanticTokensEdit{}
	}
	suf := 0
	for suf < len(old)-pre && suf < len(new)-pre && old[len(old)-1-suf] == new[len(new)-1-suf] {
		suf++
	}
	return []protocol.SemanticTokensEdit{{
		Start:       uint32(pre),
		DeleteCount: uint32(len(old) - pre - suf),
		Data:        slices.Clone(new[pre : len(new)-suf]),
	}}
}

// tokenData is the document's tokens, encoded as LSP relative positions;
// none for a file that is no chapter or when the writer turned them off.
func (s *Server) tokenData(ctx context.Context, uri protocol.DocumentURI) ([]uint32, error) {
	data := []uint32{}
	if !s.clientCfg.settings().Dialogue.highlight() {
		return data, nil
	}
	t, ok, err := s.resolveTarget(ctx, protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}})
	if err != nil || !ok {
		return data, err
	}
	_, e, ok := t.speechEntry()
	if !ok {
		return data, nil
	}
	return encodeTokens(t.lines, speechTokens(t.cat, e.ch.Mentions, e.utts())), nil
}

// token is one coloured stretch of the text, by byte offsets.
type token struct {
	start, end int
	typ, mods  uint32
}

// speechTokens are the chapter's dialogue and characters' names, in text
// order and never overlapping: a name inside speech cuts the speech's
// token in two.
func speechTokens(cat *codex.Catalog, mentions []manuscript.Mention, utts []dialogue.Utterance) []token {
	var names []token
	for _, mention := range mentions {
		e, ok := cat.Get(mention.Entry)
		if !ok || e.Type != codex.TypeCharacter {
			continue
		}
		tok := token{start: mention.Range.Start, end: mention.Range.End, typ: tokenCharacter}
		if mention.Uncertain || len(mention.Others) > 0 {
			tok.mods = modUncertain
		}
		names = append(names, tok)
	}
	var out []token
	n := 0
	for _, u := range utts {
		var mods uint32
		if u.Uncertain {
			mods = modUncertain
		}
		for _, r := range u.Marks {
			at := r.Start
			for ; n < len(names) && names[n].start < r.End; n++ {
				if names[n].end <= at {
					out = append(out, names[n])
					continue
				}
				if names[n].start > at {
					out = append(out, token{start: at, end: names[n].start, typ: tokenDialogue, mods: mods})
				}
				out = append(out, names[n])
				at = max(at, names[n].end)
			}
			if at < r.End {
				out = append(out, token{start: at, end: r.End, typ: tokenDialogue, mods: mods})
			}
		}
	}
	out = append(out, names[n:]...)
	slices.SortStableFunc(out, func(a, b token) int { return a.start - b.start })
	return out
}

// encodeTokens writes tokens as LSP's integers: for each, its line and
// start relative to the token before, its length in UTF-16 units, its
// type and modifiers. A token over several lines becomes one per line,
// since clients need not take multi-line tokens.
func encodeTokens(lines *textdoc.Lines, toks []token) []uint32 {
	data := make([]uint32, 0, 5*len(toks))
	var prevLine, prevChar uint32
	emit := func(line, char, length, typ, mods uint32) {
		if length == 0 {
			return
		}
		dl := line - prevLine
		dc := char
		if dl == 0 {
			dc = char - prevChar
		}
		data = append(data, dl, dc, length, typ, mods)
		prevLine, prevChar = line, char
	}
	for _, tk := range toks {
		start := lines.Position(tk.start)
		end := lines.Position(tk.end)
		for line := start.Line; line <= end.Line; line++ {
			from := uint32(0)
			if line == start.Line {
				from = start.Character
			}
			var to uint32
			if line == end.Line {
				to = end.Character
			} else {
				to = lines.Position(lines.LineEnd(int(line))).Character
			}
			if to > from {
				emit(line, from, to-from, tk.typ, tk.mods)
			}
		}
	}
	return data
}
