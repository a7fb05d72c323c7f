package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
)

// untrackedOptions configure `quire untracked`.
type untrackedOptions struct {
	*globalOptions `json:"-"`
	Min            int `json:"min,omitempty"`
}

func newUntrackedCommand(g *globalOptions) *cobra.Command {
	o := &untrackedOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "untracked",
		Short: "Names the manuscript keeps using that have no codex entry",
		Long: `List capitalized words and word pairs that the prose uses again and again,
not at the start of a sentence, and that are neither common words nor the
name or alias of any codex entry: candidates for new entries.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return o.run(cmd) },
	}
	cmd.Flags().IntVar(&o.Min, "min", manuscript.UntrackedMinCount, "how many uses make a name worth listing")
	return cmd
}

type untrackedName struct {
	Name  string   `json:"name"`
	Count int      `json:"count"`
	Units int      `json:"chapters"`
	First location `json:"first"`
}

func (o *untrackedOptions) run(cmd *cobra.Command) error {
	b, err := o.openBook(cmd.Context())
	if err != nil {
		return err
	}
	defer b.Close()
	snap := b.ms.Snapshot()
	names := []untrackedName{}
	for _, n := range snap.Mentions().Untracked(max(o.Min, 1)) {
		u, ok := snap.Unit(n.First.Path)
		if !ok {
			continue
		}
		names = append(names, untrackedName{Name: n.Name, Count: n.Count, Units: n.Units, First: locate(u, n.First.Range)})
	}
	if o.JSON {
		return writeJSON(o.stdout, names)
	}
	if len(names) == 0 {
		fmt.Fprintln(o.stdout, "Every recurring name has a codex entry.")
		return nil
	}
	tw := tabwriter.NewWriter(o.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tUSES\tCHAPTERS\tFIRST")
	for _, n := range names {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s:%d:%d\n", codex.PrintableName(n.Name), n.Count, n.Units, codex.PrintableName(n.First.Path), n.First.Line, n.First.Column)
	}
	return tw.Flush()
}
