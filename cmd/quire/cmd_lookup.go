package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/quire-ink/quire/codex"
)

// lookupOptions configure `quire lookup`; the server's quire.lookup
// command decodes the same fields.
type lookupOptions struct {
	*globalOptions `json:"-"`
	Name           string     `json:"name"`
	Type           codex.Type `json:"type,omitempty"`
	// AsOf, a chapter reference, shows the entry as the canon stands in
	// that chapter (its progressions up to there applied).
	AsOf string `json:"asOf,omitempty"`
}

func newLookupCommand(g *globalOptions) *cobra.Command {
	o := &lookupOptions{globalOptions: g}
	var typ string
	cmd := &cobra.Command{
		Use:   "lookup NAME",
		Short: "Show the canon entry for a name or alias (exact, then partial, then one typo away)",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Name = strings.Join(args, " ")
			o.Type = codex.ParseType(typ)
			return o.run(cmd)
		},
	}
	cmd.Flags().StringVarP(&typ, "type", "t", "", "only entries of this type (character, location, organization, item, concept, event, style)")
	cmd.Flags().StringVar(&o.AsOf, "as-of", "", "show the entry as of this chapter (a number, a title or a path): its progressions up to there applied")
	return cmd
}

// notFound says that no entry matches name, and what to try instead,
// repeating only the start of a long name.
func notFound(what, name string) string {
	echo := codex.Echo(name)
	return fmt.Sprintf("quire: no %s matches %q; try `quire search %s`", what, echo, echo)
}

// queryOutput is the --json answer of lookup and search.
type queryOutput struct {
	Query   string         `json:"query"`
	Type    codex.Type     `json:"type,omitempty"`
	Results []codex.Result `json:"results"`
}

func (o *lookupOptions) run(cmd *cobra.Command) error {
	// A name longer than any entry's is refused before the codex is
	// opened, and never printed back.
	if err := codex.CheckName(o.Name); err != nil {
		return err
	}
	if o.AsOf != "" {
		return o.runAsOf(cmd)
	}
	s, err := o.openStore(cmd.Context())
	if err != nil {
		return err
	}
	defer s.Close()
	results := s.Lookup(o.Name, o.Type)
	if o.JSON {
		if results == nil {
			results = []codex.Result{}
		}
		if err := writeJSON(o.stdout, queryOutput{codex.Echo(o.Name), o.Type, results}); err != nil {
			return err
		}
	} else if len(results) > 0 {
		printEntry(o.stdout, results[0])
		if len(results) > 1 {
			fmt.Fprintln(o.stdout, "\nAlso matching:")
			for _, r := range results[1:] {
				fmt.Fprintf(o.stdout, "  %s (%s, %s match) — %s\n", codex.PrintableName(r.Name), r.Type, r.Match, codex.PrintableName(r.RelativePath))
			}
		}
	}
	if len(results) == 0 {
		what := "entry"
		if o.Type != "" {
			what = string(o.Type) + " entry"
		}
		if !o.JSON {
			fmt.Fprintln(o.stderr, notFound(what, o.Name))
		}
		return exitError{1}
	}
	return nil
}

func printEntry(w interface{ Write([]byte) (int, error) }, r codex.Result) {
	fmt.Fprintf(w, "%s (%s", codex.PrintableName(r.Name), r.Type)
	if r.Status == codex.StatusTentative {
		fmt.Fprint(w, ", tentative")
	}
	fmt.Fprintf(w, ") — %s\n", codex.PrintableName(r.RelativePath))
	// A series entry's path is inside the series folder, not the book:
	// say which canon it is and where its file is.
	switch r.Canon {
	case codex.CanonSeries:
		fmt.Fprintf(w, "Series canon: %s\n", r.SeriesPath)
	case codex.CanonBookOverSeries:
		fmt.Fprintf(w, "This book's entry over the series canon (%s)", r.SeriesPath)
		if len(r.SeriesFields) > 0 {
			fmt.Fprintf(w, "; from the series: %s", strings.Join(r.SeriesFields, ", "))
		}
		fmt.Fprintln(w)
	}
	if r.Match != "" && r.Match != codex.MatchName {
		fmt.Fprintf(w, "matched by %s\n", r.Match)
	}
	if len(r.Aliases) > 0 {
		fmt.Fprintf(w, "Also known as: %s\n", strings.Join(r.Aliases, ", "))
	}
	if len(r.Tags) > 0 {
		fmt.Fprintf(w, "Tags: %s\n", strings.Join(r.Tags, ", "))
	}
	// An entry with no summary: key has its first paragraph for one,
	// which the excerpt prints anyway.
	if r.Summary != "" && !codex.SummaryOpens(r.Summary, r.Excerpt) {
		fmt.Fprintf(w, "\n%s\n", r.Summary)
	}
	if r.Excerpt != "" {
		fmt.Fprintf(w, "\n%s\n", r.Excerpt)
	}
	if r.SoulExcerpt != "" {
		fmt.Fprintf(w, "\nSoul:\n%s\n", r.SoulExcerpt)
	}
}
