package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/count"
	"github.com/quire-ink/quire/manuscript"
)

// contextOptions configure `quire context`; the server's
// quire/manuscriptContext request decodes the same fields, as the
// advisor's get_manuscript_context tool takes them.
type contextOptions struct {
	*globalOptions `json:"-"`
	Ref            string   `json:"ref,omitempty"`
	Refs           []string `json:"refs,omitempty"`
	// Current is the active document, which "current" names; the server
	// knows it from the editor.
	Current string `json:"-"`
	Limit   int    `json:"-"`
}

func newContextCommand(g *globalOptions) *cobra.Command {
	o := &contextOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "context [REF]",
		Short: "Print manuscript text as the advisor reads it: a chapter number, a title, a path, or current",
		Long: `Print manuscript text exactly as the advisor's get_manuscript_context tool
returns it. REF is a chapter number ("3", "chapter 3"), a title (any case, a
unique prefix is enough), a project-relative path, or "current" with
--current. --refs reads several units at once, for comparisons. Text is
bounded (24,000 characters per unit by default) and a cut says so.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				o.Ref = args[0]
			}
			return o.run(cmd)
		},
	}
	cmd.Flags().StringSliceVar(&o.Refs, "refs", nil, "several references, comma-separated, for a comparison")
	cmd.Flags().StringVar(&o.Current, "current", "", "project-relative path of the document \"current\" names")
	cmd.Flags().IntVar(&o.Limit, "limit", 0, fmt.Sprintf("characters per unit (default %d)", manuscript.DefaultUnitChars))
	return cmd
}

func (o *contextOptions) refs() []string {
	refs := append([]string(nil), o.Refs...)
	if o.Ref != "" {
		refs = append([]string{o.Ref}, refs...)
	}
	return refs
}

func (o *contextOptions) run(cmd *cobra.Command) error {
	refs := o.refs()
	if len(refs) == 0 {
		return errors.New("name what to read: a chapter number, a title, a path, or --refs A,B")
	}
	m, err := o.openManuscript(cmd.Context())
	if err != nil {
		return err
	}
	snap := m.Snapshot()
	result, err := snap.Context(refs, manuscript.Place{Current: o.Current}, manuscript.Limits{Unit: o.Limit})
	if err != nil {
		return err
	}
	if o.JSON {
		return writeJSON(o.stdout, result)
	}
	for i, u := range result.Units {
		if i > 0 {
			fmt.Fprintln(o.stdout)
		}
		fmt.Fprintf(o.stdout, "── %s ── %s · %s\n\n", unitLabel(u), codex.PrintableName(u.Path), count.Of(u.Words, "word"))
		fmt.Fprintln(o.stdout, strings.TrimRight(u.Text, "\n"))
	}
	for _, f := range result.Failed {
		fmt.Fprintf(o.stderr, "quire: %s\n", f.Error)
	}
	return nil
}

func unitLabel(u manuscript.ContextUnit) string {
	if u.Number > 0 {
		return fmt.Sprintf("%d. %s", u.Number, u.Title)
	}
	return u.Title
}
