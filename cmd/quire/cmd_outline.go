package main

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/quire-ink/quire/codex/count"
	"github.com/quire-ink/quire/codex/proposal"
	"github.com/quire-ink/quire/codex/settings"
	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/manuscript/outline"
	"github.com/quire-ink/quire/server/textdoc"
	"github.com/quire-ink/quire/server/wire"
)

// outlineOptions configure `quire outline`.
type outlineOptions struct {
	*globalOptions `json:"-"`
	// Chapters bounds the chapters: "3", "3-9", "3-" or "-9".
	Chapters string `json:"chapters,omitempty"`
	POV      string `json:"pov,omitempty"`
	Status   string `json:"status,omitempty"`
	// Sort lists the scenes alone, ordered by pov, status, day or words
	// (then by place in the book).
	Sort string `json:"sort,omitempty"`
	// NoSpeakers leaves out who speaks in each scene, which costs the
	// dialogue's attribution.
	NoSpeakers bool `json:"noSpeakers,omitempty"`
}

func newOutlineCommand(g *globalOptions) *cobra.Command {
	o := &outlineOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "outline",
		Short: "The book's plan: acts, chapters and scenes with synopsis, pov, day, status and words",
		Long: `Print the book as its outline: each act (quire.yaml's outline: acts, else
the manuscript's folders), each chapter, and each scene of it (split at
scene breaks and headings) with its synopsis, point of view, story day,
location, status, words, and the characters who appear or speak there.
A synopsis marked stale was written before its text last changed.

A scene's synopsis, status and story time live in a note at its start:

  * * *

  <!-- scene
  pov: Ilse Dorn
  day: 4
  status: draft
  synopsis: Ilse finds the ledger under the floor.
  -->

a chapter's in its front matter. "quire outline set" prints the change
that sets one, for you to make; see docs/outline.md.

--json prints the outline as quire/outline answers it.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return o.run(cmd) },
	}
	cmd.Flags().StringVar(&o.Chapters, "chapters", "", "only these chapters, by number: 3, 3-9, 3- or -9")
	cmd.Flags().StringVar(&o.POV, "pov", "", "only the scenes of this point of view (as the notes and front matter write it)")
	cmd.Flags().StringVar(&o.Status, "status", "", "only the scenes of this status")
	cmd.Flags().StringVar(&o.Sort, "sort", "", "list the scenes alone, sorted by pov, status, day or words")
	cmd.Flags().BoolVar(&o.NoSpeakers, "no-speakers", false, "leave out who speaks in each scene (faster on a long book)")
	cmd.AddCommand(newOutlineSetCommand(g))
	return cmd
}

// chapterBounds reads "3", "3-9", "3-" or "-9", chapter numbers as
// quire shows them (a file's leading number, or "#4" for the fourth
// chapter of files with none), and gives the chapters' places in reading
// order, which the outline bounds itself by.
func chapterBounds(snap *manuscript.Snapshot, s string) (from, to int, err error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, 0, nil
	}
	a, b, isRange := strings.Cut(s, "-")
	place := func(x string) (int, error) {
		if x = strings.TrimSpace(x); x == "" {
			return 0, nil
		}
		if _, err := strconv.Atoi(strings.TrimPrefix(x, "#")); err != nil {
			return 0, fmt.Errorf("--chapters %q: give a chapter's number (3) or a range (3-9, 3- or -9)", s)
		}
		u, err := snap.Resolve(x, manuscript.Place{})
		if err != nil {
			return 0, fmt.Errorf("--chapters: %w", err)
		}
		return u.Position, nil
	}
	if from, err = place(a); err != nil {
		return 0, 0, err
	}
	if !isRange {
		return from, from, nil
	}
	if to, err = place(b); err != nil {
		return 0, 0, err
	}
	if to > 0 && from > to {
		return 0, 0, fmt.Errorf("--chapters %q: the first chapter comes after the last", s)
	}
	return from, to, nil
}

// readOutlineSettings reads quire.yaml's outline: section, telling its
// problems as warnings.
func readOutlineSettings(l *settings.Loaded, w io.Writer) manuscript.OutlineSettings {
	s, problems := manuscript.ReadOutlineSettings(l)
	for _, p := range problems {
		fmt.Fprintln(w, "quire: warning:", p.Error())
	}
	return s
}

func (o *outlineOptions) run(cmd *cobra.Command) error {
	switch o.Sort {
	case "", "pov", "status", "day", "words":
	default:
		return fmt.Errorf("--sort %q: sort by pov, status, day or words", o.Sort)
	}
	b, err := o.openBook(cmd.Context())
	if err != nil {
		return err
	}
	defer b.Close()
	from, to, err := chapterBounds(b.ms.Snapshot(), o.Chapters)
	if err != nil {
		return err
	}
	opts := outline.Options{
		Settings: readOutlineSettings(b.Settings, o.stderr),
		Dialogue: readDialogueSettings(b.Settings, io.Discard),
		Speakers: !o.NoSpeakers,
		From:     from, To: to, POV: o.POV, Status: o.Status,
	}
	out, err := outline.Build(cmd.Context(), b.ms.Snapshot(), b.View.Catalog(), opts)
	if err != nil {
		return err
	}
	if o.JSON {
		enc := json.NewEncoder(o.stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(wire.OutlineOf(out, func(p string) string { return string(textdoc.PathURI(filepath.Join(b.Root, filepath.FromSlash(p)))) }))
	}
	if o.Sort != "" {
		return writeSortedScenes(o.stdout, out, o.Sort)
	}
	return writeOutline(o.stdout, out)
}

// writeOutline prints the outline for a person: an act's title over its
// chapters, each chapter's card, then its scenes' indented.
func writeOutline(w io.Writer, o *outline.Outline) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s, %s, %s", count.Of(o.Chapters, "chapter"), count.Of(o.Scenes, "scene"), count.Of(o.Words, "word"))
	if o.Stale > 0 {
		fmt.Fprintf(&b, "; %d stale %s", o.Stale, plural(o.Stale, "synopsis", "synopses"))
	}
	b.WriteString("\n")
	for _, a := range o.Acts {
		if a.Title != "" {
			fmt.Fprintf(&b, "\n== %s ==\n", a.Title)
		}
		for _, ch := range a.Chapters {
			fmt.Fprintf(&b, "\n%s. %s  (%s)\n", ch.Label, ch.Title, ch.Facts())
			writeSynopsis(&b, "   ", ch.Card)
			for _, s := range ch.Scenes {
				fmt.Fprintf(&b, "   %s.%d %s  (%s)  %s:%d\n", ch.Label, s.Number, s.Title, s.Facts(), ch.Path, s.Line)
				writeSynopsis(&b, "       ", s.Card)
				if len(s.Appear) > 0 {
					fmt.Fprintf(&b, "       appear: %s\n", strings.Join(s.Appear, ", "))
				}
				if len(s.Speak) > 0 {
					fmt.Fprintf(&b, "       speak: %s\n", strings.Join(s.Speak, ", "))
				}
			}
		}
	}
	if o.Chapters == 0 {
		b.WriteString("\nNo chapter or scene matches.\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeSortedScenes prints every scene on a line, sorted by key.
func writeSortedScenes(w io.Writer, o *outline.Outline, key string) error {
	type row struct {
		ch outline.Chapter
		s  outline.Scene
	}
	var rows []row
	for _, a := range o.Acts {
		for _, ch := range a.Chapters {
			for _, s := range ch.Scenes {
				rows = append(rows, row{ch, s})
			}
		}
	}
	statusRank := func(s string) int {
		if i := slices.Index(o.Statuses, s); i >= 0 {
			return i
		}
		return len(o.Statuses)
	}
	slices.SortStableFunc(rows, func(x, y row) int {
		switch key {
		case "pov":
			return cmp.Compare(strings.ToLower(x.s.POV), strings.ToLower(y.s.POV))
		case "status":
			return cmp.Compare(statusRank(x.s.Status), statusRank(y.s.Status))
		case "day":
			return cmp.Or(cmp.Compare(boolRank(!x.s.HasDay), boolRank(!y.s.HasDay)), cmp.Compare(x.s.Day, y.s.Day))
		}
		return cmp.Compare(y.s.Words, x.s.Words)
	})
	var b strings.Builder
	for _, r := range rows {
		fmt.Fprintf(&b, "%s.%d %s  (%s)  %s:%d\n", r.ch.Label, r.s.Number, r.s.Title, r.s.Facts(), r.ch.Path, r.s.Line)
		writeSynopsis(&b, "    ", r.s.Card)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

func writeSynopsis(b *strings.Builder, indent string, c outline.Card) {
	if c.Synopsis == "" {
		return
	}
	stale := ""
	if c.Stale {
		stale = " [stale: the text changed since]"
	}
	fmt.Fprintf(b, "%s%s%s\n", indent, c.Synopsis, stale)
}

// outlineSetOptions configure `quire outline set`.
type outlineSetOptions struct {
	*globalOptions `json:"-"`
	Scene          int
	Synopsis       string
	Status         string
	Title          string
	POV            string
	Day            string
	Location       string
	Current        bool
}

func newOutlineSetCommand(g *globalOptions) *cobra.Command {
	o := &outlineSetOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "set CHAPTER",
		Short: "Print the change that sets a scene's or chapter's synopsis, status or story time",
		Long: `Print, as a unified diff, the change to CHAPTER (a number, title or path)
that sets what the flags give on its scene --scene (0, the default: the
chapter itself, in its front matter). Nothing is written: apply the diff
yourself (git apply, patch -p1), or set it from your editor, which asks
before it changes the file. An empty value removes the key. Setting a
synopsis keeps beside it a hash of the text it was written for, so quire
can tell when the text has moved on; --current marks a synopsis as still
holding after the text changed.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return o.run(cmd, args[0]) },
	}
	f := cmd.Flags()
	f.IntVar(&o.Scene, "scene", 0, "the scene, by its number in the chapter; 0 is the chapter")
	f.StringVar(&o.Synopsis, "synopsis", "", "the synopsis")
	f.StringVar(&o.Status, "status", "", "the status (quire.yaml's outline: statuses; idea, draft, revised or final by default)")
	f.StringVar(&o.Title, "title", "", "the scene's title")
	f.StringVar(&o.POV, "pov", "", "the point of view, a character's name or alias")
	f.StringVar(&o.Day, "day", "", "the story day, a whole number")
	f.StringVar(&o.Location, "location", "", "the location, a place's name or alias")
	f.BoolVar(&o.Current, "current", false, "mark the synopsis as written for the text as it is now")
	return cmd
}

func (o *outlineSetOptions) run(cmd *cobra.Command, ref string) error {
	var fields []manuscript.Field
	for _, f := range []struct{ flag, key, value string }{
		{"synopsis", "synopsis", o.Synopsis}, {"status", "status", o.Status}, {"title", "title", o.Title},
		{"pov", "pov", o.POV}, {"day", "day", o.Day}, {"location", "location", o.Location},
	} {
		if cmd.Flags().Changed(f.flag) {
			fields = append(fields, manuscript.Field{Key: f.key, Value: f.value})
		}
	}
	if len(fields) == 0 && !o.Current {
		return errors.New("say what to set: --synopsis, --status, --title, --pov, --day, --location or --current")
	}
	b, err := o.openBook(cmd.Context())
	if err != nil {
		return err
	}
	defer b.Close()
	rules := readOutlineSettings(b.Settings, o.stderr).Rules
	u, err := b.ms.Snapshot().Resolve(ref, manuscript.Place{})
	if err != nil {
		return err
	}
	if o.Current {
		synopsis, err := currentSynopsis(u, rules, o.Scene)
		if err != nil {
			return err
		}
		fields = append(fields, manuscript.Field{Key: "synopsis", Value: synopsis})
	}
	e, err := u.SetOutline(rules, o.Scene, fields...)
	if err != nil {
		return fmt.Errorf("%s: %w", u.Path, err)
	}
	if e.Apply(u.Text) == u.Text {
		fmt.Fprintf(o.stderr, "quire: nothing to change: %s already says so\n", u.Path)
		return nil
	}
	diff, err := proposal.Diff([]proposal.FileEdit{{Path: u.Path, Range: e.Range, NewText: e.NewText}}, map[string]string{u.Path: u.Text})
	if err != nil {
		return err
	}
	_, err = io.WriteString(o.stdout, diff)
	return err
}

// currentSynopsis is the synopsis of scene n (0: the chapter), to set
// again with the hash of the text as it is now.
func currentSynopsis(u *manuscript.Unit, rules manuscript.SceneRules, n int) (string, error) {
	note, _, ok := u.NoteOf(rules, n)
	if !ok {
		return "", fmt.Errorf("%s has %s; there is no scene %d", u.Title, count.Of(len(u.Scenes(rules)), "scene"), n)
	}
	if note.Synopsis == "" {
		return "", errors.New("there is no synopsis to mark current; give one with --synopsis")
	}
	return note.Synopsis, nil
}
