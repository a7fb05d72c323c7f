package main

import (
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/quire-ink/quire/codex"
)

// listOptions configure `quire list`; the server's quire.list command
// decodes the same fields.
type listOptions struct {
	*globalOptions `json:"-"`
	Type           codex.Type `json:"entryType,omitempty"`
}

func newListCommand(g *globalOptions) *cobra.Command {
	o := &listOptions{globalOptions: g}
	return &cobra.Command{
		Use:   "list [TYPE]",
		Short: "List the codex entries of one type (or of all types)",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				o.Type = codex.ParseType(args[0])
			}
			return o.run(cmd)
		},
	}
}

type listOutput struct {
	Type    codex.Type     `json:"entryType,omitempty"`
	Count   int            `json:"count"`
	Entries []codex.Result `json:"entries"`
}

func (o *listOptions) run(cmd *cobra.Command) error {
	s, err := o.openStore(cmd.Context())
	if err != nil {
		return err
	}
	defer s.Close()
	counts := s.Catalog().TypeCounts()
	if o.Type != "" && !o.Type.Builtin() && counts[o.Type] == 0 {
		known := make([]string, 0, len(codex.Types))
		for _, t := range codex.Types {
			known = append(known, string(t))
		}
		for t := range counts {
			if !t.Builtin() {
				known = append(known, string(t))
			}
		}
		slices.Sort(known[len(codex.Types):])
		return fmt.Errorf("unknown entry type %q; types are: %s", o.Type, strings.Join(known, ", "))
	}
	results := s.List(o.Type)
	if o.JSON {
		return writeJSON(o.stdout, listOutput{o.Type, len(results), results})
	}
	if len(results) == 0 {
		fmt.Fprintf(o.stdout, "No %s entries yet.\n", o.Type)
		return nil
	}
	tw := tabwriter.NewWriter(o.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tTYPE\tSTATUS\tALIASES\tPATH")
	for _, r := range results {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", codex.PrintableName(r.Name), r.Type, r.Status, codex.PrintableName(strings.Join(r.Aliases, ", ")), codex.PrintableName(r.RelativePath))
	}
	return tw.Flush()
}
