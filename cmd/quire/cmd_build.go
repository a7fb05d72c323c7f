package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/quire-ink/quire/codex/count"
	mbook "github.com/quire-ink/quire/manuscript/book"
	"github.com/quire-ink/quire/manuscript/export"
)

// buildOptions configure `quire build`; the language server's
// quire.build command decodes the same request (export.Request).
type buildOptions struct {
	*globalOptions `json:"-"`
	export.Request
	// Open shows the file in the system's viewer once written.
	Open bool `json:"-"`
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

The manuscript preset (the DOCX default) carries build: author and contact
from quire.yaml (or your config.yaml); without them it shows placeholders,
and a warning names the setting. The file goes to the folder build: output
names, else to quire/<book folder> in your Documents folder, else to
quire's cache folder; never into the book unless you name a folder or
file there (-o). Its path is printed last; --open opens it.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Chapters = args
			return o.run(cmd)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Format, "format", "docx", "docx, epub, md or html")
	f.StringVar(&o.Preset, "preset", "", "manuscript (standard manuscript format) or reader (book-like); default: manuscript for docx, reader otherwise")
	f.StringVarP(&o.Out, "output", "o", "", "write to this file (default: a file named for the book in build: output, else in ~/Documents/quire/<book folder>)")
	f.BoolVar(&o.Open, "open", false, "open the file with the system's viewer (without a display: says so, names the file and exits with status 1)")
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
		Root: b.Root, Snapshot: b.Manuscript.Snapshot(), Settings: b.Settings, Cache: b.Cache.Builds(), Trust: o.trustStore(),
	}, req)
	if err != nil {
		return err
	}
	for _, w := range res.Warnings {
		fmt.Fprintln(o.stderr, "quire: warning:", w)
	}
	// The file is opened first, so that its path is what the command
	// prints last.
	why := ""
	if o.Open {
		if why = openWithSystem(res.Path); why != "" {
			fmt.Fprintf(o.stderr, "quire: could not open the file: %s. Open %s yourself.\n", why, res.Path)
		}
	}
	if o.JSON {
		err = writeJSON(o.stdout, res)
	} else {
		fmt.Fprintf(o.stderr, "quire: built %s (%s, %s preset, %s, %s):\n", buildWhat(res.Format), strings.ToUpper(string(res.Format)),
			res.Preset, count.Of(res.Chapters, "chapter"), export.RoundedWords(res.Words))
		_, err = fmt.Fprintln(o.stdout, res.Path)
	}
	if err == nil && why != "" {
		// The file is written, but what was asked, to see it, did not
		// happen: a script hears it from the status.
		return exitError{code: 1}
	}
	return err
}

// buildWhat names what a format makes.
func buildWhat(f export.Format) string {
	switch f {
	case export.EPUB:
		return "the e-book"
	case export.DOCX:
		return "the manuscript"
	}
	return "the book as one file"
}
