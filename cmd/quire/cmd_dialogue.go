package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/clip"
	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/manuscript/dialogue"
	"github.com/quire-ink/quire/server/textdoc"
	"github.com/quire-ink/quire/server/wire"
)

// dialogueOptions configure `quire dialogue`.
type dialogueOptions struct {
	*globalOptions `json:"-"`
	// Speaker, a character's name or alias, keeps the lines given to that
	// character and the uncertain ones that may be theirs.
	Speaker string `json:"speaker,omitempty"`
	// Chapter, a chapter reference (a number, a title or a path), keeps
	// that chapter's lines.
	Chapter string `json:"chapter,omitempty"`
}

func newDialogueCommand(g *globalOptions) *cobra.Command {
	o := &dialogueOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "dialogue",
		Short: "Every line of dialogue in the manuscript, with who speaks it and how quire decided",
		Long: `List the speech of every chapter in reading order: each utterance with its
line, its speaker (or "?" and the characters it may be when quire cannot
tell), the rule that decided (writer, explicit, pronoun, narration,
vocative, turn-taking, none) and the words spoken. quire.yaml's dialogue:
quotes states the book's convention when detection should not guess; a
<!-- speaker: Name --> line in the utterance's paragraph overrides the
rules. See docs/dialogue.md.

--json prints {"utterances": [...]}, one record per utterance, with byte
offsets and 1-based lines and UTF-16 columns.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return o.run(cmd) },
	}
	cmd.Flags().StringVar(&o.Speaker, "speaker", "", "only the lines of this character (a name or alias), the uncertain ones that may be theirs included")
	cmd.Flags().StringVar(&o.Chapter, "chapter", "", "only this chapter (a number, a title or a path)")
	return cmd
}

func (o *dialogueOptions) run(cmd *cobra.Command) error {
	b, err := o.openBook(cmd.Context())
	if err != nil {
		return err
	}
	defer b.Close()
	opts := readDialogueSettings(b.Settings, o.stderr)
	cat := b.View.Catalog()
	snap := b.ms.Snapshot()
	book := dialogue.NewBook(snap, cat, opts)

	speaker := ""
	if o.Speaker != "" {
		if speaker, err = o.findSpeaker(cat); err != nil {
			return err
		}
	}
	var chapters []dialogue.ChapterDialogue
	if o.Chapter != "" {
		u, err := snap.Resolve(o.Chapter, manuscript.Place{})
		if err != nil {
			return err
		}
		chapters = book.Units([]*manuscript.Unit{u})
	} else {
		chapters = book.Chapters()
	}
	if speaker != "" {
		for i := range chapters {
			chapters[i].Utterances = slices.DeleteFunc(slices.Clone(chapters[i].Utterances), func(u dialogue.Utterance) bool {
				return u.Best() != speaker
			})
		}
	}
	name := func(id string) string {
		if e, ok := cat.Get(id); ok {
			return e.Name
		}
		return id
	}
	if o.JSON {
		return writeDialogueJSON(o.stdout, chapters, name)
	}
	return o.print(chapters, speaker, name)
}

// findSpeaker is the character --speaker names, found as quire lookup
// finds a name (exact, then partial, then one typo away).
func (o *dialogueOptions) findSpeaker(cat *codex.Catalog) (string, error) {
	e, guessed, err := dialogue.FindCharacter(cat, o.Speaker)
	if err != nil {
		return "", fmt.Errorf("%w; --speaker takes a character's name or alias (quire list characters lists them)", err)
	}
	if guessed {
		fmt.Fprintf(o.stderr, "quire: --speaker %q is taken as %s\n", o.Speaker, codex.PrintableName(e.Name))
	}
	return e.ID, nil
}

// writeDialogueJSON writes what json.Encoder would write of a
// wire.Dialogue, one record at a time: a long book's records are never
// all held at once.
func writeDialogueJSON(w io.Writer, chapters []dialogue.ChapterDialogue, name func(string) string) error {
	bw := bufio.NewWriter(w)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("    ", "  ")
	enc.SetEscapeHTML(false)
	bw.WriteString("{\n  \"utterances\": [")
	n := 0
	for _, ch := range chapters {
		if len(ch.Utterances) == 0 {
			continue
		}
		lines := textdoc.NewLines(ch.Unit.Text)
		for i := range ch.Utterances {
			buf.Reset()
			if err := enc.Encode(wire.DialogueRecordOf(ch.Unit, lines, &ch.Utterances[i], name)); err != nil {
				return fmt.Errorf("write the dialogue of %s: %w", ch.Unit.Path, err)
			}
			if n > 0 {
				bw.WriteString(",")
			}
			bw.WriteString("\n    ")
			bw.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
			n++
		}
	}
	if n > 0 {
		bw.WriteString("\n  ")
	}
	bw.WriteString("]\n}\n")
	return bw.Flush()
}

// The text form's widths: the spoken words and the deciding tag are
// clipped to these many bytes.
const (
	dialogueTextWidth = 72
	dialogueTagWidth  = 32
)

// print lists the utterances for a person, chapter by chapter.
func (o *dialogueOptions) print(chapters []dialogue.ChapterDialogue, speaker string, name func(string) string) error {
	if len(chapters) == 0 {
		fmt.Fprintln(o.stdout, "No chapters found (quire reads manuscript/**/*.md unless quire.yaml says otherwise).")
		return nil
	}
	total, uncertain, shown := 0, 0, 0
	for _, ch := range chapters {
		if len(ch.Utterances) == 0 {
			continue
		}
		if shown > 0 {
			fmt.Fprintln(o.stdout)
		}
		shown++
		c := ch.Unit
		label := c.Title
		if c.Number > 0 {
			label = fmt.Sprintf("%d. %s", c.Number, c.Title)
		}
		fmt.Fprintf(o.stdout, "%s (%s)\n", codex.PrintableName(label), codex.PrintableName(c.Path))
		lines := textdoc.NewLines(c.Text)
		tw := tabwriter.NewWriter(o.stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "  LINE\tSPEAKER\tDECIDED BY\tSPOKEN")
		for i := range ch.Utterances {
			u := &ch.Utterances[i]
			total++
			if u.Uncertain {
				uncertain++
			}
			r := wire.DialogueRecordOf(c, lines, u, name)
			fmt.Fprintf(tw, "  %d\t%s\t%s\t%s\n", r.Spans[0].Line, speakerText(r), decidedText(r), clippedLine(r.Text, dialogueTextWidth))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	switch {
	case total == 0 && speaker != "":
		fmt.Fprintf(o.stdout, "quire gives %s no line, certain or uncertain.\n", codex.PrintableName(name(speaker)))
	case total == 0:
		fmt.Fprintln(o.stdout, "No dialogue found.")
	default:
		fmt.Fprintf(o.stdout, "\n%d %s in %d %s; %d uncertain.\n", total, plural(total, "utterance", "utterances"), shown, plural(shown, "chapter", "chapters"), uncertain)
	}
	return nil
}

// speakerText is the speaker's name, or "?" and who it may be.
func speakerText(r wire.DialogueRecord) string {
	if r.SpeakerName != nil {
		return codex.PrintableName(*r.SpeakerName)
	}
	if len(r.Candidates) == 0 {
		return "?"
	}
	names := make([]string, len(r.Candidates))
	for i, c := range r.Candidates {
		names[i] = codex.PrintableName(c.Name)
	}
	return "? (maybe " + strings.Join(names, ", ") + ")"
}

// decidedText is the rule, with the words that decided.
func decidedText(r wire.DialogueRecord) string {
	if r.Rule == string(dialogue.RuleWriter) {
		return "writer: speaker line"
	}
	rule := r.Rule
	if r.Clue != "" {
		rule += " (" + r.Clue + ")"
	}
	if r.Tag != nil {
		return rule + ": " + clippedLine(r.Tag.Text, dialogueTagWidth)
	}
	return rule
}

// clippedLine is s on one line (every run of space one space), clipped
// at a word to width bytes, made safe to print.
func clippedLine(s string, width int) string {
	return codex.PrintableName(clip.Words(strings.Join(strings.Fields(s), " "), width))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
