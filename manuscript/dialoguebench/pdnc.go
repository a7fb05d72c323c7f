package dialoguebench

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/quire-ink/quire/codex"
)

// DevNovels are the PDNC novels quire's dialogue is developed on, by
// their folder names under data/. Every other novel of the corpus is
// held out: scored only when asked, never tuned on.
func DevNovels() []string {
	return []string{
		"Emma", "PrideAndPrejudice", "Persuasion", "ARoomWithAView",
		"AlicesAdventuresInWonderland", "AnneOfGreenGables", "TheInvisibleMan", "TheSignOfTheFour",
	}
}

// PDNCNovels lists the novels of a PDNC checkout: the folders of its
// data/ folder that hold a novel's text.
func PDNCNovels(dir string) ([]string, error) {
	ents, err := os.ReadDir(filepath.Join(dir, "data"))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if _, err := os.Stat(filepath.Join(dir, "data", e.Name(), "novel_text.txt")); e.IsDir() && err == nil {
			out = append(out, e.Name())
		}
	}
	return out, nil
}

// HeldOutNovels are the novels of a PDNC checkout not in DevNovels.
func HeldOutNovels(dir string) ([]string, error) {
	all, err := PDNCNovels(dir)
	if err != nil {
		return nil, err
	}
	dev := DevNovels()
	return slices.DeleteFunc(all, func(n string) bool { return slices.Contains(dev, n) }), nil
}

// LoadPDNC reads one novel of a checkout of the Project Dialogism Novel
// Corpus (Vishnubhotla, Hammond and Hirst, LREC 2022): its text
// (novel_text.txt), its characters (character_info.csv: an ID, a main
// name, a Python set of aliases, a gender F, M, U or X) and its
// quotations (quotation_info.csv: quoteByteSpans, a Python list of the
// [start, end] of each sub-quotation, speaker, quoteType). The spans
// count the characters of the text, which the corpus writes as Python
// does, so a text that is not ASCII has them turned into bytes. A span
// sometimes takes in its quotation marks or the blank line around it:
// they are trimmed off.
func LoadPDNC(dir, novel string) (Book, error) {
	folder := filepath.Join(dir, "data", novel)
	raw, err := os.ReadFile(filepath.Join(folder, "novel_text.txt"))
	if err != nil {
		return Book{}, err
	}
	if !utf8.Valid(raw) {
		return Book{}, fmt.Errorf("%s: novel_text.txt is not UTF-8", novel)
	}
	b := Book{Title: novel, Text: string(raw)}
	if b.Characters, err = readCharacters(filepath.Join(folder, "character_info.csv")); err != nil {
		return Book{}, fmt.Errorf("%s: %w", novel, err)
	}
	toByte, chars := charOffsets(b.Text)
	rows, err := readCSV(filepath.Join(folder, "quotation_info.csv"))
	if err != nil {
		return Book{}, fmt.Errorf("%s: %w", novel, err)
	}
	for i, row := range rows {
		spans, err := pySpans(row["quoteByteSpans"])
		if err != nil {
			return Book{}, fmt.Errorf("%s: quotation %d: %w", novel, i+1, err)
		}
		q := Quote{ID: row["quoteID"], Speaker: b.speakerID(row["speaker"])}
		switch t := QuoteType(strings.TrimSpace(row["quoteType"])); t {
		case Explicit, Anaphoric, Implicit:
			q.Type = t
		}
		for _, s := range spans {
			if s[1] > chars {
				return Book{}, fmt.Errorf("%s: quotation %s: span %v lies past the text's end", novel, q.ID, s)
			}
			if r := trimSpan(b.Text, codex.Range{Start: toByte(s[0]), End: toByte(s[1])}); r.End > r.Start {
				q.Spans = append(q.Spans, r)
			}
		}
		b.Quotes = append(b.Quotes, q)
	}
	return b, nil
}

// speakerID resolves the speaker PDNC names to a character: by main name
// first, then by an alias one character alone has. A name no character
// has, or several do, stays as it is (not in the codex).
func (b Book) speakerID(name string) string {
	name = strings.TrimSpace(name)
	for _, c := range b.Characters {
		if c.Name == name {
			return c.ID
		}
	}
	var found []string
	for _, c := range b.Characters {
		if slices.Contains(c.Aliases, name) {
			found = append(found, c.ID)
		}
	}
	if len(found) == 1 {
		return found[0]
	}
	return name
}

func readCharacters(path string) ([]Character, error) {
	rows, err := readCSV(path)
	if err != nil {
		return nil, err
	}
	var out []Character
	for i, row := range rows {
		aliases, err := pyStrings(row["Aliases"])
		if err != nil {
			return nil, fmt.Errorf("character %d: %w", i+1, err)
		}
		slices.Sort(aliases) // a Python set has no order
		c := Character{ID: strings.TrimSpace(row["Character ID"]), Name: strings.TrimSpace(row["Main Name"])}
		for _, a := range aliases {
			if a = strings.TrimSpace(a); a != "" && a != c.Name && !slices.Contains(c.Aliases, a) {
				c.Aliases = append(c.Aliases, a)
			}
		}
		switch strings.TrimSpace(row["Gender"]) {
		case "F":
			c.Gender = "female"
		case "M":
			c.Gender = "male"
		}
		if c.ID == "" || c.Name == "" {
			return nil, fmt.Errorf("character %d has no ID or name", i+1)
		}
		out = append(out, c)
	}
	return out, nil
}

// readCSV reads a CSV file with a header row into one map per row.
func readCSV(path string) ([]map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	header, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Base(path), err)
	}
	var out []map[string]string
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", filepath.Base(path), err)
		}
		row := map[string]string{}
		for i, h := range header {
			if i < len(rec) {
				row[strings.TrimSpace(h)] = rec[i]
			}
		}
		out = append(out, row)
	}
}

// charOffsets turns Python's character offsets into text into byte
// offsets (the identity for ASCII text, as every PDNC novel is today),
// and the number of characters text has.
func charOffsets(text string) (func(int) int, int) {
	ascii := true
	for i := 0; i < len(text); i++ {
		if text[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return func(i int) int { return min(max(i, 0), len(text)) }, len(text)
	}
	starts := make([]int, 0, len(text)+1)
	for i := range text {
		starts = append(starts, i)
	}
	starts = append(starts, len(text))
	return func(i int) int { return starts[min(max(i, 0), len(starts)-1)] }, len(starts) - 1
}

// trimSpan trims from a span the white space and straight or curly
// double quotation marks at its edges.
func trimSpan(text string, r codex.Range) codex.Range {
	const cut = " \t\r\n\"“”"
	s := text[r.Start:r.End]
	t := strings.TrimLeft(s, cut)
	r.Start += len(s) - len(t)
	u := strings.TrimRight(t, cut)
	r.End = r.Start + len(u)
	return r
}
