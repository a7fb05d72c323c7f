package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/quire-ink/quire/codex"
)

// initOptions configure `quire init`.
type initOptions struct {
	*globalOptions
	Dir    string
	Sample bool
}

func newInitCommand(g *globalOptions) *cobra.Command {
	o := &initOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "init [--sample] DIR",
		Short: "Create a new book project (or the sample book) in an empty folder",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Dir = args[0]
			return o.run()
		},
	}
	cmd.Flags().BoolVar(&o.Sample, "sample", false, "write the sample book \"The Thirteenth Bell\" instead of an empty project")
	return cmd
}

// newProjectFiles is the skeleton of an empty book project.
var newProjectFiles = map[string]string{
	"quire.yaml": `# quire settings for this book. Every key is optional.
title: "Untitled"
genre: ""            # e.g. "literary thriller"; advisors read it
audience:
  age: ""            # e.g. "adult", "young adult"
  lens: ""           # the readers you write for
build:               # quire build (docs/build.md); these may sit in your config.yaml for every book
  author: ""         # your name on the manuscript's first page and running header
  contact: ""        # under your name on page one, one line each: contact: | then the lines
  # dashes: em       # -- and --- become em dashes; pandoc: -- en, --- em; spaced: -- a spaced en dash
  # output: ~/Manuscripts   # where quire build writes; default: Documents/quire/<this folder's name>
`,
	"manuscript/01-chapter-one.md": "# Chapter One\n\n",
}

func (o *initOptions) run() error {
	if list, err := os.ReadDir(o.Dir); err == nil && len(list) > 0 {
		return fmt.Errorf("%s is not empty; quire init only writes into a new or empty folder", o.Dir)
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("init %s: %w", o.Dir, err)
	}
	var err error
	if o.Sample {
		err = copyFS(o.Dir, sampleBook())
	} else {
		err = o.writeSkeleton()
	}
	if err != nil {
		return err
	}
	what := "a new book project"
	if o.Sample {
		what = "the sample book \"The Thirteenth Bell\""
	}
	fmt.Fprintf(o.stdout, "Wrote %s to %s.\nNext: quire index --project %s\n", what, o.Dir, shellQuote(o.Dir))
	return nil
}

func (o *initOptions) writeSkeleton() error {
	for _, t := range codex.Types {
		if err := os.MkdirAll(filepath.Join(o.Dir, "codex", t.Plural()), 0o755); err != nil {
			return fmt.Errorf("init %s: %w", o.Dir, err)
		}
	}
	for rel, text := range newProjectFiles {
		path := filepath.Join(o.Dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return fmt.Errorf("init %s: %w", o.Dir, err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			return fmt.Errorf("init %s: %w", o.Dir, err)
		}
	}
	return nil
}

// copyFS writes every file of src below dir. Unlike os.CopyFS it leaves
// the files writable, as a writer expects of their own book.
func copyFS(dir string, src fs.FS) error {
	return fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		target := filepath.Join(dir, filepath.FromSlash(p))
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := fs.ReadFile(src, p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}
