package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/manuscript/bookmap"
	"github.com/quire-ink/quire/manuscript/goals"
)

// mapOptions configure `quire map`.
type mapOptions struct {
	*globalOptions `json:"-"`
	// Open shows the map in the browser once written.
	Open bool `json:"open,omitempty"`
	// Out is where to write it; empty is the book's cache folder.
	Out string `json:"out,omitempty"`
	// EditorURI is the link template of the heatmap's cells
	// (bookmap.Options.EditorURI).
	EditorURI string `json:"editorUri,omitempty"`
}

func newMapCommand(g *globalOptions) *cobra.Command {
	o := &mapOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "map",
		Short: "Draw the book at a glance: who appears where, who speaks how much, when each chapter happens, what links to what, its outline",
		Long: `Write the book map, one HTML page of views: which codex entries each
chapter mentions (a heatmap whose cells open the chapter at the first
mention), the words each character speaks in each chapter and each
chapter's share of dialogue (a second heatmap), the chapters by story day,
point of view and place, the links between entries, and the outline:
acts, chapters and scenes as cards with their synopses and status, which
the page sorts, filters and edits (an edit shows the "quire outline set"
command that prints the change). The page is written to quire's cache
folder (never into the book) unless --output says where, and its path
is printed.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return o.run(cmd) },
	}
	f := cmd.Flags()
	f.BoolVar(&o.Open, "open", false, "open the map in the browser (without a display: says so, names the file and exits with status 1)")
	f.StringVarP(&o.Out, "output", "o", "", "write the map to this file (default: quire's cache folder)")
	// --out, the flag's first name, still works (the editors' plugins
	// pass it); -o and --output are build's too.
	f.StringVar(&o.Out, "out", "", "write the map to this file")
	_ = f.MarkHidden("out")
	f.StringVar(&o.EditorURI, "editor-uri", "", "link cells with this URI, {path} {line} {column} filled in (vscode://file/{path}:{line}:{column}); default: file:// links")
	return cmd
}

// mapReport is `quire map --json`.
type mapReport struct {
	Path     string `json:"path"`
	Bytes    int    `json:"bytes"`
	Chapters int    `json:"chapters"`
	Entries  int    `json:"entries"`
}

func (o *mapOptions) run(cmd *cobra.Command) error {
	b, err := o.openBook(cmd.Context())
	if err != nil {
		return err
	}
	defer b.Close()
	out := o.Out
	if out == "" {
		if out = b.Cache.Map(); out == "" {
			return fmt.Errorf("quire has no cache folder to write the map to; give one with --output FILE")
		}
	} else if out, err = filepath.Abs(out); err != nil {
		return fmt.Errorf("map: %w", err)
	}
	if inside(b.Root, out) {
		return fmt.Errorf("quire never writes inside the book: give --output a file outside %s", b.Root)
	}
	snap := b.ms.Snapshot()
	m := bookmap.Build(b.store.Catalog(), snap, bookmap.Options{
		Root: b.Root, Title: bookmap.TitleOf(b.Settings), EditorURI: o.EditorURI,
		Progress: o.progress(cmd.Context(), b, snap),
		Dialogue: readDialogueSettings(b.Settings, o.stderr),
		Outline:  readOutlineSettings(b.Settings, o.stderr),
	})
	n, err := m.WriteFile(out)
	if err != nil {
		return err
	}
	// The page is opened first, so that the path is what the command
	// prints last.
	why := ""
	if o.Open {
		if why = openWithSystem(out); why != "" {
			fmt.Fprintf(o.stderr, "quire: could not open the book map: %s. Open %s in your browser.\n", why, out)
		}
	}
	if o.JSON {
		err = writeJSON(o.stdout, mapReport{Path: out, Bytes: n, Chapters: len(m.Chapters), Entries: len(m.Entries)})
	} else {
		_, err = fmt.Fprintln(o.stdout, out)
	}
	if err == nil && why != "" {
		// The map is written, but what was asked, to see it, did not
		// happen: a script hears it from the status.
		return exitError{code: 1}
	}
	return err
}

// inside says whether path lies in the folder root (symlinks in path's
// folder resolved, as root's are).
func inside(root, path string) bool {
	dir := filepath.Dir(path)
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	rel, err := filepath.Rel(root, filepath.Join(dir, filepath.Base(path)))
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// progress is the book's counts and history for the map's progress view,
// as `quire stats` gives them; the map is a sight of the book too, so its
// counts join the history. Bad goals are warned about on stderr.
func (o *mapOptions) progress(ctx context.Context, b *wholeBook, snap *manuscript.Snapshot) *goals.Summary {
	g, problems := goals.SettingsFrom(b.Settings)
	for _, p := range problems {
		fmt.Fprintln(o.stderr, "quire: warning:", p.Error())
	}
	chapters := goals.ChaptersOf(snap)
	store := o.history(b.Book)
	store.Observe(goals.Counts(chapters))
	if err := store.Close(ctx); err != nil {
		fmt.Fprintln(o.stderr, "quire: warning: today's count was not added to the history:", err)
	}
	s := goals.Summarize(chapters, store.History(), g, store.Now())
	return &s
}
