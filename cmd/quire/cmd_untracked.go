package main

import (
	"fmt"
	"strings"
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
name or alias of any codex entry: candidates for new entries.

Each is named as the prose writes it most; the other forms folded into it
("Mr. Wickham" beside Wickham, "Netherfield House" beside Netherfield) are
its aliases. USES is how many mentions an entry of that name and those
aliases would have (a sentence's first word included) while the others
listed have none: the "Create entry" quick fix writes them so, and names
in EXCLUDES the other names listed that the entry must not count
("Lady Catherine" for Catherine).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return o.run(cmd) },
	}
	cmd.Flags().IntVar(&o.Min, "min", manuscript.UntrackedMinCount, "how many uses make a name worth listing")
	return cmd
}

type untrackedName struct {
	Name string `json:"name"`
	// Aliases are the other forms counted; Exclude the other names an
	// entry must exclude to find exactly Count mentions.
	Aliases []string `json:"aliases"`
	Exclude []string `json:"exclude"`
	Count   int      `json:"count"`
	Units   int      `json:"chapters"`
	First   location `json:"first"`
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
		names = append(names, untrackedName{Name: n.Name, Aliases: orEmpty(n.Aliases), Exclude: orEmpty(n.Exclude),
			Count: n.Count, Units: n.Units, First: locate(u, n.First.Range)})
	}
	if o.JSON {
		return writeJSON(o.stdout, names)
	}
	if len(names) == 0 {
		fmt.Fprintln(o.stdout, "Every recurring name has a codex entry.")
		return nil
	}
	tw := tabwriter.NewWriter(o.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tUSES\tCHAPTERS\tFIRST\tALIASES\tEXCLUDES")
	for _, n := range names {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s:%d:%d\t%s\t%s\n", codex.PrintableName(n.Name), n.Count, n.Units, codex.PrintableName(n.First.Path), n.First.Line, n.First.Column,
			printableList(n.Aliases), printableList(n.Exclude))
	}
	return tw.Flush()
}

// printableList is a column of names: comma-separated, "-" for none.
func printableList(names []string) string {
	if len(names) == 0 {
		return "-"
	}
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = codex.PrintableName(n)
	}
	return strings.Join(out, ", ")
}

// orEmpty is list, or an empty list for JSON's [] rather than null.
func orEmpty(list []string) []string {
	if list == nil {
		return []string{}
	}
	return list
}
