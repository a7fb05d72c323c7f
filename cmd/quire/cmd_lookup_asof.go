package main

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/manuscript/continuity"
)

// asOfOutput is `quire lookup --as-of --json`: the entry found and the
// canon as of the chapter.
type asOfOutput struct {
	Query   string         `json:"query"`
	Chapter string         `json:"chapter"`
	Entry   codex.Result   `json:"entry"`
	Line    string         `json:"asOfLine,omitempty"`
	Status  string         `json:"status,omitempty"`
	Fields  []asOfField    `json:"fields,omitempty"`
	Notes   []string       `json:"notes,omitempty"`
	Applied []asOfProgress `json:"applied,omitempty"`
}

type asOfField struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

type asOfProgress struct {
	From  int    `json:"fromChapter"`
	Title string `json:"fromTitle"`
	// File is the series file a progression is written in, when this
	// book's entry overrides the series entry and keeps its progressions.
	File string `json:"seriesPath,omitempty"`
}

// runAsOf is lookup with --as-of: the book's chapters are read too, and
// the entry found is shown as the canon stands in that chapter, as hover
// shows it in the editor.
func (o *lookupOptions) runAsOf(cmd *cobra.Command) error {
	b, err := o.openBook(cmd.Context())
	if err != nil {
		return err
	}
	defer b.Close()
	results := b.View.Lookup(o.Name, o.Type)
	if len(results) == 0 {
		if !o.JSON {
			fmt.Fprintln(o.stderr, notFound("entry", o.Name))
		}
		return exitError{1}
	}
	snap := b.ms.Snapshot()
	u, err := snap.Resolve(o.AsOf, manuscript.Place{})
	if err != nil {
		fmt.Fprintf(o.stderr, "quire: --as-of %s\n", err)
		return exitError{2}
	}
	opts, _ := continuity.OptionsFrom(b.Settings)
	cat := b.View.Catalog()
	tl := continuity.NewTimeline(continuity.NewCanon(cat, opts), snap)
	r := results[0]
	id := r.RelativePath // a book entry's ID; a series entry's is its file
	if r.Canon == codex.CanonSeries {
		id = r.SeriesPath
	}
	e, ok := cat.Get(id)
	if !ok {
		return fmt.Errorf("the entry %s is gone from the catalog", id)
	}
	ch := tl.ChapterOf(u)
	a := tl.AsOf(e, ch)
	out := asOfOutput{Query: codex.Echo(o.Name), Chapter: u.Path, Entry: r, Line: tl.AsOfLine(e, ch), Status: a.Status, Notes: a.Notes}
	changed := map[string]bool{}
	for _, ap := range tl.Applied(e, ch) {
		out.Applied = append(out.Applied, asOfProgress{From: ap.From.Position, Title: ap.From.Title, File: ap.File})
		for _, f := range ap.Changes {
			changed[f.Key] = true
		}
	}
	for _, k := range slices.Sorted(maps.Keys(changed)) {
		if v := asOfValue(a, k); v != "" {
			out.Fields = append(out.Fields, asOfField{Key: k, Value: v})
		}
	}
	if o.JSON {
		return writeJSON(o.stdout, out)
	}
	printEntry(o.stdout, r)
	fmt.Fprintln(o.stdout)
	if out.Line == "" {
		fmt.Fprintf(o.stdout, "As of chapter %s, %q: %s has no progressions; the entry above holds throughout.\n", ch.Label(), ch.Title, r.Name)
		return nil
	}
	fmt.Fprintln(o.stdout, out.Line)
	for _, f := range out.Fields {
		fmt.Fprintf(o.stdout, "  %s: %s\n", f.Key, f.Value)
	}
	for _, n := range a.Notes {
		fmt.Fprintf(o.stdout, "  note: %s\n", strings.TrimSpace(n))
	}
	return nil
}

// asOfValue is field key of the entry as of the chapter, as text.
func asOfValue(a codex.AsOf, key string) string {
	switch key {
	case "status":
		return a.Status
	case "title":
		return a.Entry.Title
	case "summary":
		return a.Entry.Summary
	case "aliases":
		return strings.Join(a.Entry.Aliases, ", ")
	}
	return a.Field(key)
}
