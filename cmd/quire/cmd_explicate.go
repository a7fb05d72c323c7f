package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
)

// explicateOptions configure `quire explicate`; the server's
// quire.explicate command decodes the same fields.
type explicateOptions struct {
	*globalOptions `json:"-"`
	Quote          string `json:"quote"`
	Limit          int    `json:"limit,omitempty"`
}

func newExplicateCommand(g *globalOptions) *cobra.Command {
	o := &explicateOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "explicate QUOTE",
		Short: "Find the manuscript passages that support a sentence of the codex",
		Long: `Given a sentence quoted from a codex entry, say which entry (and section)
it comes from and show the manuscript paragraphs that best support it, with
chapter, line and score. The paragraph index lives beside the codex index
and is brought up to date first.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Quote = strings.Join(args, " ")
			return o.run(cmd)
		},
	}
	cmd.Flags().IntVarP(&o.Limit, "limit", "n", manuscript.DefaultPassages, fmt.Sprintf("how many passages (at most %d)", manuscript.MaxPassages))
	return cmd
}

type explicateOutput struct {
	*manuscript.Explication
	// Lines place the passages for a reader: Lines[i] is the line
	// Passages[i] starts on.
	Lines []int `json:"lines"`
}

func (o *explicateOptions) run(cmd *cobra.Command) error {
	ctx := cmd.Context()
	b, err := o.openBook(ctx)
	if err != nil {
		return err
	}
	defer b.Close()
	p, err := o.openPassages(ctx, b)
	if err != nil {
		return err
	}
	defer p.Close()
	snap := b.ms.Snapshot()
	ex, err := p.Explicate(ctx, o.Quote, manuscript.ExplicateOptions{Limit: o.Limit, Catalog: b.store.Catalog()})
	if err != nil {
		return err
	}
	out := explicateOutput{Explication: ex, Lines: make([]int, len(ex.Passages))}
	for i, ps := range ex.Passages {
		if u, ok := snap.Unit(ps.Path); ok {
			out.Lines[i], _ = codex.LineColumn(u.Text, ps.Range.Start)
		}
	}
	if o.JSON {
		return writeJSON(o.stdout, out)
	}
	if src := ex.Source; src != nil {
		how := "quoted from"
		if !src.Exact {
			how = "closest to a sentence of"
		}
		where := src.Name
		if src.Section != "" {
			where += " › " + src.Section
		}
		line := 0
		if e, ok := b.store.Catalog().Get(src.Entry); ok && src.Path == e.ID {
			line, _ = codex.LineColumn(e.Source, src.Range.Start)
		}
		fmt.Fprintf(o.stdout, "%s %s (%s:%d)\n\n", capitalize(how), where, codex.PrintableName(src.Path), line)
	} else {
		fmt.Fprintln(o.stdout, "Not found in the codex; searching the manuscript for it anyway.")
		fmt.Fprintln(o.stdout)
	}
	if len(ex.Passages) == 0 {
		fmt.Fprintln(o.stdout, "No passage of the manuscript supports it.")
		return exitError{1}
	}
	for i, ps := range ex.Passages {
		label := ps.Title
		if ps.Number > 0 {
			label = fmt.Sprintf("%d. %s", ps.Number, ps.Title)
		}
		if ps.Heading != "" {
			label += " › " + ps.Heading
		}
		fmt.Fprintf(o.stdout, "%d. %s — %s:%d (score %.2f)\n", i+1, label, codex.PrintableName(ps.Path), out.Lines[i], ps.Score)
		for _, l := range strings.Split(strings.TrimSpace(ps.Text), "\n") {
			fmt.Fprintf(o.stdout, "   %s\n", l)
		}
		fmt.Fprintln(o.stdout)
	}
	return nil
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
