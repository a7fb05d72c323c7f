package server

import (
	"context"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/count"
	"github.com/quire-ink/quire/server/textdoc"
)

// prepareRename answers whether the cursor is on a name quire can rename:
// a mention or link of a codex entry.
func (s *Server) prepareRename(ctx context.Context, p protocol.PrepareRenameParams) (*prepareRenameResult, error) {
	t, ok, err := s.resolveTarget(ctx, p.TextDocumentPositionParams)
	if err != nil || !ok {
		return nil, err
	}
	e, r, ok := t.nameAtOrBefore()
	if !ok {
		return nil, nil
	}
	if why := t.renameRefusal(e); why != "" {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, why)
	}
	return &prepareRenameResult{t.lines.RangeOf(r.Start, r.End), e.Name}, nil
}

// prepareRenameResult is the range of the name and the name in full.
type prepareRenameResult struct {
	Range       protocol.Range `json:"range"`
	Placeholder string         `json:"placeholder"`
}

// rename renames an entity: its `name:` and every mention of that name,
// in prose and codex, as one edit for the writer to review. Aliases stay
// as they are: "Mara" is still Mara after "Mara Vell" becomes "Mara Kell".
// The writer is told what was renamed, and in how many places: Helix and
// eglot apply the edit without a word.
//
// The rule for a client that does not ask prepareRename (it did not
// advertise textDocument.rename.prepareSupport; eglot 1.9 is one): such
// a client prompts with the word at the cursor, not the entity's name, so
// what the writer types replaces that word only, wherever it stands in
// the name. At "Kettering" in "Moss Kettering", "Kettleby" renames Moss
// Kettering to Moss Kettleby. Typing the whole new name still works: a
// new name of several words that already holds every other word of the
// name is taken whole ("Moss Kettleby" stays Moss Kettleby). A word that
// is not part of the name (the cursor on an alias) is refused. So no word
// of a name is ever dropped by this prompt; to drop one, edit `name:` in
// the entry. A client that asks prepareRename is shown the whole name,
// and what the writer types replaces it.
func (s *Server) rename(ctx context.Context, p protocol.RenameParams) (*workspaceEdit, error) {
	newName := strings.TrimSpace(p.NewName)
	if newName == "" || strings.ContainsAny(newName, "\r\n") {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "a new name is one line of text")
	}
	t, ok, err := s.resolveTarget(ctx, p.TextDocumentPositionParams)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "this document is not part of a quire project")
	}
	e, r, ok := t.nameAtOrBefore()
	if !ok {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "rename works on the name, alias or [[link]] of a codex entry")
	}
	if why := t.renameRefusal(e); why != "" {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, why)
	}
	if err := t.waitIndexed(ctx); err != nil {
		return nil, err
	}
	if e.NameRange.Len() == 0 {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, e.ID+" takes its name from its heading or file name; add `name:` to its front matter first")
	}
	var word string
	if !s.clientPreparesRename() {
		var whole bool
		word, newName, whole, err = renameByWord(e.Name, t.text, r, t.offset, newName)
		if err != nil {
			return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, err.Error()+"; or change `name:` in "+e.ID)
		}
		if whole {
			word = ""
		}
	}
	changes := map[protocol.DocumentURI][]protocol.TextEdit{}
	nameLines := textdoc.NewLines(e.Source)
	changes[t.proj.uri(e.ID)] = append(changes[t.proj.uri(e.ID)], protocol.TextEdit{
		Range:   nameLines.RangeOf(e.NameRange.Start, e.NameRange.End),
		NewText: yamlScalar(e.Source[e.NameRange.Start:e.NameRange.End], newName),
	})
	places := 1
	occs := t.occurrences(e)
	names, declined := renamedOccurrences(e, occs)
	for _, loc := range t.locations(names) {
		changes[loc.URI] = append(changes[loc.URI], protocol.TextEdit{Range: loc.Range, NewText: newName})
		places++
	}
	// The book's own places first: the series' other books skip those.
	seen := placesOf(changes)
	given := t.renameGiven(e, occs, newName, changes, seen)
	more, moreGiven, err := s.renameInSeries(ctx, t, e, newName, changes, seen)
	if err != nil {
		return nil, err
	}
	given = given.and(moreGiven)
	places += more + given.renamed
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if name := s.unsavedSeriesFile(changes); name != "" {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "save "+name+" first: the rename changes that file of the series canon, which quire reads as it is saved, and your unsaved changes there would put its edits in the wrong places")
	}
	msg := fmt.Sprintf("Renamed %s to %s in %s in %s.", e.Name, newName, count.Of(places, "place"), count.Of(len(changes), "file"))
	if word != "" {
		msg += fmt.Sprintf(" Your editor showed the word %q, so only that word of the name changed.", word)
	}
	switch {
	case declined == 1:
		msg += " One place writes the name in another grammatical case and is left as written: give it the new name's ending yourself."
	case declined > 1:
		msg += fmt.Sprintf(" %d places write the name in another grammatical case and are left as written: give them the new name's endings yourself.", declined)
	}
	msg += given.message(e.Name, newName)
	s.showMessage(ctx, protocol.MessageTypeInfo, msg)
	return &workspaceEdit{Changes: changes}, nil
}

// clientPreparesRename reports whether the client said it asks
// prepareRename before prompting for a new name.
func (s *Server) clientPreparesRename() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	td := s.client.TextDocument
	return td != nil && td.Rename != nil && td.Rename.PrepareSupport
}

// renameByWord applies the rule for clients that prompt with the word at
// the cursor (see rename): the word of text at off, inside the mention
// r, is replaced in name by typed. It returns that word and the new name
// in full; whole says typed was taken as the whole new name.
func renameByWord(name, text string, r codex.Range, off int, typed string) (word, full string, whole bool, err error) {
	w, ok := wordAround(text, r, off)
	if !ok {
		return "", "", false, fmt.Errorf("put the cursor on a word of the name %s to rename it", name)
	}
	word = text[w.Start:w.End]
	nameWords := wordsOf(name)
	typedWords := wordsOf(typed)
	// Which word of the name: the one at the same place in a mention of
	// the whole name, else the first that matches.
	at := -1
	if before := wordsOf(text[r.Start:w.Start]); len(wordsOf(text[r.Start:r.End])) == len(nameWords) &&
		len(before) < len(nameWords) && codex.Normalize(name[nameWords[len(before)].Start:nameWords[len(before)].End]) == codex.Normalize(word) {
		at = len(before)
	}
	for i, nw := range nameWords {
		if at < 0 && codex.Normalize(name[nw.Start:nw.End]) == codex.Normalize(word) {
			at = i
		}
	}
	if at < 0 {
		return word, "", false, fmt.Errorf("%q is not a word of the name %s, and your editor offered only that word; rename from the name itself", word, name)
	}
	if len(typedWords) > 1 && len(nameWords) > 1 {
		have := map[string]bool{}
		for _, tw := range typedWords {
			have[codex.Normalize(typed[tw.Start:tw.End])] = true
		}
		whole = true
		for i, nw := range nameWords {
			if i != at && !have[codex.Normalize(name[nw.Start:nw.End])] {
				whole = false
			}
		}
		if whole {
			return word, typed, true, nil
		}
	}
	nw := nameWords[at]
	return word, name[:nw.Start] + typed + name[nw.End:], false, nil
}

// wordAround is the word of text around off, within r: letters, digits
// and marks, joined by apostrophes or hyphens ("O'Neill", "Jean-Luc").
// At the end of a word, the cursor is still on it.
func wordAround(text string, r codex.Range, off int) (codex.Range, bool) {
	for _, w := range wordsOf(text[r.Start:r.End]) {
		w.Start += r.Start
		w.End += r.Start
		if w.Start <= off && off <= w.End {
			return w, true
		}
	}
	return codex.Range{}, false
}

// wordsOf lists the words of s (see wordAround).
func wordsOf(s string) []codex.Range {
	var out []codex.Range
	start := -1
	for i, c := range s {
		switch {
		case unicode.IsLetter(c) || unicode.IsDigit(c) || unicode.IsMark(c):
			if start < 0 {
				start = i
			}
		case start >= 0 && strings.ContainsRune("'’-", c):
			// Joins a word only when a letter follows.
			next, _ := utf8.DecodeRuneInString(s[i+utf8.RuneLen(c):])
			if !unicode.IsLetter(next) && !unicode.IsDigit(next) {
				out = append(out, codex.Range{Start: start, End: i})
				start = -1
			}
		default:
			if start >= 0 {
				out = append(out, codex.Range{Start: start, End: i})
				start = -1
			}
		}
	}
	if start >= 0 {
		out = append(out, codex.Range{Start: start, End: len(s)})
	}
	return out
}

// nameAtOrBefore is entryAt, or the name just before the cursor: Emacs
// shows the word before point as the word at point, so a cursor right
// after a name still renames it.
func (t *target) nameAtOrBefore() (*codex.Entry, codex.Range, bool) {
	if e, r, ok := t.entryAt(); ok || t.offset == 0 {
		return e, r, ok
	}
	t.offset--
	e, r, ok := t.entryAt()
	if !ok {
		t.offset++
	}
	return e, r, ok
}

// yamlScalar writes the new name the way the old one was written: quoted
// if it was, and quoted anyway when YAML would misread it bare.
func yamlScalar(old, name string) string {
	switch {
	case strings.HasPrefix(old, `"`):
		return `"` + strings.ReplaceAll(strings.ReplaceAll(name, `\`, `\\`), `"`, `\"`) + `"`
	case strings.HasPrefix(old, `'`):
		return `'` + strings.ReplaceAll(name, `'`, `''`) + `'`
	case strings.ContainsAny(name, ":#[]{},&*!|>'\"%@`") || strings.HasPrefix(name, "-") || strings.HasPrefix(name, "?"):
		return `"` + strings.ReplaceAll(strings.ReplaceAll(name, `\`, `\\`), `"`, `\"`) + `"`
	}
	return name
}

// renamedOccurrences are those of e's occurrences, occs, written with its
// name, and how many write its name or an alias in another grammatical
// case (Вронского), which a rename leaves.
func renamedOccurrences(e *codex.Entry, occs []occurrence) (names []occurrence, declined int) {
	for _, o := range occs {
		switch {
		case o.mention.Entry != e.ID:
		case o.mention.Declined:
			declined++
		case !o.mention.Alias:
			names = append(names, o)
		}
	}
	return names, declined
}

// renamePlaces is the set of places a rename has reached, so that a
// place found from several books of a series is edited and counted once.
type renamePlaces map[protocol.DocumentURI]map[protocol.Range]bool

// placesOf is the set of the places changes edit.
func placesOf(changes map[protocol.DocumentURI][]protocol.TextEdit) renamePlaces {
	seen := renamePlaces{}
	for uri, edits := range changes {
		for _, ed := range edits {
			seen.mark(uri, ed.Range)
		}
	}
	return seen
}

// mark records the place r of uri and says whether it was new.
func (seen renamePlaces) mark(uri protocol.DocumentURI, r protocol.Range) bool {
	if seen[uri] == nil {
		seen[uri] = map[protocol.Range]bool{}
	}
	if seen[uri][r] {
		return false
	}
	seen[uri][r] = true
	return true
}
