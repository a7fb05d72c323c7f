package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/quire-ink/quire/codex/settings"
	"github.com/quire-ink/quire/llm"
	"github.com/quire-ink/quire/llm/health"
	mbook "github.com/quire-ink/quire/manuscript/book"
)

func newDoctorCommand(g *globalOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "doctor",
		Short: "Say whether quire, the book, the model and its key are ready, and what to do when not",
		Long: `Check everything the advisor needs, one line each: this quire and its
version, the book found and its settings files, the index, the provider,
whether the model's server answers (quire asks it for its list of models,
and sends no prompt), where the key comes from (never the key), whether
the book is trusted, and its series. Each failing line says what to do.
quire doctor exits with status 1 when a line is a problem; a book with no
model chosen yet is a warning (only the advisor needs one), not a problem.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			r := g.doctor(cmd)
			if g.JSON {
				if err := writeJSON(g.stdout, r); err != nil {
					return err
				}
			} else {
				fmt.Fprint(g.stdout, r.Text())
			}
			if r.HasProblem() {
				return exitError{code: 1}
			}
			return nil
		},
	}
}

// doctor opens the book's codex quietly (what would go to stderr is in
// the report) and builds the report.
func (g *globalOptions) doctor(cmd *cobra.Command) health.Report {
	ctx := cmd.Context()
	o := health.Options{
		Binary: health.Binary{Path: health.Executable(), Version: readBuildInfo().String()},
		Trust:  g.trustStore(),
		Keys:   llm.KeyFinder{Getenv: os.Getenv, Stored: g.keyStore()},
	}
	local := g.localModels()
	o.LocalModels = &local
	dir, err := g.projectDir()
	if err != nil {
		o.IndexErr = err
		return health.Build(ctx, o)
	}
	switch wd, _ := os.Getwd(); {
	case g.Project != "":
		o.Found = "as the folder you named with --project"
	case dir == wd && !isBookFolder(dir):
		// projectDir found no book upwards and took the working folder.
		o.Found = "as the folder quire runs in, no book being found above it"
	default:
		o.Found = "as the nearest folder upwards with quire.yaml, codex/ or manuscript/"
	}
	var locked bool
	var fallback string
	b, err := mbook.Open(ctx, dir, mbook.Options{
		Parts:      mbook.Codex,
		Cache:      mbook.CacheOptions{Dir: g.CacheDir},
		OnLocked:   func() { locked = true },
		OnFallback: func(why string) { fallback = why },
		// The report says what of the series was read; it tells of the
		// trust itself (health's trust check), so the book need not.
		Trust: o.Trust,
	})
	if err != nil {
		o.Root, o.IndexErr = dir, err
		if l, lerr := settings.Load(settings.Disk(dir)); lerr == nil {
			o.Settings = l
		}
		return health.Build(ctx, o)
	}
	defer b.Close()
	o.Root, o.Settings, o.SeriesRead = b.Root, b.Settings, b.Series != nil
	rep := b.Store.Report()
	o.Index = &health.Index{CacheDir: b.Cache.Dir, Rebuilt: rep.Rebuilt, Reason: rep.Reason, Locked: locked || b.Locked,
		Fallback: fallback, Entries: b.Store.Catalog().Len()}
	if o.Index.Fallback == "" {
		o.Index.Fallback = b.Store.Fallback()
	}
	return health.Build(ctx, o)
}

// isBookFolder says dir holds one of the markers projectDir looks for.
func isBookFolder(dir string) bool {
	for _, marker := range []string{"quire.yaml", "codex", "manuscript"} {
		if _, err := os.Stat(filepath.Join(dir, marker)); err == nil {
			return true
		}
	}
	return false
}
