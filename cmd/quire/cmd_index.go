package main

import (
	"context"
	"fmt"
	"time"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/count"
	mbook "github.com/quire-ink/quire/manuscript/book"
	"github.com/spf13/cobra"
)

// indexOptions configure `quire index`.
type indexOptions struct {
	*globalOptions
}

func newIndexCommand(g *globalOptions) *cobra.Command {
	o := &indexOptions{globalOptions: g}
	return &cobra.Command{
		Use:   "index",
		Short: "Build or update the codex index and report problems in the canon",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return o.run(cmd)
		},
	}
}

type indexReport struct {
	Project  string             `json:"project"`
	Report   codex.OpenReport   `json:"report"`
	Types    map[codex.Type]int `json:"types"`
	Problems []codex.Problem    `json:"problems"`
}

func (o *indexOptions) run(cmd *cobra.Command) error {
	ctx, stop := context.WithCancel(cmd.Context())
	defer stop()
	tuneIndexGC(ctx)
	var bar *progressBar
	if !o.JSON {
		bar = newProgressBar(o.stderr)
	}
	b, err := o.open(cmd.Context(), mbook.Options{Parts: mbook.Codex, Progress: bar.update, FailWhenLocked: true})
	bar.finish()
	if err != nil {
		return err
	}
	s := b.Store
	defer s.Close()
	rep := indexReport{
		Project:  s.Root(),
		Report:   s.Report(),
		Types:    s.Catalog().TypeCounts(),
		Problems: s.Catalog().Problems(),
	}
	if rep.Problems == nil {
		rep.Problems = []codex.Problem{}
	}
	if o.JSON {
		return writeJSON(o.stdout, rep)
	}
	r := rep.Report
	how := "up to date"
	if r.Rebuilt {
		how = "built anew: " + r.Reason
	}
	fmt.Fprintf(o.stdout, "Indexed %d codex entries from %d Markdown files in %s (%d read, %d removed; %s).\n",
		r.Entries, r.Files, r.Duration.Round(100*time.Microsecond), r.Parsed, r.Removed, how)
	for _, t := range codex.Types {
		if n := rep.Types[t]; n > 0 {
			fmt.Fprintf(o.stdout, "  %-13s %d\n", t.Plural(), n)
		}
	}
	if r.CacheDir != "" {
		fmt.Fprintf(o.stdout, "Index: %s\n", r.CacheDir)
	} else {
		fmt.Fprintln(o.stdout, "Index: in memory for this run only (nothing written)")
	}
	if len(rep.Problems) == 0 {
		fmt.Fprintln(o.stdout, "No problems found.")
		return nil
	}
	fmt.Fprintf(o.stdout, "%s:\n", count.Of(len(rep.Problems), "problem"))
	for _, line := range problemLines(s.Root(), rep.Problems) {
		fmt.Fprintln(o.stdout, "  "+line)
	}
	return nil
}
