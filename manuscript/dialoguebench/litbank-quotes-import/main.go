// Command litbank-quotes-import turns LitBank's quotation annotations
// (Sims and Bamman 2020; CC BY 4.0; github.com/dbamman/litbank) into the
// dialogue benchmark's data: for each of its 100 novels, the excerpt's
// prose as the novel's own text has it (not LitBank's tokens), its people
// with the proper names the excerpt gives them, and each quotation's
// words (without their quotation marks) with the person who speaks them.
// The people and the excerpt's text are the name benchmark's
// (manuscript/namebench, made by litbank-import from the same LitBank
// commit), so both benchmarks read one text and one cast; the command
// checks that its own reading of the excerpt is byte for byte theirs.
// Run it on a checkout of LitBank:
//
//	go run ./manuscript/dialoguebench/litbank-quotes-import -litbank DIR -out manuscript/dialoguebench/testdata/litbank-quotes.json.gz
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript/dialoguebench"
	"github.com/quire-ink/quire/manuscript/namebench"
)

func main() {
	dir := flag.String("litbank", "", "a checkout of github.com/dbamman/litbank")
	names := flag.String("names", "manuscript/namebench/testdata/litbank.json.gz", "the name benchmark's data, for each excerpt's text and people")
	out := flag.String("out", "", "the gzipped JSON file to write")
	flag.Parse()
	if *dir == "" || *out == "" {
		fmt.Fprintln(os.Stderr, "usage: litbank-quotes-import -litbank DIR [-names FILE] -out FILE")
		os.Exit(2)
	}
	if err := run(*dir, *names, *out); err != nil {
		fmt.Fprintln(os.Stderr, "litbank-quotes-import:", err)
		os.Exit(1)
	}
}

func run(dir, names, out string) error {
	set, err := namebench.Load(names)
	if err != nil {
		return err
	}
	var data dialoguebench.LitBank
	for _, nov := range set.Novels {
		b, err := importExcerpt(dir, nov)
		if err != nil {
			return fmt.Errorf("%s: %w", nov.Title, err)
		}
		data.Excerpts = append(data.Excerpts, b)
	}
	return namebench.WriteGzipJSON(out, data)
}

func importExcerpt(dir string, nov namebench.Novel) (dialoguebench.Book, error) {
	base := nov.Title
	tokText, err := os.ReadFile(filepath.Join(dir, "quotations", "tsv", base+"_brat.txt"))
	if err != nil {
		return dialoguebench.Book{}, err
	}
	orig, err := os.ReadFile(filepath.Join(dir, "original", base+".txt"))
	if err != nil {
		return dialoguebench.Book{}, err
	}
	// Align LitBank's tokens with the novel's text, in order, as
	// litbank-import does.
	text := strings.ReplaceAll(string(orig), "\r\n", "\n")
	sents, pos, err := namebench.AlignTokens(text, string(tokText))
	if err != nil {
		return dialoguebench.Book{}, err
	}
	if text[:pos] != nov.Text {
		return dialoguebench.Book{}, fmt.Errorf("the excerpt's text is not the name benchmark's")
	}
	b := dialoguebench.Book{Title: base, Text: nov.Text}
	for _, e := range nov.Entities {
		if e.Type != "PER" {
			continue
		}
		name, aliases := e.NameAndAliases()
		b.Characters = append(b.Characters, dialoguebench.Character{ID: e.ID, Name: name, Aliases: aliases})
	}

	f, err := os.Open(filepath.Join(dir, "quotations", "tsv", base+"_brat.ann"))
	if err != nil {
		return dialoguebench.Book{}, err
	}
	defer f.Close()
	speakers := map[string]string{}
	var quotes []dialoguebench.Quote
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		c := strings.Split(sc.Text(), "\t")
		switch c[0] {
		case "QUOTE":
			if len(c) < 7 {
				return dialoguebench.Book{}, fmt.Errorf("a short QUOTE row: %q", sc.Text())
			}
			var n [4]int
			for i := range n {
				if n[i], err = strconv.Atoi(c[2+i]); err != nil {
					return dialoguebench.Book{}, fmt.Errorf("QUOTE %s: %w", c[1], err)
				}
			}
			if n[0] >= len(sents) || n[2] >= len(sents) || n[1] >= len(sents[n[0]]) || n[3] >= len(sents[n[2]]) {
				return dialoguebench.Book{}, fmt.Errorf("QUOTE %s lies past the excerpt", c[1])
			}
			span := inside(b.Text, codex.Range{Start: sents[n[0]][n[1]][0], End: sents[n[2]][n[3]][1]})
			if span.End <= span.Start {
				return dialoguebench.Book{}, fmt.Errorf("QUOTE %s holds no words", c[1])
			}
			quotes = append(quotes, dialoguebench.Quote{ID: c[1], Spans: []codex.Range{span}})
		case "ATTRIB":
			if len(c) < 3 {
				return dialoguebench.Book{}, fmt.Errorf("a short ATTRIB row: %q", sc.Text())
			}
			speakers[c[1]] = c[2]
		}
	}
	if err := sc.Err(); err != nil {
		return dialoguebench.Book{}, err
	}
	for i := range quotes {
		quotes[i].Speaker = speakers[quotes[i].ID]
	}
	slices.SortStableFunc(quotes, func(a, b dialoguebench.Quote) int { return a.Spans[0].Start - b.Spans[0].Start })
	b.Quotes = quotes
	return b, nil
}

// inside trims a quotation's span to its words: the quotation marks (or
// the dash of dash-set speech) that open it, and the mark that closes
// it. A closing single mark right after a letter is kept as an
// apostrophe ("goin'") unless the quotation opened with a single mark.
func inside(text string, r codex.Range) codex.Range {
	s := text[r.Start:r.End]
	t := s
	single := false
	for {
		t = strings.TrimLeftFunc(t, unicode.IsSpace)
		if strings.HasPrefix(t, "--") || strings.HasPrefix(t, "_") {
			t = strings.TrimLeft(t, "-_")
			continue
		}
		c, size := utf8.DecodeRuneInString(t)
		if !strings.ContainsRune("\"“‘'«„—–", c) {
			break
		}
		single = single || c == '‘' || c == '\''
		t = t[size:]
	}
	r.Start += len(s) - len(t)
	t = strings.TrimRightFunc(t, unicode.IsSpace)
	for range 3 {
		c, size := utf8.DecodeLastRuneInString(t)
		before, _ := utf8.DecodeLastRuneInString(t[:len(t)-size])
		switch {
		case c == '"' || c == '”' || c == '»' || c == '_':
		case (c == '’' || c == '\'') && (single || !unicode.IsLetter(before)):
		default:
			r.End = r.Start + len(t)
			return r
		}
		t = strings.TrimRightFunc(t[:len(t)-size], unicode.IsSpace)
	}
	r.End = r.Start + len(t)
	return r
}
