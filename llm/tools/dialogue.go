package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/clip"
	"github.com/quire-ink/quire/llm/provider"
	"github.com/quire-ink/quire/llm/toolloop"
	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/manuscript/dialogue"
)

// Bounds of a get_dialogue answer: the lines it quotes, the characters
// of their text, one line's length, and the chapters it counts one by
// one. The counts of the whole range are always given.
const (
	maxDialogueLines    = 60
	maxDialogueChars    = 12_000
	maxDialogueLine     = 300
	maxDialogueChapters = 100
)

// dialogueArgs are get_dialogue's arguments.
type dialogueArgs struct {
	Name string  `json:"name"`
	From *string `json:"from"`
	To   *string `json:"to"`
}

// ref is the range asked for, as evidence names it: "3 to 7", "from 3",
// "to 7"; "" for the whole book.
func (a dialogueArgs) ref() string {
	return dialogueRange(a.From, a.To)
}

func dialogueRange(from, to *string) string {
	switch {
	case from != nil && to != nil:
		return strings.TrimSpace(*from) + " to " + strings.TrimSpace(*to)
	case from != nil:
		return "from " + strings.TrimSpace(*from)
	case to != nil:
		return "to " + strings.TrimSpace(*to)
	}
	return ""
}

// dialogueResult is what get_dialogue returns.
type dialogueResult struct {
	// Character is the entry the name found.
	Character dialogueCharacter `json:"character"`
	// From and To are the first and last chapter read.
	From string `json:"from"`
	To   string `json:"to"`
	// Total counts the character's lines and words over the range.
	Total dialogueCounts `json:"total"`
	// Chapters are the chapters of the range where the character
	// speaks, in reading order.
	Chapters []dialogueChapter `json:"chapters"`
	// Note says what certain and uncertain mean.
	Note string `json:"note"`
}

type dialogueCharacter struct {
	Name         string `json:"name"`
	RelativePath string `json:"relativePath"`
}

// dialogueCounts are lines and words spoken; the uncertain ones are
// among them.
type dialogueCounts struct {
	Lines          int `json:"lines"`
	Words          int `json:"words"`
	UncertainLines int `json:"uncertainLines"`
	UncertainWords int `json:"uncertainWords"`
	// Chapters, in a total, counts the chapters read and those where the
	// character speaks.
	ChaptersRead     int `json:"chaptersRead,omitempty"`
	ChaptersSpeaking int `json:"chaptersSpeaking,omitempty"`
}

type dialogueChapter struct {
	Chapter string `json:"chapter"`
	Path    string `json:"path"`
	dialogueCounts
	// Utterances are the lines, in reading order; Omitted counts those
	// of the chapter left out to stay within bounds.
	Utterances []dialogueLine `json:"utterances"`
	Omitted    int            `json:"omitted,omitempty"`
}

// dialogueLine is one line: its words (clipped), where it is, whether
// quire is certain who speaks it, the rule that decided and, for a
// pronoun, the clue that resolved it (dialogue.Clue).
type dialogueLine struct {
	Text      string `json:"text"`
	Line      int    `json:"line"`
	Certain   bool   `json:"certain"`
	Rule      string `json:"rule"`
	Clue      string `json:"clue,omitempty"`
	Words     int    `json:"words"`
	Truncated bool   `json:"truncated,omitempty"`
}

const dialogueNote = "certain: a speech tag names the character (\"said Mara\"), the writer marked the speaker in the chapter, or \"I\" is the chapter's point of view or the book's narrator. " +
	"Otherwise the line is quire's best guess, made by the rule given (pronoun, narration, vocative, turn-taking), and may be someone else's; " +
	"a pronoun's clue says whom quire took it to be (paragraph: named in its paragraph; followed: the character the chapter follows; last-named: the last named before it; and the like). " +
	"Lines where the character is only a less likely candidate are not listed. Line numbers count from 1 in the chapter's file."

// chapterRefSchema is the schema of an argument that names one chapter
// (from, to), described as what.
func chapterRefSchema(what string) map[string]any {
	return map[string]any{
		"type":      "string",
		"minLength": 1,
		"maxLength": maxRefChars,
		"description": what + `: a chapter number ("3"), a chapter title, or a project-relative chapter path, ` +
			`as get_manuscript_context takes them; "current" is the writer's chapter.`,
	}
}

func dialogueTool(src *Sources) provider.Tool {
	ref := chapterRefSchema
	return provider.Tool{
		Name: DialogueName,
		Description: fmt.Sprintf("Read what one character says in the manuscript: the lines of dialogue quire attributes to them, "+
			"chapter by chapter, with how many lines and words they speak in each chapter and in all. "+
			"Give name, the character's name or alias; from and to narrow it to a range of chapters (from alone reads to the end, to alone from the start; both left out, the whole book). "+
			"Each line says whether quire is certain who speaks it: certain when a speech tag names the character, the writer marked the speaker, or \"I\" is the chapter's point of view or the book's narrator; "+
			"otherwise it is quire's best guess (from a pronoun, the narration, a vocative or the turns of a conversation), marked uncertain with the rule that guessed (and for a pronoun the clue that resolved it). "+
			"Lines where the character is only a less likely candidate are left out. "+
			"At most %d lines, each clipped to %d characters, are returned in reading order; the counts always cover the whole range, and a warning says how many lines were left out and from which chapter to ask again. "+
			"Read a chapter with get_manuscript_context to see a line in its scene.", maxDialogueLines, maxDialogueLine),
		Parameters: objectSchema(map[string]any{
			"name": map[string]any{
				"type":        "string",
				"minLength":   1,
				"maxLength":   maxNameChars,
				"description": "The character's name, title or alias as the writer uses it.",
			},
			"from": ref("Optional: the first chapter to read"),
			"to":   ref("Optional: the last chapter to read"),
		}, "name"),
		Run: func(ctx context.Context, raw json.RawMessage) (any, []string, error) {
			data, warnings, err := src.dialogueLines(ctx, raw)
			return data, warnings, src.scrubErr(err)
		},
	}
}

func (src *Sources) dialogueLines(ctx context.Context, raw json.RawMessage) (any, []string, error) {
	var args dialogueArgs
	if err := decodeArgs(raw, &args); err != nil {
		return nil, nil, err
	}
	read := src.reading(Lookup{Tool: DialogueName, Name: args.Name, Ref: args.ref()})
	name := strings.TrimSpace(args.Name)
	switch {
	case name == "":
		return nil, nil, toolloop.Errorf(toolloop.CodeInvalidArguments, "name is empty; give the character's name or alias")
	case utf8.RuneCountInString(name) > maxNameChars:
		return nil, nil, toolloop.Errorf(toolloop.CodeInvalidArguments, "name is longer than %d characters", maxNameChars)
	}
	if src == nil || src.Store == nil {
		return nil, nil, toolloop.Errorf(toolloop.CodeToolFailed, "no codex is open for this turn")
	}
	snap := src.Snapshot()
	if snap == nil {
		return nil, nil, toolloop.Errorf(toolloop.CodeToolFailed, "no manuscript is open for this turn")
	}
	best, warnings, err := src.character(ctx, name)
	if err != nil {
		return nil, nil, err
	}
	units, err := src.chapterRange(snap, args.From, args.To)
	if err != nil {
		return nil, nil, err
	}
	read.add(best.RelativePath, entryHash(src, best.RelativePath))

	out := &dialogueResult{Character: dialogueCharacter{Name: best.Name, RelativePath: best.RelativePath},
		Chapters: []dialogueChapter{}, Note: dialogueNote}
	if len(units) > 0 {
		out.From = chapterName(units[0].Label(), units[0].Title)
		out.To = chapterName(units[len(units)-1].Label(), units[len(units)-1].Title)
	}
	out.Total.ChaptersRead = len(units)
	book := dialogue.NewBook(snap, src.canon().Catalog(), src.Continuity.Dialogue)
	lines, chars := 0, 0
	var cutFrom *manuscript.Unit // the first chapter a line was left out of
	countsLeftOut := 0
	for _, cd := range book.Units(units) {
		ch, ok := src.chapterLines(cd, best.RelativePath, &lines, &chars)
		if !ok {
			continue
		}
		out.Total.add(ch.dialogueCounts)
		out.Total.ChaptersSpeaking++
		if ch.Omitted > 0 && cutFrom == nil {
			cutFrom = cd.Unit
		}
		if len(out.Chapters) == maxDialogueChapters {
			countsLeftOut++
			continue
		}
		if len(ch.Utterances) > 0 {
			read.add(cd.Unit.Path, codex.HashText(cd.Unit.BodyText()))
		}
		out.Chapters = append(out.Chapters, ch)
	}
	if cutFrom != nil {
		warnings = append(warnings, fmt.Sprintf("%d of %s's %d lines were left out to stay within limits (at most %d lines, %d characters of text), from chapter %s on; "+
			"ask again with from %q (and a to) to read them, or a narrower range",
			out.Total.Lines-lines, best.Name, out.Total.Lines, maxDialogueLines, maxDialogueChars,
			chapterName(cutFrom.Label(), cutFrom.Title), chapterRef(cutFrom)))
	}
	if countsLeftOut > 0 {
		warnings = append(warnings, fmt.Sprintf("the counts of %d more chapters where %s speaks are in the total only; narrow the range with from and to to see them chapter by chapter",
			countsLeftOut, best.Name))
	}
	if out.Total.Lines == 0 {
		what := "the book"
		if args.From != nil || args.To != nil {
			what = "chapters " + out.From + " to " + out.To
		}
		warnings = append(warnings, fmt.Sprintf("quire attributes no line of dialogue in %s to %s; they may speak in lines quire cannot attribute, "+
			"which get_manuscript_context shows", what, best.Name))
	}
	return out, warnings, nil
}

func (c *dialogueCounts) add(o dialogueCounts) {
	c.Lines += o.Lines
	c.Words += o.Words
	c.UncertainLines += o.UncertainLines
	c.UncertainWords += o.UncertainWords
}

// chapterLines are the lines of cd the character id speaks, certainly
// or by quire's best guess, as many as the bounds left (lines and chars
// so far, over the whole answer) allow; ok is false when there is none.
func (src *Sources) chapterLines(cd dialogue.ChapterDialogue, id string, lines, chars *int) (dialogueChapter, bool) {
	u := cd.Unit
	out := dialogueChapter{Chapter: chapterName(u.Label(), u.Title), Path: u.Path, Utterances: []dialogueLine{}}
	line, at := 1, 0
	for i := range cd.Utterances {
		utt := &cd.Utterances[i]
		certain := !utt.Uncertain && utt.Speaker == id
		if !certain && !(utt.Uncertain && len(utt.Candidates) > 0 && utt.Candidates[0] == id) {
			continue
		}
		out.Lines++
		out.Words += utt.Words
		if !certain {
			out.UncertainLines++
			out.UncertainWords += utt.Words
		}
		text := spokenText(u.Text, utt)
		clipped := clip.Runes(text, maxDialogueLine)
		if *lines >= maxDialogueLines || *chars+utf8.RuneCountInString(clipped) > maxDialogueChars {
			// Past the bounds every later line is left out too, so that
			// a second call from this chapter on reads on in order.
			*lines, *chars = maxDialogueLines, maxDialogueChars
			out.Omitted++
			continue
		}
		start := utt.Marks[0].Start
		line += strings.Count(u.Text[at:start], "\n")
		at = start
		*lines++
		*chars += utf8.RuneCountInString(clipped)
		out.Utterances = append(out.Utterances, dialogueLine{Text: src.scrub(clipped), Line: line, Certain: certain,
			Rule: string(utt.Rule), Clue: string(utt.Clue), Words: utt.Words, Truncated: clipped != text})
	}
	return out, out.Lines > 0
}

// spokenText is the words of utt, its spans joined by a space, each
// run of white space one space.
func spokenText(text string, utt *dialogue.Utterance) string {
	parts := make([]string, 0, len(utt.Spans))
	for _, s := range utt.Spans {
		parts = append(parts, strings.Join(strings.Fields(text[s.Start:s.End]), " "))
	}
	return strings.Join(parts, " ")
}

// chapterRef is how a call names u again: its title when it has one,
// else its place in reading order.
func chapterRef(u *manuscript.Unit) string {
	if u.Title != "" {
		return u.Title
	}
	return u.Label()
}

// character finds the character name names, as get_character_context
// finds it, with the same warnings when the match is not exact; a name
// that is another kind of entry, or none, is an error that says so.
func (src *Sources) character(ctx context.Context, name string) (codex.Result, []string, error) {
	results := src.canon().Lookup(name, codex.TypeCharacter)
	if len(results) == 0 {
		if other := src.canon().Lookup(name, ""); len(other) > 0 && other[0].Match != codex.MatchPartial && other[0].Match != codex.MatchFuzzy {
			return codex.Result{}, nil, toolloop.Errorf(toolloop.CodeNotFound,
				"%q is %s in the codex (%s), not a character: only characters speak; list_codex_entries with entryType character lists them",
				name, other[0].Type.WithArticle(), other[0].Name)
		}
		te := toolloop.Errorf(toolloop.CodeNotFound, "no character is called %q; give a character's name or alias (list_codex_entries with entryType character lists them)", name)
		if found, _, err := src.canon().SearchNow(ctx, name, codex.SearchOptions{Type: codex.TypeCharacter, Limit: maxNotFoundCandidates}); err == nil {
			for _, r := range found {
				te.Candidates = append(te.Candidates, r.Name)
			}
		}
		return codex.Result{}, nil, te
	}
	best := results[0]
	var warnings, tied []string
	for _, r := range results[1:] {
		if r.Match == best.Match && r.Score == best.Score {
			tied = append(tied, fmt.Sprintf("%s (%s)", r.Name, r.RelativePath))
		}
	}
	if len(tied) > 0 {
		warnings = append(warnings, fmt.Sprintf("%q matches %s equally well; these are %s's lines (%s): check it is the one meant, or give a fuller name",
			name, strings.Join(tied, ", "), best.Name, best.RelativePath))
	}
	if best.Match == codex.MatchPartial || best.Match == codex.MatchFuzzy {
		warnings = append(warnings, fmt.Sprintf("no character is named %q exactly; these are the lines of the closest, %s (%s match): check it is the one meant", name, best.Name, best.Match))
	}
	return best, warnings, nil
}

// chapterRange is the chapters from (default the first) to (default the
// last), in reading order.
func (src *Sources) chapterRange(snap *manuscript.Snapshot, from, to *string) ([]*manuscript.Unit, error) {
	var first, last *manuscript.Unit
	if from != nil {
		u, err := src.chapterArg("from", *from, "or leave from out to start at the first chapter")
		if err != nil {
			return nil, err
		}
		first = u
	}
	if to != nil {
		u, err := src.chapterArg("to", *to, "or leave to out to read to the last chapter")
		if err != nil {
			return nil, err
		}
		last = u
	}
	if first != nil && last != nil && first.Position > last.Position {
		return nil, toolloop.Errorf(toolloop.CodeInvalidArguments, "from (chapter %s) comes after to (chapter %s); give the earlier chapter as from",
			chapterName(first.Label(), first.Title), chapterName(last.Label(), last.Title))
	}
	var out []*manuscript.Unit
	for _, u := range snap.Units() {
		if u.Position > 0 && (first == nil || u.Position >= first.Position) && (last == nil || u.Position <= last.Position) {
			out = append(out, u)
		}
	}
	return out, nil
}
