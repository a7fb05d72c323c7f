package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/count"
	"github.com/quire-ink/quire/manuscript"
	mbook "github.com/quire-ink/quire/manuscript/book"
	"github.com/quire-ink/quire/manuscript/snapshot"
)

// snapshotOptions configure `quire snapshot …`.
type snapshotOptions struct {
	*globalOptions `json:"-"`
	Chapter        string `json:"chapter,omitempty"`
	Color          string `json:"color,omitempty"`
	Print          bool   `json:"print,omitempty"`
	Whole          bool   `json:"whole,omitempty"`
	DryRun         bool   `json:"dryRun,omitempty"`
}

func newSnapshotCommand(g *globalOptions) *cobra.Command {
	o := &snapshotOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "snapshot",
		Short: "Every version of every chapter, kept outside the book: list, compare, restore",
		Long: `quire keeps a version of a chapter each time its text changes on disk
(saved from any editor, or changed while quire runs or since it last ran),
in your user data folder, never in the book. Every command here first
records the chapters as they are now.

A version is named by an id of eight hex digits; any four or more that
match one version are enough. Versions are kept as backups are: every one
for a week, then the last of each day for three months, then the last of
each week; a named snapshot, and each chapter's latest, forever (quire
snapshot prune applies it; the snapshots: setting changes it).`,
	}
	save := &cobra.Command{
		Use:   "save NAME",
		Short: "Keep the book (or one chapter with --chapter) as it is now, under a name",
		Args:  cobra.ExactArgs(1),
		RunE:  func(cmd *cobra.Command, args []string) error { return o.save(cmd.Context(), args[0]) },
	}
	save.Flags().StringVar(&o.Chapter, "chapter", "", "only this chapter (number, title or path)")
	list := &cobra.Command{
		Use:   "list [CHAPTER]",
		Short: "The snapshots of the book or of one chapter, deleted chapters included",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				o.Chapter = args[0]
			}
			return o.list(cmd.Context())
		},
	}
	show := &cobra.Command{
		Use:   "show ID",
		Short: "Print the chapter's text as a snapshot holds it",
		Args:  cobra.ExactArgs(1),
		RunE:  func(cmd *cobra.Command, args []string) error { return o.show(cmd.Context(), args[0]) },
	}
	diff := &cobra.Command{
		Use:   "diff ID [ID]",
		Short: "Compare a snapshot with the chapter now (or with another snapshot), word by word",
		Long: `Compare a snapshot with the chapter's text now, or with a second snapshot,
word by word. At a terminal, removed words are red and added words green;
in a pipe (or with --color never) they read [-removed-] and {+added+}.`,
		Args: cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error { return o.diff(cmd.Context(), args) },
	}
	diff.Flags().StringVar(&o.Color, "color", "auto", "auto, always or never")
	diff.Flags().BoolVar(&o.Whole, "whole", false, "print the whole chapter, not only the paragraphs that changed")
	restore := &cobra.Command{
		Use:   "restore ID",
		Short: "Put a snapshot's text back in its chapter (after keeping the text there now)",
		Long: `Write the snapshot's text into its chapter's file, the one chapter it
belongs to, recreating the file if it was deleted. The chapter's text as
it is now is kept first, as a snapshot named "before restoring ID", so a
restore can itself be undone. With --print the text is printed instead,
and nothing is written. This is the one quire command that writes into
your book.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return o.restore(cmd.Context(), args[0]) },
	}
	restore.Flags().BoolVar(&o.Print, "print", false, "print the text instead of writing it")
	prune := &cobra.Command{
		Use:   "prune",
		Short: "Let go of the versions the keeping rule no longer keeps, and say the store's size",
		Args:  cobra.NoArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return o.prune(cmd.Context()) },
	}
	prune.Flags().BoolVar(&o.DryRun, "dry-run", false, "say what would go, and keep it")
	cmd.AddCommand(save, list, show, diff, restore, prune)
	return cmd
}

// snapshots opens the book's chapters and its snapshot store, and
// records the chapters as they are.
func (o *snapshotOptions) snapshots(ctx context.Context) (*mbook.Book, *snapshot.Store, error) {
	b, err := o.open(ctx, mbook.Options{Parts: mbook.Chapters})
	if err != nil {
		return nil, nil, err
	}
	if b.Data.Snapshots() == "" {
		b.Close()
		return nil, nil, errors.New("quire has no data folder to keep snapshots in")
	}
	if _, err := b.Data.Migrate(); err != nil {
		fmt.Fprintln(o.stderr, "quire: warning:", err)
	}
	st, err := snapshot.Open(b.Data.Snapshots(), snapshot.Options{})
	if err != nil {
		b.Close()
		return nil, nil, err
	}
	if _, err := syncChapters(ctx, st, b.Manuscript.Snapshot()); err != nil {
		fmt.Fprintln(o.stderr, "quire: warning:", err)
	}
	for _, r := range st.Repairs() {
		fmt.Fprintln(o.stderr, "quire:", r)
	}
	return b, st, nil
}

// syncChapters keeps a version of each chapter of s that changed, as
// the book holds it.
func syncChapters(ctx context.Context, st *snapshot.Store, s *manuscript.Snapshot) ([]*snapshot.Version, error) {
	var paths []string
	for _, u := range s.Units() {
		paths = append(paths, u.Path)
	}
	return st.Sync(ctx, paths, func(path string) (string, error) {
		u, ok := s.Unit(path)
		if !ok {
			return "", fs.ErrNotExist
		}
		return u.Text, nil
	})
}

func (o *snapshotOptions) save(ctx context.Context, name string) error {
	name = strings.Join(strings.Fields(name), " ")
	if name == "" || len(name) > 200 {
		return errors.New("a snapshot's name is one line of at most 200 characters")
	}
	b, st, err := o.snapshots(ctx)
	if err != nil {
		return err
	}
	defer b.Close()
	units := b.Manuscript.Snapshot().Units()
	if o.Chapter != "" {
		u, err := b.Manuscript.Snapshot().Resolve(o.Chapter, manuscript.Place{})
		if err != nil {
			return err
		}
		units = []*manuscript.Unit{u}
	}
	var kept []*snapshot.Version
	for _, u := range units {
		v, err := st.Record(u.Path, u.Text, name)
		if err != nil {
			return err
		}
		kept = append(kept, v)
	}
	if o.JSON {
		return writeJSON(o.stdout, kept)
	}
	what := count.Of(len(kept), "chapter")
	if len(kept) == 1 {
		what = kept[0].Path
	}
	fmt.Fprintf(o.stdout, "Kept %s as %q.\n", what, name)
	return nil
}

func (o *snapshotOptions) list(ctx context.Context) error {
	b, st, err := o.snapshots(ctx)
	if err != nil {
		return err
	}
	defer b.Close()
	path := ""
	if o.Chapter != "" {
		if path, err = o.chapterPath(b, st, o.Chapter); err != nil {
			return err
		}
	}
	vs, err := st.Versions(path)
	if err != nil {
		return err
	}
	stats, err := st.Stats()
	if err != nil {
		return err
	}
	if o.JSON {
		if vs == nil {
			vs = []*snapshot.Version{}
		}
		return writeJSON(o.stdout, struct {
			Snapshots []*snapshot.Version `json:"snapshots"`
			Store     snapshot.Stats      `json:"store"`
		}{vs, stats})
	}
	if len(vs) == 0 {
		fmt.Fprintln(o.stdout, "No snapshots yet.")
		return nil
	}
	tw := tabwriter.NewWriter(o.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tWHEN\tCHAPTER\tWORDS\tCHANGE\tNAME")
	first := map[*snapshot.Version]bool{}
	seen := map[string]bool{}
	for _, v := range vs {
		first[v] = !seen[v.Path]
		seen[v.Path] = true
	}
	// Newest first: what a writer looks for is usually recent.
	for i := len(vs) - 1; i >= 0; i-- {
		v := vs[i]
		change := fmt.Sprintf("+%s −%s", count.Number(v.Added), count.Number(v.Removed))
		if first[v] {
			change = "first"
		}
		name := codex.PrintableName(v.Name)
		switch {
		case v.Deleted:
			change, name = "deleted", strings.TrimSpace("(the file was deleted) "+name)
		case v.Damaged:
			name = strings.TrimSpace("(damaged) " + name)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", v.ID, v.Time.Local().Format("2006-01-02 15:04"), codex.PrintableName(v.Path), count.Number(v.Words), change, name)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(o.stdout, "\n%s of %s, %s in %s.\n", count.Of(stats.Versions, "version"), count.Of(stats.Chapters, "chapter"), humanBytes(stats.Bytes), st.Dir())
	return nil
}

// chapterPath is the path a chapter reference names: a chapter of the
// manuscript, or a deleted one the store knows by its path or file name.
func (o *snapshotOptions) chapterPath(b *mbook.Book, st *snapshot.Store, ref string) (string, error) {
	if u, err := b.Manuscript.Snapshot().Resolve(ref, manuscript.Place{}); err == nil {
		return u.Path, nil
	}
	latest, err := st.Latest()
	if err != nil {
		return "", err
	}
	// A deleted chapter by its path, its file name, or a part of its
	// file name ("salt-debt" for manuscript/05-salt-debt.md) that names
	// one chapter only.
	want := strings.ToLower(filepath.ToSlash(ref))
	var partial []string
	for p := range latest {
		base := strings.ToLower(path.Base(p))
		switch {
		case strings.ToLower(p) == want || base == want || strings.TrimSuffix(base, ".md") == want:
			return p, nil
		case strings.Contains(base, want):
			partial = append(partial, p)
		}
	}
	if len(partial) == 1 {
		return partial[0], nil
	}
	if len(partial) > 1 {
		slices.Sort(partial)
		return "", fmt.Errorf("%q could be %s; give more of the name", codex.Echo(ref), strings.Join(partial, ", "))
	}
	return "", fmt.Errorf("no chapter is %q, now or among the deleted ones (quire snapshot list shows them all)", codex.Echo(ref))
}

func (o *snapshotOptions) show(ctx context.Context, id string) error {
	b, st, err := o.snapshots(ctx)
	if err != nil {
		return err
	}
	defer b.Close()
	v, err := st.Find(id)
	if err != nil {
		return err
	}
	text, err := st.Text(v)
	if err != nil {
		return err
	}
	_, err = io.WriteString(o.stdout, text)
	return err
}

func (o *snapshotOptions) diff(ctx context.Context, ids []string) error {
	color := o.Color
	switch color {
	case "auto":
		f, ok := o.stdout.(*os.File)
		color = "never"
		if ok && term.IsTerminal(int(f.Fd())) && os.Getenv("NO_COLOR") == "" {
			color = "always"
		}
	case "always", "never":
	default:
		return fmt.Errorf("--color is auto, always or never, not %q", codex.Echo(o.Color))
	}
	b, st, err := o.snapshots(ctx)
	if err != nil {
		return err
	}
	defer b.Close()
	v, err := st.Find(ids[0])
	if err != nil {
		return err
	}
	old, err := st.Text(v)
	if err != nil {
		return err
	}
	var now, label string
	if len(ids) == 2 {
		w, err := st.Find(ids[1])
		if err != nil {
			return err
		}
		if now, err = st.Text(w); err != nil {
			return err
		}
		label = "snapshot " + w.ID
	} else {
		label = "now"
		if u, ok := b.Manuscript.Snapshot().Unit(v.Path); ok {
			now = u.Text
		} else {
			label = "now (the file is deleted)"
		}
	}
	ops := snapshot.WordDiff(old, now)
	added, removed := snapshot.Counts(ops)
	fmt.Fprintf(o.stdout, "%s: snapshot %s (%s) against %s: %s added, %s removed\n\n", v.Path, v.ID, v.Time.Local().Format("2006-01-02 15:04"), label,
		count.Of(added, "word"), count.Of(removed, "word"))
	if added+removed == 0 && old == now {
		fmt.Fprintln(o.stdout, "The texts are the same.")
		return nil
	}
	if !o.Whole {
		ops = aroundChanges(ops)
	}
	writeDiff(o.stdout, ops, color == "always")
	return nil
}

// aroundChanges keeps, of the text both sides share, the paragraph a
// change begins or ends in; the paragraphs between are "…".
func aroundChanges(ops []snapshot.Op) []snapshot.Op {
	const gap = "…\n\n"
	out := make([]snapshot.Op, 0, len(ops))
	for i, op := range ops {
		if op.Kind != "=" {
			out = append(out, op)
			continue
		}
		text := op.Text
		first, last := i == 0, i == len(ops)-1
		head, tail := "", ""
		if !first {
			// The end of the paragraph the change before is in.
			if j := strings.Index(text, "\n\n"); j >= 0 {
				head, text = text[:j+2], text[j+2:]
			} else {
				head, text = text, ""
			}
		}
		if !last {
			// The start of the paragraph the next change is in.
			if j := strings.LastIndex(text, "\n\n"); j >= 0 {
				tail, text = text[j+2:], text[:j+2]
			} else {
				tail, text = text, ""
			}
		}
		kept := head
		if strings.TrimSpace(text) != "" {
			kept += gap
		}
		out = append(out, snapshot.Op{Kind: "=", Text: kept + tail})
	}
	return out
}

// writeDiff prints a word diff: coloured, or marked as git's word diff
// marks it.
func writeDiff(w io.Writer, ops []snapshot.Op, color bool) {
	for _, op := range ops {
		switch {
		case op.Kind == "=":
			io.WriteString(w, op.Text)
		case color && op.Kind == "-":
			io.WriteString(w, "\x1b[31;9m"+op.Text+"\x1b[0m")
		case color:
			io.WriteString(w, "\x1b[32m"+op.Text+"\x1b[0m")
		case op.Kind == "-":
			io.WriteString(w, "[-"+op.Text+"-]")
		default:
			io.WriteString(w, "{+"+op.Text+"+}")
		}
	}
	io.WriteString(w, "\n")
}

func (o *snapshotOptions) restore(ctx context.Context, id string) error {
	b, st, err := o.snapshots(ctx)
	if err != nil {
		return err
	}
	defer b.Close()
	v, err := st.Find(id)
	if err != nil {
		return err
	}
	if v.Deleted {
		return fmt.Errorf("snapshot %s only notes that %s was deleted; restore the one before it (quire snapshot list %s)", v.ID, v.Path, v.Path)
	}
	text, err := st.Text(v)
	if err != nil {
		return err
	}
	if o.Print {
		_, err = io.WriteString(o.stdout, text)
		return err
	}
	target, err := insideBook(b.Root, v.Path)
	if err != nil {
		return err
	}
	// The text there now is kept first.
	if cur, err := os.ReadFile(target); err == nil {
		if _, err := st.Record(v.Path, string(cur), "before restoring "+v.ID); err != nil {
			return fmt.Errorf("nothing was restored: the text there now could not be kept first: %w", err)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("nothing was restored: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return fmt.Errorf("nothing was restored: %w", err)
	}
	if err := writeChapter(target, text); err != nil {
		return fmt.Errorf("nothing was restored: %w", err)
	}
	if _, err := st.Record(v.Path, text, ""); err != nil {
		fmt.Fprintln(o.stderr, "quire: warning:", err)
	}
	fmt.Fprintf(o.stdout, "Restored %s as it was at %s (snapshot %s); the text it replaced is the snapshot \"before restoring %s\".\n",
		v.Path, v.Time.Local().Format("2006-01-02 15:04"), v.ID, v.ID)
	return nil
}

// insideBook is the file rel names in the book at root, refused when it
// would lie outside (a store is read as untrusted as a book is).
func insideBook(root, rel string) (string, error) {
	if rel == "" || !filepath.IsLocal(filepath.FromSlash(rel)) {
		return "", fmt.Errorf("the snapshot's chapter %q is not a path inside the book; nothing was restored", codex.Echo(rel))
	}
	return filepath.Join(root, filepath.FromSlash(rel)), nil
}

// writeChapter replaces a chapter's file whole, keeping its mode.
func writeChapter(path, text string) error {
	mode := os.FileMode(0o644)
	if info, err := os.Stat(path); err == nil {
		mode = info.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	_, err = tmp.WriteString(text)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), mode)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

func (o *snapshotOptions) prune(ctx context.Context) error {
	b, st, err := o.snapshots(ctx)
	if err != nil {
		return err
	}
	defer b.Close()
	policy, problems := snapshot.PolicyFrom(b.Settings)
	for _, p := range problems {
		fmt.Fprintln(o.stderr, "quire: warning:", p.Error())
	}
	if o.DryRun {
		goes, err := st.WouldPrune(policy)
		if err != nil {
			return err
		}
		fmt.Fprintf(o.stdout, "quire snapshot prune would let go of %s.\n", count.Of(goes, "version"))
		return nil
	}
	res, err := st.Prune(policy)
	if err != nil {
		return err
	}
	if o.JSON {
		return writeJSON(o.stdout, res)
	}
	fmt.Fprintf(o.stdout, "Let go of %s; the store is %s (it was %s).\n", count.Of(res.Versions, "version"), humanBytes(res.After), humanBytes(res.Before))
	return nil
}

// humanBytes is a size as a writer reads it.
func humanBytes(n int64) string {
	switch {
	case n >= 10<<20:
		return fmt.Sprintf("%d MB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%d KB", n>>10)
	}
	return count.Of(int(n), "byte")
}
