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
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

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
	nov.Mentions = append(nov.Mentions, namesWithin(text, sents, ms, entities, nov.Mentions)...)
	for _, e := range entities {
		nov.Entities = append(nov.Entities, *e)
	}
	sort.Slice(nov.Entities, func(i, j int) bool { return nov.Entities[i].ID < nov.Entities[j].ID })
	sort.Slice(nov.Mentions, func(i, j int) bool { return nov.Mentions[i].Start < nov.Mentions[j].Start })
	return nov, nil
}

// namesWithin are the names LitBank's scheme cannot mark: a name inside
// a longer mention of the same entity ("the village of Raveloe", "Dick,
// who had already set to work", "the Judge"). LitBank annotates the
// outer phrase as a common-noun mention and, as a mention cannot nest
// inside another of its own entity, leaves the name in it unmarked,
// though the text names the entity there with one of the names its
// annotations give it elsewhere. The first and longest of those names in
// the phrase is kept, marked Within, unless a name already marked
// overlaps it. LitBank also calls a name that begins a sentence with a
// capital it does not have elsewhere ("The Fuwalda") a common-noun
// mention: that is the name too.
func namesWithin(text string, sents [][][2]int, ms []*mention, entities map[string]*namebench.Entity, marked []namebench.Mention) []namebench.Mention {
	var out []namebench.Mention
	overlaps := func(ms []namebench.Mention, f namebench.Found) bool {
		return slices.ContainsFunc(ms, func(m namebench.Mention) bool { return m.Start < f.End && f.Start < m.End })
	}
	// capital marks a form capitalized for a phrase that begins a
	// sentence, which only counts at the phrase's start.
	const capital = "^"
	for _, m := range ms {
		e := entities[m.chain]
		if m.cat != "NOM" || e == nil {
			continue
		}
		toks := sents[m.sent]
		start, stop := toks[m.first][0], toks[m.last][1]
		forms := map[string][]string{}
		for _, form := range e.Forms {
			forms[form] = []string{m.chain}
		}
		if m.first == 0 {
			for _, form := range e.Forms {
				if r, size := utf8.DecodeRuneInString(form); unicode.IsLower(r) {
					if up := string(unicode.ToUpper(r)) + form[size:]; forms[up] == nil {
						forms[up] = []string{capital}
					}
				}
			}
		}
		for _, f := range namebench.Grep(text[start:stop], forms) {
			if f.Entities[0] == capital && f.Start > 0 || strings.Contains(text[start+f.Start:start+f.End], "\n\n") {
				continue
			}
			f.Start, f.End = start+f.Start, start+f.End
			if !overlaps(marked, f) && !overlaps(out, f) {
				out = append(out, namebench.Mention{Start: f.Start, End: f.End, Entity: m.chain, Within: true})
			}
			break
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
