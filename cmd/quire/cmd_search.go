package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/quire-ink/quire/codex"
)

// searchOptions configure `quire search`; the server's quire.search
// command decodes the same fields.
type searchOptions struct {
	*globalOptions `json:"-"`
	Query          string       `json:"query"`
	Type           codex.Type   `json:"type,omitempty"`
	Tags           []string     `json:"tags,omitempty"`
	Status         codex.Status `json:"status,omitempty"`
}

func newSearchCommand(g *globalOptions) *cobra.Command {
	o := &searchOptions{globalOptions: g}
	var typ, status string
	cmd := &cobra.Command{
		Use:   "search QUERY",
		Short: "Search the canon's names, aliases, summaries and text (at most 8 results)",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Query = strings.Join(args, " ")
			o.Type = codex.ParseType(typ)
			switch strings.ToLower(status) {
			case "", "all":
			case "confirmed", "tentative":
				o.Status = codex.Status(strings.ToLower(status))
			default:
				return fmt.Errorf("--status must be confirmed, tentative or all, not %q", status)
			}
			return o.run(cmd)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&typ, "type", "t", "", "only entries of this type")
	f.StringSliceVar(&o.Tags, "tag", nil, "only entries with this tag (repeatable)")
	f.StringVar(&status, "status", "", "only confirmed or tentative entries")
	return cmd
}

func (o *searchOptions) run(cmd *cobra.Command) error {
	s, err := o.openStore(cmd.Context())
	if err != nil {
		return err
	}
	defer s.Close()
	results, err := s.Search(cmd.Context(), o.Query, codex.SearchOptions{Type: o.Type, Tags: o.Tags, Status: o.Status})
	if err != nil {
		return err
	}
	if o.JSON {
		if results == nil {
			results = []codex.Result{}
		}
		return writeJSON(o.stdout, queryOutput{codex.Echo(o.Query), o.Type, results})
	}
	if len(results) == 0 {
		fmt.Fprintf(o.stderr, "quire: nothing in the codex matches %q\n", codex.Echo(o.Query))
		return exitError{1}
	}
	for i, r := range results {
		fmt.Fprintf(o.stdout, "%d. %s (%s) — %s\n", i+1, codex.PrintableName(r.Name), r.Type, codex.PrintableName(r.RelativePath))
		if r.Excerpt != "" {
			fmt.Fprintf(o.stdout, "   %s\n", strings.ReplaceAll(r.Excerpt, "\n", "\n   "))
		}
	}
	return nil
}
