package main

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	mbook "github.com/quire-ink/quire/manuscript/book"
	"github.com/quire-ink/quire/manuscript/export"
)

// buildOptions configure `quire build`; the language server's
// quire.build command decodes the same request (export.Request).
type buildOptions struct {
	*globalOptions `json:"-"`
	export.Request
}

func newBuildCommand(g *globalOptions) *cobra.Command {
	o := &buildOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "build [PATH…]",
		Short: "Make the manuscript into a DOCX, an EPUB, or one Markdown or HTML file",
		Long: `Build the manuscript, in reading order (or only the chapters named, by
path, number or title), into one file: a standard manuscript or a book-like
DOCX, an EPUB 3, or a single Markdown or HTML file for beta readers. Front
matter, HTML comments and codex files never appear; [[Name|label]] becomes
its label; emphasis, block quotes, lists and smart punctuation are kept;
a ## scene heading or a *** line is a scene break.

The manuscript preset (the DOCX default) needs build: author and contact in
quire.yaml (or your config.yaml). The file goes to quire's cache folder,
never into the book, unless -o names a file; its path is printed.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Chapters = args
			return o.run(cmd)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Format, "format", "docx", "docx, epub, md or html")
	f.StringVar(&o.Preset, "preset", "", "manuscript (standard manuscript format) or reader (book-like); default: manuscript for docx, reader otherwise")
	f.StringVarP(&o.Out, "output", "o", "", "write to this file (default: a file named for the book in quire's cache folder)")
	return cmd
}

func (o *buildOptions) run(cmd *cobra.Command) error {
	b, err := o.open(cmd.Context(), mbook.Options{Parts: mbook.Chapters})
	if err != nil {
		return err
	}
	defer b.Close()
	req := o.Request
	if req.Out != "" {
		// The writer named this file: it may be inside the book.
		if req.Out, err = filepath.Abs(req.Out); err != nil {
			return fmt.Errorf("build: %w", err)
		}
	}
	res, err := export.Build(cmd.Context(), export.Target{
		Root: b.Root, Snapshot: b.Manuscript.Snapshot(), Settings: b.Settings, Dir: b.Cache.Builds(),
	}, req)
	if err != nil {
		return err
	}
	if o.JSON {
		return writeJSON(o.stdout, res)
	}
	_, err = fmt.Fprintln(o.stdout, res.Path)
	return err
}
