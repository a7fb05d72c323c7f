package server

import (
	"context"
	"slices"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex"
)

// maxCompletionItems bounds one completion list; the client asks again as
// the writer types more of the name.
const maxCompletionItems = 100

// completion offers codex names inside an unclosed [[ on the current line.
// An alias is offered under its own label but inserts the canonical name,
// so links always name their entry.
func (s *Server) completion(ctx context.Context, p protocol.CompletionParams) (*protocol.CompletionList, error) {
	t, ok, err := s.resolveTarget(ctx, p.TextDocumentPositionParams)
	if err != nil || !ok {
		return nil, err
	}
	start, ok := openLink(t.text, t.offset)
	if !ok {
		return &protocol.CompletionList{Items: []protocol.CompletionItem{}}, nil
	}
	prefix := codex.Normalize(t.text[start:t.offset])
	closing := "]]"
	if strings.HasPrefix(t.text[t.offset:], "]]") {
		closing = ""
	}
	replace := t.lines.RangeOf(start, t.offset)
	list := &protocol.CompletionList{Items: []protocol.CompletionItem{}}
	for _, e := range t.cat.All() {
		for i, form := range append([]string{e.Name}, e.Aliases...) {
			if !strings.HasPrefix(codex.Normalize(form), prefix) && !wordPrefix(form, prefix) {
				continue
			}
			if len(list.Items) == maxCompletionItems {
				list.IsIncomplete = true
				break
			}
			item := protocol.CompletionItem{
				Label:      form,
				Kind:       protocol.CompletionItemKindReference,
				Detail:     string(e.Type),
				FilterText: form,
				SortText:   sortKey(i, form),
				TextEdit:   &protocol.TextEdit{Range: replace, NewText: e.Name + closing},
			}
			if e.Summary != "" {
				item.Documentation = protocol.MarkupContent{Kind: protocol.PlainText, Value: e.Summary}
			}
			if i > 0 {
				item.Detail = string(e.Type) + " · alias of " + e.Name
			}
			list.Items = append(list.Items, item)
		}
	}
	slices.SortStableFunc(list.Items, func(a, b protocol.CompletionItem) int { return strings.Compare(a.SortText, b.SortText) })
	return list, nil
}

// openLink finds the start of the target of a [[link]] being typed at
// off: after the last "[[" on the line that no "]]" closes before off.
func openLink(text string, off int) (int, bool) {
	lineStart := strings.LastIndexByte(text[:off], '\n') + 1
	line := text[lineStart:off]
	i := strings.LastIndex(line, "[[")
	if i < 0 || strings.Contains(line[i:], "]]") || strings.ContainsAny(line[i+2:], "|#") {
		return 0, false
	}
	return lineStart + i + 2, true
}

// wordPrefix reports whether prefix starts at a word of form, so "vell"
// finds "Mara Vell" and "harbor w" finds "the Harbor Witch".
func wordPrefix(form, prefix string) bool {
	return strings.Contains(" "+codex.Normalize(form), " "+prefix)
}

// sortKey puts names before aliases, then orders alphabetically.
func sortKey(formIndex int, form string) string {
	kind := "0"
	if formIndex > 0 {
		kind = "1"
	}
	return kind + codex.Normalize(form)
}
