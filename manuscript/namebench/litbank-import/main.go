// Command litbank-import turns LitBank's coreference annotations (Bamman,
// Lewke and Mansoor 2020; CC BY 4.0; github.com/dbamman/litbank) into
// the name benchmark's data: for each of its 100 novels, the excerpt's
// prose as the novel's own text has it (not LitBank's tokens), and each
// proper-name mention with the entity it refers to. Run it on a checkout
// of LitBank:
//
//	go run ./manuscript/namebench/litbank-import -litbank DIR -out manuscript/namebench/testdata/litbank.json.gz
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/quire-ink/quire/manuscript/namebench"
)

func main() {
	dir := flag.String("litbank", "", "a checkout of github.com/dbamman/litbank")
	out := flag.String("out", "", "the gzipped JSON file to write")
	flag.Parse()
	if *dir == "" || *out == "" {
		fmt.Fprintln(os.Stderr, "usage: litbank-import -litbank DIR -out FILE")
		os.Exit(2)
	}
	if err := run(*dir, *out); err != nil {
		fmt.Fprintln(os.Stderr, "litbank-import:", err)
		os.Exit(1)
	}
}

func run(dir, out string) error {
	anns, err := filepath.Glob(filepath.Join(dir, "coref", "tsv", "*_brat.ann"))
	if err != nil {
		return err
	}
	sort.Strings(anns)
	var set namebench.Set
	for _, ann := range anns {
		base := strings.TrimSuffix(filepath.Base(ann), "_brat.ann")
		doc, err := importNovel(dir, base)
		if err != nil {
			return fmt.Errorf("%s: %w", base, err)
		}
		set.Novels = append(set.Novels, doc)
	}
	return namebench.WriteGzipJSON(out, set)
}

type mention struct {
	id                    string
	sent, first, last     int
	typ, cat, text, chain string
}

func importNovel(dir, base string) (namebench.Novel, error) {
	tokText, err := os.ReadFile(filepath.Join(dir, "coref", "tsv", base+"_brat.txt"))
	if err != nil {
		return namebench.Novel{}, err
	}
	orig, err := os.ReadFile(filepath.Join(dir, "original", base+".txt"))
	if err != nil {
		return namebench.Novel{}, err
	}
	// Align LitBank's tokens with the novel's text, in order.
	sents, end, err := namebench.AlignTokens(string(orig), string(tokText))
	if err != nil {
		return namebench.Novel{}, err
	}
	// The excerpt ends with its last token: LitBank annotates nothing
	// after it, so a name there could be scored as neither right nor wrong.
	text := strings.ReplaceAll(string(orig[:end]), "\r\n", "\n")
	if len(text) != end {
		return namebench.Novel{}, fmt.Errorf("CRLF text is not aligned")
	}

	f, err := os.Open(filepath.Join(dir, "coref", "tsv", base+"_brat.ann"))
	if err != nil {
		return namebench.Novel{}, err
	}
	defer f.Close()
	var ms []*mention
	byID := map[string]*mention{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		c := strings.Split(sc.Text(), "\t")
		switch c[0] {
		case "MENTION":
			if len(c) < 9 {
				continue
			}
			m := &mention{id: c[1], text: c[6], typ: c[7], cat: c[8]}
			m.sent, _ = strconv.Atoi(c[2])
			m.first, _ = strconv.Atoi(c[3])
			m.last, _ = strconv.Atoi(c[5])
			ms = append(ms, m)
			byID[m.id] = m
		case "COREF":
			if m, ok := byID[c[1]]; ok {
				m.chain = c[2]
			}
		}
	}
	if err := sc.Err(); err != nil {
		return namebench.Novel{}, err
	}
	nov := namebench.Novel{Title: base, Text: text}
	entities := map[string]*namebench.Entity{}
	for _, m := range ms {
		if m.cat != "PROP" {
			continue
		}
		if m.chain == "" {
			// A name LitBank links to no chain is an entity of its own.
			m.chain = base + "-" + m.id
		}
		toks := sents[m.sent]
		start, stop := toks[m.first][0], toks[m.last][1]
		span := text[start:stop]
		// A span that starts or ends on no letter (a quote LitBank kept
		// inside it) is trimmed to the name.
		span = strings.TrimFunc(span, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '.' })
		start += strings.Index(text[start:stop], span)
		stop = start + len(span)
		if span == "" || strings.Contains(span, "\n\n") {
			continue
		}
		e := entities[m.chain]
		if e == nil {
			e = &namebench.Entity{ID: m.chain, Type: m.typ}
			entities[m.chain] = e
		}
		form := strings.Join(strings.Fields(span), " ")
		if !contains(e.Forms, form) {
			e.Forms = append(e.Forms, form)
		}
		nov.Mentions = append(nov.Mentions, namebench.Mention{Start: start, End: stop, Entity: m.chain})
	}
	for _, m := range namesWithin(text, namebench.Tokens(string(tokText)), sents, ms) {
		if entities[m.Entity] != nil {
			nov.Mentions = append(nov.Mentions, m)
		}
	}
	for _, e := range entities {
		nov.Entities = append(nov.Entities, *e)
	}
	sort.Slice(nov.Entities, func(i, j int) bool { return nov.Entities[i].ID < nov.Entities[j].ID })
	sort.Slice(nov.Mentions, func(i, j int) bool { return nov.Mentions[i].Start < nov.Mentions[j].Start })
	return nov, nil
}

// namesWithin are the names LitBank's scheme cannot mark
// (namebench.NamesWithin), derived from its tokens, mentions and chains,
// as byte ranges of text; one across a paragraph break is left out, as
// a marked name there is.
func namesWithin(text string, tokens [][]string, sents [][][2]int, ms []*mention) []namebench.Mention {
	var anns []namebench.Annotated
	for _, m := range ms {
		anns = append(anns, namebench.Annotated{Span: namebench.TokenSpan{Sent: m.sent, First: m.first, Last: m.last}, Chain: m.chain, Cat: m.cat})
	}
	var out []namebench.Mention
	for _, a := range namebench.NamesWithin(tokens, anns) {
		start, stop := sents[a.Span.Sent][a.Span.First][0], sents[a.Span.Sent][a.Span.Last][1]
		if !strings.Contains(text[start:stop], "\n\n") {
			out = append(out, namebench.Mention{Start: start, End: stop, Entity: a.Chain, Added: a.Kind})
		}
	}
	return out
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
