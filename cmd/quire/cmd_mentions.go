package main

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/count"
	"github.com/quire-ink/quire/manuscript"
)

// mentionsOptions configure `quire mentions`.
type mentionsOptions struct {
	*globalOptions `json:"-"`
	// Chapter and Entry are what the flags name; Ref is the bare
	// argument, an entry's name or alias or a chapter's reference.
	Chapter string `json:"chapter,omitempty"`
	Entry   string `json:"entry,omitempty"`
	Ref     string `json:"ref,omitempty"`
}

func newMentionsCommand(g *globalOptions) *cobra.Command {
	o := &mentionsOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "mentions [NAME | CHAPTER]",
		Short: "Where each codex entry appears: counts by chapter",
		Long: `Without an argument: every codex entry the manuscript mentions, with its
count in each chapter and where it first appears.

With NAME (an entry's name or alias, as "quire mentions Darcy"): the chapters
that mention that entry, with the count in each and the first line.

With CHAPTER (a number, title or path): the entries that chapter mentions,
most mentioned first.

A bare argument is looked up as an entry first, then as a chapter; a number
or a path is always a chapter. --entry and --chapter say which you mean.`,
		Example: `  quire mentions
  quire mentions Darcy
  quire mentions 12
  quire mentions --chapter "The Ball"`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				o.Ref = args[0]
			}
			return o.run(cmd)
		},
	}
	cmd.Flags().StringVar(&o.Entry, "entry", "", "the codex entry (name or alias) whose chapters to list")
	cmd.Flags().StringVar(&o.Chapter, "chapter", "", "the chapter (number, title or path) whose entries to list")
	cmd.MarkFlagsMutuallyExclusive("entry", "chapter")
	return cmd
}

// mentionedEntry is one row of `quire mentions --json`.
type mentionedEntry struct {
	Entry string     `json:"entry"`
	Name  string     `json:"name"`
	Type  codex.Type `json:"type"`
	Total int        `json:"total"`
	// Counts line up with the chapters of the table.
	Counts []int    `json:"counts,omitempty"`
	First  location `json:"first"`
}

// location is a place in a file, by byte range and by line and column.
type location struct {
	Path   string      `json:"path"`
	Range  codex.Range `json:"range"`
	Line   int         `json:"line"`
	Column int         `json:"column"`
}

func locate(u *manuscript.Unit, r codex.Range) location {
	line, col := codex.LineColumn(u.Text, r.Start)
	return location{Path: u.Path, Range: r, Line: line, Column: col}
}

type mentionsTableOutput struct {
	Chapters []manuscript.MentionColumn `json:"chapters"`
	Entries  []mentionedEntry           `json:"entries"`
}

type mentionsChapterOutput struct {
	Chapter manuscript.MentionColumn `json:"chapter"`
	Words   int                      `json:"words"`
	Entries []mentionedEntry         `json:"entries"`
}

func (o *mentionsOptions) run(cmd *cobra.Command) error {
	b, err := o.openBook(cmd.Context())
	if err != nil {
		return err
	}
	defer b.Close()
	snap := b.ms.Snapshot()
	if o.Ref != "" && (o.Entry != "" || o.Chapter != "") {
		return fmt.Errorf("give either %q or a flag (--entry or --chapter), not both", o.Ref)
	}
	switch {
	case o.Entry != "":
		e, err := o.findEntry(b, o.Entry)
		if err != nil {
			return err
		}
		if e == nil {
			return fmt.Errorf("no codex entry is called %q (its name or an alias); quire list shows the entries, quire untracked the names no entry tracks yet", codex.Echo(o.Entry))
		}
		return o.entry(b, snap, e)
	case o.Chapter != "":
		u, err := snap.Resolve(o.Chapter, manuscript.Place{})
		if err != nil {
			return err
		}
		return o.chapter(b, snap, u)
	case o.Ref != "":
		return o.either(b, snap)
	}
	return o.table(b, snap)
}

// either answers a bare argument: an entry's name or alias, else a
// chapter, else an entry by part of its name. A number or a path names a
// chapter; a word that is both an entry's name (or alias) and a chapter's
// title is taken as the entry, and stderr says how to ask for the
// chapter.
func (o *mentionsOptions) either(b *wholeBook, snap *manuscript.Snapshot) error {
	u, chapterErr := snap.Resolve(o.Ref, manuscript.Place{})
	if chapterErr == nil && looksLikeChapterRef(o.Ref) {
		return o.chapter(b, snap, u)
	}
	if err := codex.CheckName(o.Ref); err != nil {
		return err
	}
	if e, ok := b.View.Catalog().Resolve(o.Ref); ok {
		if chapterErr == nil {
			fmt.Fprintf(o.stderr, "quire: %q is a codex entry and a chapter's title; this lists where the entry appears. For the chapter: quire mentions --chapter %s\n",
				codex.Echo(o.Ref), shellQuote(o.Ref))
		}
		return o.entry(b, snap, e)
	}
	if chapterErr == nil {
		return o.chapter(b, snap, u)
	}
	e, err := o.findEntry(b, o.Ref)
	if err != nil {
		return err
	}
	if e != nil {
		return o.entry(b, snap, e)
	}
	return fmt.Errorf("%q is neither a codex entry (a name or alias) nor a chapter (a number, title or path). "+
		"quire list shows the entries, quire untracked the names no entry tracks yet, quire stats the chapters", codex.Echo(o.Ref))
}

// findEntry finds the entry a writer means by name, as quire lookup
// does: its name, title, file name or an alias, else the one entry whose
// name the words begin ("Séverine" for Séverine Aubrac) or one typo
// away; stderr says which entry a partial name was taken as. Several
// entries that fit as well is an error naming them; none is nil.
func (o *mentionsOptions) findEntry(b *wholeBook, name string) (*codex.Entry, error) {
	if err := codex.CheckName(name); err != nil {
		return nil, err
	}
	if e, ok := b.View.Catalog().Resolve(name); ok {
		return e, nil
	}
	ms := b.View.Catalog().Lookup(name, "")
	if len(ms) == 0 {
		return nil, nil
	}
	best := ms[0]
	var same []string
	for _, m := range ms {
		// Two entries that both begin with the words (Jane Bennet and
		// Elizabeth Bennet for "Bennet") fit alike, whatever share of
		// each name the words cover.
		if m.Kind == best.Kind {
			same = append(same, codex.PrintableName(m.Entry.Name))
		}
	}
	if len(same) > 1 {
		return nil, fmt.Errorf("%q could be %s; give the full name", codex.Echo(name), strings.Join(same[:min(len(same), 6)], ", "))
	}
	fmt.Fprintf(o.stderr, "quire: taking %q as %s (%s match)\n", codex.Echo(name), codex.PrintableName(best.Entry.Name), best.Kind)
	return best.Entry, nil
}

// looksLikeChapterRef is whether ref can only mean a chapter: a number
// ("12", "#5") or a path.
func looksLikeChapterRef(ref string) bool {
	ref = strings.TrimPrefix(strings.TrimSpace(ref), "#")
	if _, err := strconv.Atoi(ref); err == nil {
		return true
	}
	return strings.ContainsAny(ref, "/\\") || strings.HasSuffix(strings.ToLower(ref), ".md")
}

// entryAppearance is one chapter of `quire mentions NAME --json`.
type entryAppearance struct {
	Chapter manuscript.MentionColumn `json:"chapter"`
	Count   int                      `json:"count"`
	First   location                 `json:"first"`
}

type mentionsEntryOutput struct {
	Entry    string            `json:"entry"`
	Name     string            `json:"name"`
	Type     codex.Type        `json:"type"`
	Total    int               `json:"total"`
	Of       int               `json:"of"`
	Chapters []entryAppearance `json:"chapters"`
}

// entry lists the chapters that mention e, in reading order.
func (o *mentionsOptions) entry(b *wholeBook, snap *manuscript.Snapshot, e *codex.Entry) error {
	ix := snap.Mentions()
	out := mentionsEntryOutput{Entry: e.ID, Name: e.Name, Type: e.Type, Of: len(ix.Units()), Chapters: []entryAppearance{}}
	for _, a := range ix.Appearances(e.ID) {
		row := entryAppearance{
			Chapter: manuscript.MentionColumn{Path: a.Path, Number: a.Number, Position: a.Position, Title: a.Title},
			Count:   a.Count,
		}
		if u, ok := snap.Unit(a.Path); ok {
			row.First = locate(u, a.First)
		}
		out.Total += a.Count
		out.Chapters = append(out.Chapters, row)
	}
	if o.JSON {
		return writeJSON(o.stdout, out)
	}
	name := codex.PrintableName(e.Name)
	if len(out.Chapters) == 0 {
		fmt.Fprintf(o.stdout, "%s (%s) is not mentioned in the manuscript, by its name or an alias.\n", name, e.Type)
		return nil
	}
	fmt.Fprintf(o.stdout, "%s (%s): %s in %s of %d.\n\n", name, e.Type, count.Of(out.Total, "mention"), count.Of(len(out.Chapters), "chapter"), out.Of)
	tw := tabwriter.NewWriter(o.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "CHAPTER\tCOUNT\tFIRST")
	for _, a := range out.Chapters {
		fmt.Fprintf(tw, "%s\t%s\t%s:%d\n", codex.PrintableName(columnLabel(a.Chapter)), count.Number(a.Count), a.First.Path, a.First.Line)
	}
	return tw.Flush()
}

func (o *mentionsOptions) chapter(b *wholeBook, snap *manuscript.Snapshot, u *manuscript.Unit) error {
	ix := snap.Mentions()
	if _, ok := snap.Unit(u.Path); !ok {
		// A document outside the manuscript: scan it on its own.
		ix = ix.WithUnit(ix.Matcher(), u)
	}
	out := mentionsChapterOutput{
		Chapter: manuscript.MentionColumn{Path: u.Path, Number: u.Number, Position: u.Position, Title: u.Title},
		Words:   u.Words,
		Entries: []mentionedEntry{},
	}
	for _, c := range ix.InUnit(u.Path) {
		name, typ := b.entry(c.Entry)
		out.Entries = append(out.Entries, mentionedEntry{Entry: c.Entry, Name: name, Type: typ, Total: c.Count, First: locate(u, c.First)})
	}
	if o.JSON {
		return writeJSON(o.stdout, out)
	}
	fmt.Fprintf(o.stdout, "%s (%s, %s)\n\n", columnLabel(out.Chapter), codex.PrintableName(u.Path), count.Of(u.Words, "word"))
	if len(out.Entries) == 0 {
		fmt.Fprintln(o.stdout, "No codex entry is mentioned.")
		return nil
	}
	tw := tabwriter.NewWriter(o.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tTYPE\tCOUNT\tFIRST")
	for _, e := range out.Entries {
		fmt.Fprintf(tw, "%s\t%s\t%d\tline %d\n", codex.PrintableName(e.Name), e.Type, e.Total, e.First.Line)
	}
	return tw.Flush()
}

// gridChapters is the most chapters the text table shows as columns;
// beyond it each row lists its chapters instead.
const gridChapters = 12

// mentionRow is one entry's row of the table as it is gathered: its
// counts kept sparse (a series has 800 chapters and 10,000 entries, and
// a full grid of counts would take 64 MB), spread out one row at a time
// as it is written.
type mentionRow struct {
	entry           string
	total, chapters int
	firstCol        int
	first           codex.Range
	cells           []mentionCell
}

// mentionCell is one chapter's count of one entry.
type mentionCell struct{ col, count int32 }

func (o *mentionsOptions) table(b *wholeBook, snap *manuscript.Snapshot) error {
	ix := snap.Mentions()
	units := ix.Units()
	cols := make([]manuscript.MentionColumn, len(units))
	// The grid and the JSON show every chapter's count as a column; the
	// list, for more chapters than fit across, the chapters that do
	// mention each entry.
	dense := o.JSON || len(units) <= gridChapters
	byEntry := map[string]*mentionRow{}
	var rows []*mentionRow
	for col, u := range units {
		cols[col] = manuscript.MentionColumn{Path: u.Path, Number: u.Number, Position: u.Position, Title: u.Title}
		for _, c := range ix.InUnit(u.Path) {
			r := byEntry[c.Entry]
			if r == nil {
				r = &mentionRow{entry: c.Entry, firstCol: col, first: c.First}
				byEntry[c.Entry] = r
				rows = append(rows, r)
			}
			r.total += c.Count
			r.chapters++
			r.cells = append(r.cells, mentionCell{int32(col), int32(c.Count)})
		}
	}
	slices.SortFunc(rows, func(a, b *mentionRow) int {
		return cmp.Or(cmp.Compare(b.total, a.total), strings.Compare(a.entry, b.entry))
	})
	entry := func(r *mentionRow) mentionedEntry {
		name, typ := b.entry(r.entry)
		e := mentionedEntry{Entry: r.entry, Name: name, Type: typ, Total: r.total}
		if u, ok := snap.Unit(cols[r.firstCol].Path); ok {
			e.First = locate(u, r.first)
		}
		if dense {
			e.Counts = make([]int, len(cols))
			for _, c := range r.cells {
				e.Counts[c.col] = int(c.count)
			}
		}
		return e
	}
	if o.JSON {
		return writeMentionsJSON(o.stdout, cols, rows, entry)
	}
	if len(cols) == 0 {
		fmt.Fprintln(o.stdout, "No chapters found (quire reads manuscript/**/*.md unless quire.yaml says otherwise).")
		return nil
	}
	if len(rows) == 0 {
		fmt.Fprintln(o.stdout, "No codex entry is mentioned in the manuscript.")
		return nil
	}
	return printMentionTable(o.stdout, cols, rows, entry)
}

// writeMentionsJSON writes what json.Encoder would write of a
// mentionsTableOutput, one entry at a time.
func writeMentionsJSON(w io.Writer, cols []manuscript.MentionColumn, rows []*mentionRow, entry func(*mentionRow) mentionedEntry) error {
	bw := bufio.NewWriter(w)
	encode := func(prefix string, v any) error {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetIndent(prefix, "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			return err
		}
		_, err := bw.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
		return err
	}
	bw.WriteString("{\n  \"chapters\": ")
	if err := encode("  ", cols); err != nil {
		return err
	}
	if len(rows) == 0 {
		bw.WriteString(",\n  \"entries\": []\n}\n")
		return bw.Flush()
	}
	bw.WriteString(",\n  \"entries\": [")
	for i, r := range rows {
		if i > 0 {
			bw.WriteString(",")
		}
		bw.WriteString("\n    ")
		if err := encode("    ", entry(r)); err != nil {
			return err
		}
	}
	bw.WriteString("\n  ]\n}\n")
	return bw.Flush()
}

func printMentionTable(w io.Writer, cols []manuscript.MentionColumn, rows []*mentionRow, entry func(*mentionRow) mentionedEntry) error {
	if len(cols) > gridChapters {
		return printMentionList(w, cols, rows, entry)
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	header := []string{"NAME", "TYPE", "TOTAL"}
	for _, c := range cols {
		header = append(header, columnKey(c))
	}
	header = append(header, "FIRST")
	fmt.Fprintln(tw, strings.Join(header, "\t"))
	for _, r := range rows {
		e := entry(r)
		cells := []string{e.Name, string(e.Type), count.Number(e.Total)}
		for _, n := range e.Counts {
			cells = append(cells, countCell(n))
		}
		cells = append(cells, fmt.Sprintf("%s:%d", e.First.Path, e.First.Line))
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	return tw.Flush()
}

// listWidth is the width the chapter lists wrap at.
const listWidth = 78

// printMentionList writes the table for more chapters than fit across a
// terminal: each entry on its line, then the chapters that mention it
// with the count in each ("12×3" is three mentions in chapter 12),
// wrapped under it.
func printMentionList(w io.Writer, cols []manuscript.MentionColumn, rows []*mentionRow, entry func(*mentionRow) mentionedEntry) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "Mentions by chapter, %s (\"12×3\" is 3 mentions in chapter 12).\n", count.Of(len(cols), "chapter"))
	for _, r := range rows {
		e := entry(r)
		fmt.Fprintf(bw, "\n%s (%s): %s in %s, first at %s:%d\n", codex.PrintableName(e.Name), e.Type,
			count.Of(e.Total, "mention"), count.Of(r.chapters, "chapter"), e.First.Path, e.First.Line)
		line := 0
		for i, c := range r.cells {
			cell := columnKey(cols[c.col]) + "×" + strconv.Itoa(int(c.count))
			switch {
			case i == 0:
				bw.WriteString("    ")
				line = 4
			case line+2+utf8.RuneCountInString(cell) > listWidth:
				bw.WriteString("\n    ")
				line = 4
			default:
				bw.WriteString("  ")
				line += 2
			}
			bw.WriteString(cell)
			line += utf8.RuneCountInString(cell)
		}
		bw.WriteString("\n")
	}
	return bw.Flush()
}

func columnKey(c manuscript.MentionColumn) string {
	if c.Number > 0 {
		return strconv.Itoa(c.Number)
	}
	return "#" + strconv.Itoa(c.Position)
}

func columnLabel(c manuscript.MentionColumn) string {
	if c.Number > 0 {
		return fmt.Sprintf("%d. %s", c.Number, c.Title)
	}
	return c.Title
}

func countCell(n int) string {
	if n == 0 {
		return "·"
	}
	return strconv.Itoa(n)
}
