package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/quire-ink/quire/codex/corpus"
)

// genCorpusOptions configure the hidden `quire gen-corpus` command, which
// writes a synthetic project for benchmarks.
type genCorpusOptions struct {
	*globalOptions
	Dir string
	// Preset names a corpus size (corpus.Preset); flags given as well
	// change it.
	Preset string
	// Books, when set, writes a series instead of a book: the codex in
	// DIR/series and that many books DIR/book-N that name it.
	Books int
	corpus.Options
}

func newGenCorpusCommand(g *globalOptions) *cobra.Command {
	o := &genCorpusOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:    "gen-corpus DIR",
		Short:  "Write a synthetic book project for benchmarks",
		Hidden: true,
		Args:   cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Dir = args[0]
			if err := o.applyPreset(cmd); err != nil {
				return err
			}
			if o.Books > 0 {
				s, err := writeSeriesCorpus(cmd.Context(), o.Dir, o.Options, o.Books)
				if err != nil {
					return err
				}
				fmt.Fprintf(o.stdout, "Wrote a series of %d entries in %s and %d books of %d chapters naming it (trust each with quire trust).\n",
					len(s.Entries), s.Series, len(s.Books), len(s.Chapters))
				return nil
			}
			c, err := corpus.Generate(cmd.Context(), o.Dir, o.Options)
			if err != nil {
				return err
			}
			fmt.Fprintf(o.stdout, "Wrote %d entries and %d chapters to %s.\n", len(c.Entries), len(c.Chapters), o.Dir)
			return nil
		},
	}
	f := cmd.Flags()
	f.IntVar(&o.Entries, "entries", 1000, "codex entries, spread over all types")
	f.IntVar(&o.Chapters, "chapters", 100, "manuscript chapters")
	f.IntVar(&o.ChapterWords, "chapter-words", 2500, "approximate words per chapter")
	f.Uint64Var(&o.Seed, "seed", 1, "random seed; the same seed writes the same corpus")
	f.BoolVar(&o.Outline, "outline", false, "give each chapter a pov, day and status and each scene a note with a synopsis and status, as a planned book has")
	f.IntVar(&o.Books, "books", 0, "write a series instead: the codex in DIR/series, shared by this many books DIR/book-1… with the chapters")
	f.StringVar(&o.Preset, "preset", "", "a corpus size by name: "+strings.Join(corpus.PresetNames(), ", ")+
		" (novel: 10,000 entries, 200 chapters, about 1M words; series: 800 chapters, about 4M words); other flags change it")
	return cmd
}

// applyPreset starts from the named preset, keeping the flags given.
func (o *genCorpusOptions) applyPreset(cmd *cobra.Command) error {
	if o.Preset == "" {
		return nil
	}
	p, err := corpus.Preset(o.Preset)
	if err != nil {
		return err
	}
	f := cmd.Flags()
	if !f.Changed("entries") {
		o.Entries = p.Entries
	}
	if !f.Changed("chapters") {
		o.Chapters = p.Chapters
	}
	if !f.Changed("chapter-words") {
		o.ChapterWords = p.ChapterWords
	}
	if !f.Changed("seed") {
		o.Seed = p.Seed
	}
	return nil
}
