package server

import (
	"context"
	"fmt"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/clip"
	"github.com/quire-ink/quire/codex/count"
	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/manuscript/dialogue"
	"github.com/quire-ink/quire/server/textdoc"
	"github.com/quire-ink/quire/server/wire"
)

// maxDialogueRecords bounds quire/dialogue's answer; a book with more
// utterances says how many were left out, and the writer narrows the
// request by chapter or speaker.
const maxDialogueRecords = 10000

// quireDialogue answers quire/dialogue: the records `quire dialogue
// --json` prints, of the book of the params' document, of one speaker
// and one chapter when the params name them.
func (s *Server) quireDialogue(ctx context.Context, p wire.DialogueParams) (wire.Dialogue, error) {
	out := wire.Dialogue{Utterances: []wire.DialogueRecord{}}
	proj, err := s.projectOf(ctx, p.BookParams)
	if err != nil {
		return out, err
	}
	snap, cat := proj.ms.Snapshot(), proj.catalog()
	speaker := ""
	if p.Speaker != "" {
		e, _, err := dialogue.FindCharacter(cat, p.Speaker)
		if err != nil {
			return out, jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error()+"; give a character's name or alias")
		}
		speaker = e.ID
	}
	chapters, err := dialogueChapters(proj, snap, cat, p.Chapter)
	if err != nil {
		return out, jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error())
	}
	name := entryName(cat)
	for _, ch := range chapters {
		lines := textdoc.NewLines(ch.Unit.Text)
		for i := range ch.Utterances {
			u := &ch.Utterances[i]
			if speaker != "" && u.Best() != speaker {
				continue
			}
			if len(out.Utterances) == maxDialogueRecords {
				out.Omitted++
				continue
			}
			r := wire.DialogueRecordOf(ch.Unit, lines, u, name)
			r.Chapter.URI = string(proj.uri(ch.Unit.Path))
			out.Utterances = append(out.Utterances, r)
		}
	}
	return out, ctx.Err()
}

// dialogueChapters is the speech of every chapter, or of the one chapter
// ref names (a number, title or path).
func dialogueChapters(proj *openBook, snap *manuscript.Snapshot, cat *codex.Catalog, ref string) ([]dialogue.ChapterDialogue, error) {
	book := dialogue.NewBook(snap, cat, proj.configOf().dialogue).WithNames(proj.matcher.Load()).WithNarrators(&proj.narrators)
	if ref == "" {
		return book.Chapters(), nil
	}
	u, err := snap.Resolve(ref, manuscript.Place{})
	if err != nil {
		return nil, err
	}
	return book.Units([]*manuscript.Unit{u}), nil
}

// linesOf answers quire/linesOf: where the character speaks, as
// locations, from a name or from the place in a document (a name there,
// or the line of dialogue whose speaker it is).
func (s *Server) linesOf(ctx context.Context, p wire.LinesOfParams) ([]protocol.Location, error) {
	_, locs, err := s.linesOfCharacter(ctx, p)
	return locs, err
}

// linesOfCommand runs quire.linesOf: the locations, and for an editor
// that shows a command's result nowhere, a document listing the lines
// with the chapter and words of each, opened beside the writer's text.
func (s *Server) linesOfCommand(ctx context.Context, p wire.LinesOfParams) ([]protocol.Location, error) {
	list, locs, err := s.linesOfCharacter(ctx, p)
	if err != nil {
		return nil, err
	}
	path, err := s.writeCacheDoc("lines", clip.Bytes(slug(list.name), 40), ".md", list.markdown())
	if err != nil {
		s.showMessage(ctx, protocol.MessageTypeWarning, "quire: "+list.summary())
		return locs, nil
	}
	s.showDoc(ctx, path, "quire: "+list.summary()+" The list is in "+path)
	return locs, nil
}

// lineList is one character's lines, for the document the command shows.
type lineList struct {
	name     string
	chapters []lineChapter
	lines    int
	guessed  int
}

type lineChapter struct {
	title string
	uri   protocol.DocumentURI
	lines []lineOf
}

type lineOf struct {
	line  int
	text  string
	guess bool
	rule  dialogue.Rule
}

// maxListedLines bounds the document: a character with more lines is
// listed up to here, with the count of the rest.
const maxListedLines = 2000

func (l lineList) summary() string {
	if l.lines == 0 {
		return fmt.Sprintf("%s speaks no line quire has found.", l.name)
	}
	s := fmt.Sprintf("%s speaks %s in %s", l.name, count.Of(l.lines, "line"), count.Of(len(l.chapters), "chapter"))
	if l.guessed > 0 {
		s += fmt.Sprintf(" (%d of them quire's guess, marked ?)", l.guessed)
	}
	return s + "."
}

func (l lineList) markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Lines of %s\n\n%s\n", l.name, l.summary())
	n := 0
	for _, ch := range l.chapters {
		fmt.Fprintf(&b, "\n## %s\n\n", ch.title)
		for _, ln := range ch.lines {
			if n == maxListedLines {
				fmt.Fprintf(&b, "\n… and %d more.\n", l.lines-n)
				return b.String()
			}
			n++
			mark := ""
			if ln.guess {
				mark = "? "
			}
			fmt.Fprintf(&b, "- %s[line %d](%s#L%d): “%s”\n", mark, ln.line, ch.uri, ln.line, clip.Words(ln.text, 120))
		}
	}
	return b.String()
}

// linesOfCharacter finds the character and every utterance whose speaker,
// or best guess, it is.
func (s *Server) linesOfCharacter(ctx context.Context, p wire.LinesOfParams) (lineList, []protocol.Location, error) {
	locs := []protocol.Location{}
	proj, err := s.projectOf(ctx, p.BookParams)
	if err != nil {
		return lineList{}, locs, err
	}
	cat := proj.catalog()
	id, err := s.characterFor(ctx, proj, cat, p)
	if err != nil {
		return lineList{}, locs, err
	}
	e, _ := cat.Get(id)
	list := lineList{name: codex.PrintableName(e.Name)}
	chapters, _ := dialogueChapters(proj, proj.ms.Snapshot(), cat, "")
	for _, ch := range chapters {
		lines := textdoc.NewLines(ch.Unit.Text)
		uri := proj.uri(ch.Unit.Path)
		lc := lineChapter{title: ch.Unit.Title, uri: uri}
		for i := range ch.Utterances {
			u := &ch.Utterances[i]
			if u.Best() != id {
				continue
			}
			first := u.Spans[0]
			locs = append(locs, protocol.Location{URI: uri, Range: lines.RangeOf(first.Start, first.End)})
			texts := make([]string, 0, len(u.Spans))
			for _, sp := range u.Spans {
				texts = append(texts, ch.Unit.Text[sp.Start:sp.End])
			}
			lc.lines = append(lc.lines, lineOf{line: int(lines.Position(first.Start).Line) + 1,
				text: strings.Join(strings.Fields(strings.Join(texts, " ")), " "), guess: u.Uncertain, rule: u.Rule})
			list.lines++
			if u.Uncertain {
				list.guessed++
			}
		}
		if len(lc.lines) > 0 {
			list.chapters = append(list.chapters, lc)
		}
	}
	return list, locs, ctx.Err()
}

// characterFor is the character the params name: by Name, else the name
// at Position in the document, else the speaker of the line there.
func (s *Server) characterFor(ctx context.Context, proj *openBook, cat *codex.Catalog, p wire.LinesOfParams) (string, error) {
	if p.Name != "" {
		e, _, err := dialogue.FindCharacter(cat, p.Name)
		if err != nil {
			return "", jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error()+"; give a character's name or alias")
		}
		return e.ID, nil
	}
	if p.Position == nil || p.URI == "" {
		return "", jsonrpc2.NewError(jsonrpc2.InvalidParams, "say whose lines to list: a character's name, or a place in a chapter where one is named or speaks")
	}
	t, ok, err := s.resolveTarget(ctx, protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: p.URI}, Position: *p.Position})
	if err != nil {
		return "", err
	}
	if ok {
		if e, _, found := t.canonAt(); found && e.Type == codex.TypeCharacter {
			return e.ID, nil
		}
		if _, utts, found := t.speech(); found {
			if u, at := utteranceAt(utts, t.offset); at && u.Best() != "" {
				return u.Best(), nil
			}
		}
	}
	return "", jsonrpc2.NewError(jsonrpc2.InvalidParams, "no character is named or speaks there; put the cursor on a character's name or a line of dialogue")
}

// linesOfActions offers "Lines of <Name>" on a character's name and on a
// line of dialogue whose speaker quire knows or guesses.
func linesOfActions(t *target, uri protocol.DocumentURI, start, end int) []codeAction {
	var e *codex.Entry
	if found, r, ok := t.entryAt(); ok && r.Start <= start && end <= r.End && found.Type == codex.TypeCharacter {
		e = found
	} else if _, utts, ok := t.speech(); ok {
		if u, at := utteranceAt(utts, start); at && u.Best() != "" {
			e, _ = t.cat.Get(u.Best())
		}
	}
	if e == nil {
		return nil
	}
	title := "Lines of " + codex.PrintableName(e.Name)
	return []codeAction{{Title: title, Command: &actionCommand{Title: title, Command: wire.CommandLinesOf,
		Arguments: []any{wire.LinesOfParams{BookParams: wire.BookParams{URI: uri}, Name: e.Name}}}}}
}
