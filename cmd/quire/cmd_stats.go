package main

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/count"
	"github.com/quire-ink/quire/codex/settings"
	"github.com/quire-ink/quire/manuscript"
	mbook "github.com/quire-ink/quire/manuscript/book"
	"github.com/quire-ink/quire/manuscript/dialogue"
	"github.com/quire-ink/quire/manuscript/goals"
)

// statsOptions configure `quire stats`.
type statsOptions struct {
	*globalOptions `json:"-"`
}

func newStatsCommand(g *globalOptions) *cobra.Command {
	o := &statsOptions{globalOptions: g}
	return &cobra.Command{
		Use:   "stats",
		Short: "Show word counts, today's progress and what is left to reach the book's goals",
		Long: `Count the book's words by quire's one rule (see docs/goals.md): each
chapter against its target, the book against its target, today's words
added and net change, the last 30 days, the streak of writing days and,
with a deadline, the words a day still needed. The counts seen are added to
the book's history, kept in quire's cache folder, never in the book.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return o.run(cmd) },
	}
}

func (o *statsOptions) run(cmd *cobra.Command) error {
	b, err := o.open(cmd.Context(), mbook.Options{Parts: mbook.Chapters})
	if err != nil {
		return err
	}
	defer b.Close()
	g, problems := goals.SettingsFrom(b.Settings)
	for _, p := range problems {
		fmt.Fprintln(o.stderr, "quire: warning:", p.Error())
	}
	chapters := goals.ChaptersOf(b.Manuscript.Snapshot())
	store := o.history(b)
	store.Observe(goals.Counts(chapters))
	if err := store.Close(cmd.Context()); err != nil {
		// The counts stand without the history; say why it was not kept.
		fmt.Fprintln(o.stderr, "quire: warning: today's count was not added to the history:", err)
	}
	s := goals.Summarize(chapters, store.History(), g, store.Now())
	out := withDialogue(s, b.Manuscript.Snapshot(), readDialogueSettings(b.Settings, o.stderr))
	if o.JSON {
		return writeJSON(o.stdout, out)
	}
	return writeStats(o.stdout, out)
}

// statsOutput is the summary with each chapter's share of dialogue, the
// one thing `quire stats` says that the editors' quire/stats does not.
// Its Chapters stand over the summary's in the JSON.
type statsOutput struct {
	goals.Summary
	Chapters []statsChapter `json:"chapters"`
	// DialogueWords are the words spoken in the whole book, and
	// DialogueShare their share of its words, from 0 to 1.
	DialogueWords int     `json:"dialogueWords"`
	DialogueShare float64 `json:"dialogueShare"`
}

// statsChapter is a chapter's counts with its dialogue: the words
// spoken (docs/dialogue.md) and their share of its words.
type statsChapter struct {
	goals.Chapter
	DialogueWords int     `json:"dialogueWords"`
	DialogueShare float64 `json:"dialogueShare"`
}

// withDialogue adds to s each chapter's spoken words, found in the
// chapters of snap.
func withDialogue(s goals.Summary, snap *manuscript.Snapshot, opts dialogue.Options) statsOutput {
	units := make([]*manuscript.Unit, len(s.Chapters))
	for i, c := range s.Chapters {
		u, ok := snap.Unit(c.Path)
		if !ok {
			// Not in the snapshot (cannot happen: the summary was made from
			// it); no text, no dialogue.
			u = &manuscript.Unit{Path: c.Path}
		}
		units[i] = u
	}
	spoken := dialogue.SpokenWords(units, opts)
	out := statsOutput{Summary: s, Chapters: make([]statsChapter, len(s.Chapters))}
	for i, c := range s.Chapters {
		out.Chapters[i] = statsChapter{Chapter: c, DialogueWords: spoken[i], DialogueShare: roundShare(dialogue.Share(spoken[i], c.Words))}
		out.DialogueWords += spoken[i]
	}
	out.DialogueShare = roundShare(dialogue.Share(out.DialogueWords, s.Words))
	return out
}

// roundShare keeps three decimals of a share (0.347), all a reader needs.
func roundShare(x float64) float64 { return math.Round(x*1000) / 1000 }

// readDialogueSettings are quire.yaml's dialogue: settings, a problem
// with them a warning on w.
func readDialogueSettings(l *settings.Loaded, w io.Writer) dialogue.Options {
	opts, problems := dialogue.ReadSettings(l)
	for _, p := range problems {
		fmt.Fprintln(w, "quire: warning:", p.Error())
	}
	return opts
}

// writeStats prints the summary for a person.
func writeStats(w io.Writer, out statsOutput) error {
	s := out.Summary
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "#\tCHAPTER\tWORDS\tDIALOGUE\tTARGET\t")
	for _, c := range out.Chapters {
		target := ""
		if c.Target > 0 {
			target = count.Number(c.Target)
			if c.Words >= c.Target {
				target += " ✓"
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t\n", c.Label, codex.PrintableName(c.Title), count.Number(c.Words), dialogue.Percent(c.DialogueShare), target)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n%s, in %s.\n", capitalize(s.BookText()), count.Of(len(s.Chapters), "chapter"))
	fmt.Fprintf(&b, "Dialogue: %s of the words are spoken.\n", dialogue.Percent(out.DialogueShare))
	fmt.Fprintf(&b, "%s.\n", capitalize(s.TodayText()))
	if s.Streak > 0 {
		fmt.Fprintf(&b, "Streak: %d writing days in a row.\n", s.Streak)
	}
	if s.Quota != nil {
		fmt.Fprintln(&b, s.Quota.Message)
	}
	if len(s.Days) > 0 {
		fmt.Fprintln(&b, "\nLast 30 days (words added, net change, book at day's end):")
		for _, d := range s.Days {
			fmt.Fprintf(&b, "  %s  +%-7s %-8s %s\n", d.Date, count.Number(d.Gross), signed(d.Net), count.Number(d.Last))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func signed(n int) string {
	if n < 0 {
		return count.Number(n)
	}
	return "+" + count.Number(n)
}
