// Package corpus writes synthetic book projects for benchmarks and load
// tests: thousands of codex entries of every type, with aliases, links,
// folder-shaped characters with souls, and chapters of prose that mention
// them. The same seed always writes the same project.
package corpus

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/quire-ink/quire/codex"
)

// Options size a corpus.
type Options struct {
	// Entries is the total number of codex entries, spread over all types.
	Entries int
	// Chapters is the number of manuscript chapters.
	Chapters int
	// ChapterWords is the approximate length of a chapter; default 2,500.
	ChapterWords int
	// Seed picks the corpus; the same seed writes the same files.
	Seed uint64
	// Outline gives each chapter a point of view, a story day and a
	// status in its front matter, and each scene a note with a synopsis
	// and a status (docs/outline.md), as a planned book has them.
	Outline bool
	// Scenes is how many scenes a chapter splits into; 0 starts one
	// every 480 words.
	Scenes int
}

// Entry describes one generated entry.
type Entry struct {
	ID      string
	Type    codex.Type
	Name    string
	Aliases []string
}

// Corpus is what Generate wrote.
type Corpus struct {
	Root     string
	Entries  []Entry
	Chapters []string
}

// typeShare spreads entries over types the way real codices lean: many
// characters and places, a few style rules.
var typeShare = []struct {
	t     codex.Type
	share int
}{
	{codex.TypeCharacter, 30}, {codex.TypeLocation, 20}, {codex.TypeOrganization, 12},
	{codex.TypeItem, 12}, {codex.TypeConcept, 12}, {codex.TypeEvent, 10}, {codex.TypeStyle, 4},
}

var (
	onsets  = []string{"b", "br", "c", "d", "dr", "f", "g", "gr", "h", "k", "l", "m", "n", "p", "r", "s", "st", "t", "th", "v", "w", "z", "sh", "tr"}
	vowels  = []string{"a", "e", "i", "o", "u", "ae", "ei", "ou", "y"}
	codas   = []string{"", "n", "r", "l", "s", "th", "m", "nd", "rk", "x", "ck"}
	places  = []string{"Harbor", "Hollow", "Reach", "Spire", "Market", "Gate", "Fen", "Keep", "Crossing", "Vale"}
	orgs    = []string{"Guild", "Company", "Order", "Circle", "Watch", "League", "House"}
	items   = []string{"Lens", "Ledger", "Bell", "Compass", "Key", "Lantern", "Blade", "Map"}
	epithet = []string{"the Grey", "the Younger", "the Quiet", "the Tallywoman", "the Ferryman", "Old", "Captain", "Warden"}
	// Prose draws on function words and on a content vocabulary whose
	// word frequencies follow Zipf's law, as real prose does: a few words
	// appear everywhere, most in a handful of places.
	functionWords = strings.Fields(`the and of to a in her his their its but because while
		when after before until as though with without into across under over beside
		through an at by on`)
	// contentWords is made on first use: every quire process links this
	// package, and only the corpus generator and tests need the words.
	contentWords = sync.OnceValue(func() []string {
		return append(strings.Fields(`harbor tide lamp salt rope ledger night water stone bell
		wind gull light dark coat ink door street boat river market silver
		quiet heavy cold bright narrow slow careful sudden old young long short
		walked watched counted listened waited turned carried remembered wrote opened`),
			tailWords(4000)...)
	})
	sections = []string{"Appearance", "History", "Relationships", "Habits", "Rules", "Notes", "Consequences"}
)

// Plan names the entries a corpus with these options holds, without
// writing anything; Generate writes the same entries.
func Plan(opt Options) *Corpus {
	rng := rand.New(rand.NewPCG(opt.Seed, opt.Seed^0x9e3779b97f4a7c15))
	c := &Corpus{}
	names := map[string]bool{}
	unique := func(make func() string) string {
		for i := 0; ; i++ {
			n := make()
			if i > 20 {
				n = fmt.Sprintf("%s %d", n, i)
			}
			if !names[codex.Normalize(n)] {
				names[codex.Normalize(n)] = true
				return n
			}
		}
	}
	word := func() string {
		w := onsets[rng.IntN(len(onsets))] + vowels[rng.IntN(len(vowels))] + codas[rng.IntN(len(codas))]
		if rng.IntN(2) == 0 {
			w += vowels[rng.IntN(len(vowels))] + codas[rng.IntN(len(codas))]
		}
		return strings.ToUpper(w[:1]) + w[1:]
	}
	total := 0
	for _, ts := range typeShare {
		total += ts.share
	}
	for i, ts := range typeShare {
		n := opt.Entries * ts.share / total
		if i == 0 {
			n += opt.Entries - sumShares(opt.Entries, total)
		}
		for range n {
			e := Entry{Type: ts.t}
			switch ts.t {
			case codex.TypeCharacter:
				first, last := word(), word()
				e.Name = unique(func() string { return first + " " + last })
				e.Aliases = append(e.Aliases, unique(func() string { return epithet[rng.IntN(len(epithet))] + " " + first }))
			case codex.TypeLocation:
				e.Name = unique(func() string { return word() + " " + places[rng.IntN(len(places))] })
			case codex.TypeOrganization:
				e.Name = unique(func() string { return "the " + word() + " " + orgs[rng.IntN(len(orgs))] })
			case codex.TypeItem:
				e.Name = unique(func() string { return word() + " " + items[rng.IntN(len(items))] })
			default:
				e.Name = unique(func() string { return word() + " " + word() })
			}
			if rng.IntN(2) == 0 {
				e.Aliases = append(e.Aliases, unique(word))
			}
			c.Entries = append(c.Entries, e)
		}
	}
	for i := range c.Entries {
		c.Entries[i].ID = entryPath(c.Entries[i], i)
	}
	return c
}

// entryPath is the project-relative file of the i-th entry: every tenth
// character is folder-shaped, with a soul.md beside its index.md.
func entryPath(e Entry, i int) string {
	if e.Type == codex.TypeCharacter && i%10 == 0 {
		return path.Join("codex", e.Type.Plural(), Slug(e.Name), "index.md")
	}
	return path.Join("codex", e.Type.Plural(), Slug(e.Name)+".md")
}

func (o Options) withDefaults() Options {
	if o.ChapterWords <= 0 {
		o.ChapterWords = 2500
	}
	return o
}

// Generate writes a corpus into dir, which must be empty or missing.
func Generate(ctx context.Context, dir string, opt Options) (*Corpus, error) {
	opt = opt.withDefaults()
	if list, err := os.ReadDir(dir); err == nil && len(list) > 0 {
		return nil, fmt.Errorf("corpus folder %s is not empty", dir)
	}
	c := Plan(opt)
	c.Root = dir
	rng := newProse(rand.New(rand.NewPCG(opt.Seed^0x5bd1e995, opt.Seed)))
	for i := range c.Entries {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := writeEntry(dir, c, i, rng); err != nil {
			return nil, err
		}
	}
	for i := range opt.Chapters {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		path, err := writeChapter(dir, c, i+1, opt.ChapterWords, opt.Scenes, opt.Outline, rng)
		if err != nil {
			return nil, err
		}
		c.Chapters = append(c.Chapters, path)
	}
	return c, nil
}

func sumShares(n, total int) int {
	sum := 0
	for _, ts := range typeShare {
		sum += n * ts.share / total
	}
	return sum
}

// Slug is the file name the corpus gives an entry called name.
func Slug(name string) string {
	return strings.Trim(strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			return r
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		}
		return '-'
	}, name), "-")
}

// tailWords makes n invented words, the same ones every time.
func tailWords(n int) []string {
	rng := rand.New(rand.NewPCG(42, 42))
	out := make([]string, 0, n)
	seen := map[string]bool{}
	for len(out) < n {
		w := onsets[rng.IntN(len(onsets))] + vowels[rng.IntN(len(vowels))] + codas[rng.IntN(len(codas))] +
			vowels[rng.IntN(len(vowels))] + codas[rng.IntN(len(codas))]
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// prose draws random text: content word i comes with probability
// proportional to 1/(i+1)^1.1.
type prose struct {
	*rand.Rand
	zipf *rand.Zipf
}

func newProse(rng *rand.Rand) *prose {
	return &prose{Rand: rng, zipf: rand.NewZipf(rng, 1.1, 1, uint64(len(contentWords())-1))}
}

// word draws the next word of a sentence.
func (p *prose) word() string {
	if p.IntN(100) < 45 {
		return functionWords[p.IntN(len(functionWords))]
	}
	return contentWords()[p.zipf.Uint64()]
}

func sentence(rng *prose, c *Corpus, n int, mention bool) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(' ')
		}
		if mention && rng.IntN(12) == 0 {
			e := c.Entries[rng.IntN(len(c.Entries))]
			name := e.Name
			if len(e.Aliases) > 0 && rng.IntN(3) == 0 {
				name = e.Aliases[rng.IntN(len(e.Aliases))]
			}
			if rng.IntN(5) == 0 {
				name += "'s"
			}
			b.WriteString(name)
			continue
		}
		b.WriteString(rng.word())
	}
	s := b.String()
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

func writeEntry(dir string, c *Corpus, i int, rng *prose) error {
	e := c.Entries[i]
	file := filepath.Join(dir, filepath.FromSlash(e.ID))
	var soul string
	if path.Base(e.ID) == "index.md" {
		soul = fmt.Sprintf("## Wants\n\n%s\n\n## Fears\n\n%s\n", sentence(rng, c, 20, false), sentence(rng, c, 20, false))
	}
	var b strings.Builder
	b.WriteString("---\n")
	if i%2 == 0 {
		fmt.Fprintf(&b, "type: %s\n", e.Type)
	}
	fmt.Fprintf(&b, "name: %q\n", e.Name)
	if len(e.Aliases) > 0 {
		quoted := make([]string, len(e.Aliases))
		for k, a := range e.Aliases {
			quoted[k] = fmt.Sprintf("%q", a)
		}
		fmt.Fprintf(&b, "aliases: [%s]\n", strings.Join(quoted, ", "))
	}
	fmt.Fprintf(&b, "summary: %q\n", sentence(rng, c, 14, false))
	fmt.Fprintf(&b, "tags: [%s, %s]\n", contentWords()[rng.IntN(50)], e.Type)
	if i%7 == 0 {
		b.WriteString("status: tentative\n")
	}
	if e.Type == codex.TypeCharacter {
		b.WriteString("role: Supporting\nlocked: [role]\n")
	}
	b.WriteString("---\n")
	fmt.Fprintf(&b, "# %s\n\n", e.Name)
	for s := range 3 {
		fmt.Fprintf(&b, "## %s\n\n", sections[(i+s)%len(sections)])
		for range 2 {
			b.WriteString(sentence(rng, c, 18, false))
			other := c.Entries[rng.IntN(len(c.Entries))]
			fmt.Fprintf(&b, " See [[%s]]. ", other.Name)
			b.WriteString(sentence(rng, c, 14, false))
			b.WriteString("\n\n")
		}
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		return err
	}
	if soul != "" {
		return os.WriteFile(filepath.Join(filepath.Dir(file), "soul.md"), []byte(soul), 0o644)
	}
	return nil
}

// statuses are the outline's statuses a planned corpus gives.
var statuses = []string{"idea", "draft", "revised", "final"}

func writeChapter(dir string, c *Corpus, n, wordsPerChapter, scenes int, outline bool, rng *prose) (string, error) {
	// A scene is paragraphs of 80 words: six, unless the chapter is to
	// hold a given number of scenes.
	paragraphs := 6
	if scenes > 0 {
		paragraphs = max(1, (wordsPerChapter+80*scenes-1)/(80*scenes))
	}
	var b strings.Builder
	var cast []Entry
	if outline {
		for _, e := range c.Entries {
			if e.Type == codex.TypeCharacter {
				cast = append(cast, e)
			}
		}
		pov := "Nobody"
		if len(cast) > 0 {
			pov = cast[rng.IntN(len(cast))].Name
		}
		fmt.Fprintf(&b, "---\npov: %s\nday: %d\nstatus: %s\n---\n", pov, n, statuses[rng.IntN(len(statuses))])
	}
	fmt.Fprintf(&b, "# Chapter %d\n\n", n)
	written := 0
	for scene := 1; written < wordsPerChapter; scene++ {
		fmt.Fprintf(&b, "## Scene %d\n\n", scene)
		if outline {
			fmt.Fprintf(&b, "<!-- scene\nstatus: %s\nsynopsis: %s\n-->\n\n", statuses[rng.IntN(len(statuses))], sentence(rng, c, 14, false))
		}
		for p := 0; p < paragraphs && written < wordsPerChapter; p++ {
			for range 5 {
				b.WriteString(sentence(rng, c, 16, true))
				b.WriteByte(' ')
				written += 16
			}
			b.WriteString("\n\n")
		}
	}
	rel := filepath.Join("manuscript", fmt.Sprintf("%03d-chapter-%d.md", n, n))
	path := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", err
	}
	return filepath.ToSlash(rel), os.WriteFile(path, []byte(b.String()), 0o644)
}
