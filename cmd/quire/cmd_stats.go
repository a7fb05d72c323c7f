package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/quire-ink/quire/codex"
	mbook "github.com/quire-ink/quire/manuscript/book"
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
	if o.JSON {
		return writeJSON(o.stdout, s)
	}
	return writeStats(o.stdout, s)
}

// writeStats prints the summary for a person.
func writeStats(w io.Writer, s goals.Summary) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "#\tCHAPTER\tWORDS\tTARGET\t")
	for _, c := range s.Chapters {
		target := ""
		if c.Target > 0 {
			target = goals.Thousands(c.Target)
			if c.Words >= c.Target {
				target += " ✓"
			}
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t\n", c.Position, codex.PrintableName(c.Title), goals.Thousands(c.Words), target)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n%s, in %d chapters.\n", capitalize(s.BookText()), len(s.Chapters))
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
			fmt.Fprintf(&b, "  %s  +%-7s %-8s %s\n", d.Date, goals.Thousands(d.Gross), signed(d.Net), goals.Thousands(d.Last))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func signed(n int) string {
	if n < 0 {
		return goals.Thousands(n)
	}
	return "+" + goals.Thousands(n)
}
