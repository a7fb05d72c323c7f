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

	"github.com/spf13/cobra"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
)

// mentionsOptions configure `quire mentions`.
type mentionsOptions struct {
	*globalOptions `json:"-"`
	Chapter        string `json:"chapter,omitempty"`
}

func newMentionsCommand(g *globalOptions) *cobra.Command {
	o := &mentionsOptions{globalOptions: g}
	return &cobra.Command{
		Use:   "mentions [CHAPTER]",
		Short: "Which codex entries each chapter mentions, and how often",
		Long: `Without CHAPTER: every codex entry the manuscript mentions, with its count
in each chapter and where it first appears. With CHAPTER (a number, title or
path): the entries that chapter mentions, most mentioned first.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				o.Chapter = args[0]
			}
			return o.run(cmd)
		},
	}
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
	if o.Chapter != "" {
		return o.chapter(b, snap)
	}
	return o.table(b, snap)
}

func (o *mentionsOptions) chapter(b *wholeBook, snap *manuscript.Snapshot) error {
	u, err := snap.Resolve(o.Chapter, manuscript.Place{})
	if err != nil {
		return err
	}
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
	fmt.Fprintf(o.stdout, "%s (%s, %d words)\n\n", columnLabel(out.Chapter), codex.PrintableName(u.Path), u.Words)
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
	// The grid and the JSON show every chapter's count; the list only
	// how many chapters.
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
			if dense {
				r.cells = append(r.cells, mentionCell{int32(col), int32(c.Count)})
			}
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
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	grid := len(cols) <= gridChapters
	header := []string{"NAME", "TYPE", "TOTAL"}
	if grid {
		for _, c := range cols {
			header = append(header, columnKey(c))
		}
	} else {
		header = append(header, "CHAPTERS")
	}
	header = append(header, "FIRST")
	fmt.Fprintln(tw, strings.Join(header, "\t"))
	for _, r := range rows {
		e := entry(r)
		cells := []string{e.Name, string(e.Type), strconv.Itoa(e.Total)}
		if grid {
			for _, n := range e.Counts {
				cells = append(cells, countCell(n))
			}
		} else {
			cells = append(cells, strconv.Itoa(r.chapters))
		}
		cells = append(cells, fmt.Sprintf("%s:%d", e.First.Path, e.First.Line))
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	return tw.Flush()
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
