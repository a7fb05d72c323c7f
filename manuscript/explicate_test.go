package manuscript

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
)

const harborChapter = `---
title: The Harbor at Night
pov: Mara
---
# The Harbor at Night

## Arrival

Rain came in sideways off the estuary, and Mara Vell kept her collar up as
the ferry bumped the pilings. Nobody on the quay looked twice at a woman
with a satchel.

She counted the lamps along the sea wall, the way her mother had taught
her: nine lamps, one dark, which meant the customs men were drinking at
the Anchor.

## The Ledger

Under a loose board of the chapel floor, Mara kept the smugglers' ledgers
wrapped in oilcloth. Every debt the harbor owed was written there in her
small, slanting hand.

<!-- TODO: is the chapel St. Brigid's or the seamen's mission? -->

Ilse Dorn found her there at midnight, kneeling, with ink on her fingers.
"You'll go blind counting other people's sins," Ilse said.
`

const stormChapter = "# The Storm\r\n\r\n" +
	"Séverine watched the storm break over the lighthouse from the widow's walk,\r\n" +
	"a shawl around her shoulders and the telescope cold in her hands.\r\n\r\n" +
	"The lighthouse keeper, old Tobias Wren, had lost his left hand to a winch in\r\n" +
	"the year of the great flood. He tied knots with his teeth now, and nobody\r\n" +
	"mocked him twice.\r\n\r\n" +
	"```\r\nsignal log: three long, one short\r\n```\r\n"

const marketChapter = `# Market Day

## Fish

The fishwives shouted prices over each other while gulls wheeled above the
stalls. A boy stole a herring and ran.

## Bells

At noon the bells of the chapel rang for a drowned sailor, and the market
fell quiet for the length of a prayer.
`

// explicateUnits builds the test manuscript, in reading order.
func explicateUnits() []*Unit {
	units := []*Unit{
		NewUnit("manuscript/01-harbor.md", harborChapter, 0),
		NewUnit("manuscript/02-storm.md", stormChapter, 0),
		NewUnit("manuscript/03-market.md", marketChapter, 0),
	}
	for i, u := range units {
		u.Position = i + 1
	}
	return units
}

const maraEntry = `---
name: Mara Vell
aliases: [Mara, the Harbor Witch]
summary: Smuggler who keeps the harbor's books.
---
# Mara Vell

## History

Mara hides the smugglers' ledgers beneath the chapel floor, wrapped in oilcloth.
She learned to read the harbor lamps from her mother.

## Relationships

[[Ilse Dorn]] is the only one who knows where the ledgers are.
`

const tobiasEntry = `---
name: Tobias Wren
---
# Tobias Wren

## Appearance

The lighthouse keeper lost his **left hand** to a winch during the great flood.
`

const ilseEntry = `---
name: Ilse Dorn
---
# Ilse Dorn

A priest's daughter who never learned to keep quiet.
`

const ilseSoul = `## Fears

Ilse fears that Mara will go blind counting other people's sins.
`

func explicateCatalog(t *testing.T) *codex.Catalog {
	t.Helper()
	parse := func(id, src string) *codex.Entry {
		e, problems := codex.Parse(id, []byte(src), codex.TypeCharacter)
		require.NotNil(t, e, "%s: %v", id, problems)
		return e
	}
	ilse := parse("codex/characters/ilse-dorn/index.md", ilseEntry)
	ilse.Soul = codex.ParseSoul("codex/characters/ilse-dorn/soul.md", []byte(ilseSoul))
	return codex.NewCatalog([]*codex.Entry{
		parse("codex/characters/mara-vell.md", maraEntry),
		parse("codex/characters/tobias-wren.md", tobiasEntry),
		ilse,
	}, nil)
}

func openMemoryPassages(t *testing.T) *Passages {
	t.Helper()
	p, err := OpenPassages(context.Background(), "", PassageOptions{InMemory: true})
	require.NoError(t, err)
	t.Cleanup(func() { _ = p.Close() })
	return p
}

func openDiskPassages(t *testing.T, dir string) *Passages {
	t.Helper()
	p, err := OpenPassages(context.Background(), dir, PassageOptions{BoltTimeout: 100 * time.Millisecond})
	require.NoError(t, err)
	return p
}

func syncUnits(t *testing.T, p *Passages, units []*Unit) SyncStats {
	t.Helper()
	stats, err := p.Sync(context.Background(), units)
	require.NoError(t, err)
	return stats
}

func explicate(t *testing.T, p *Passages, quote string, opt ExplicateOptions) *Explication {
	t.Helper()
	ex, err := p.Explicate(context.Background(), quote, opt)
	require.NoError(t, err)
	return ex
}

// unitText is the text of a passage's range in its unit.
func unitText(units []*Unit, ps Passage) string {
	for _, u := range units {
		if u.Path == ps.Path {
			return u.Text[ps.Range.Start:ps.Range.End]
		}
	}
	return ""
}

func docCount(t *testing.T, p *Passages) int {
	t.Helper()
	n, err := p.idx.DocCount()
	require.NoError(t, err)
	return int(n)
}

func TestExplicateFindsSupportingParagraph(t *testing.T) {
	units := explicateUnits()
	p := openMemoryPassages(t)
	syncUnits(t, p, units)
	cat := explicateCatalog(t)

	tests := []struct {
		name    string
		quote   string
		opt     ExplicateOptions
		path    string
		heading string
		// contains is a piece of the paragraph that must come first.
		contains string
	}{
		{
			name:     "exact wording of the manuscript",
			quote:    "Mara kept the smugglers' ledgers wrapped in oilcloth.",
			path:     "manuscript/01-harbor.md",
			heading:  "The Ledger",
			contains: "chapel floor",
		},
		{
			name:     "the codex's wording of it",
			quote:    "Mara hides the smugglers' ledgers beneath the chapel floor, wrapped in oilcloth.",
			opt:      ExplicateOptions{Catalog: cat},
			path:     "manuscript/01-harbor.md",
			heading:  "The Ledger",
			contains: "oilcloth",
		},
		{
			name:     "a paraphrase, with accents and CRLF text",
			quote:    "Tobias lost a hand in the flood when a winch caught it.",
			path:     "manuscript/02-storm.md",
			heading:  "The Storm",
			contains: "Tobias Wren",
		},
		{
			name:     "folded accents match",
			quote:    "Severine at the telescope during the storm",
			path:     "manuscript/02-storm.md",
			contains: "Séverine",
		},
		{
			name:     "a drowned sailor",
			quote:    "The chapel bells ring whenever a sailor drowns.",
			path:     "manuscript/03-market.md",
			heading:  "Bells",
			contains: "drowned sailor",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ex := explicate(t, p, tt.quote, tt.opt)
			require.NotEmpty(t, ex.Passages)
			best := ex.Passages[0]
			assert.Equal(t, tt.path, best.Path)
			assert.Contains(t, best.Text, tt.contains)
			if tt.heading != "" {
				assert.Equal(t, tt.heading, best.Heading)
			}
			assert.Positive(t, best.Score)
			for i := 1; i < len(ex.Passages); i++ {
				assert.GreaterOrEqual(t, ex.Passages[i-1].Score, ex.Passages[i].Score, "passages not best first")
			}
			assert.Contains(t, unitText(units, best), strings.Fields(tt.contains)[0], "range does not cover the paragraph")
		})
	}
}

func TestExplicatePassageDescribesItsChapter(t *testing.T) {
	units := explicateUnits()
	p := openMemoryPassages(t)
	syncUnits(t, p, units)
	ex := explicate(t, p, "the customs men were drinking at the Anchor", ExplicateOptions{Limit: 1})
	require.Len(t, ex.Passages, 1)
	got := ex.Passages[0]
	assert.Equal(t, Passage{
		Path:     "manuscript/01-harbor.md",
		Title:    "The Harbor at Night",
		Number:   1,
		Position: 1,
		Heading:  "Arrival",
		Range:    got.Range,
		Score:    got.Score,
		Text:     "She counted the lamps along the sea wall, the way her mother had taught\nher: nine lamps, one dark, which meant the customs men were drinking at\nthe Anchor.",
	}, got)
	assert.Equal(t, got.Text, unitText(units, got))
	assert.Equal(t, "the customs men were drinking at the Anchor", ex.Quote)
}

func TestExplicateLeavesCommentsOutAndNormalizesLineEnds(t *testing.T) {
	units := explicateUnits()
	p := openMemoryPassages(t)
	syncUnits(t, p, units)

	ex := explicate(t, p, "seamen's mission", ExplicateOptions{})
	assert.Empty(t, ex.Passages, "a writer's comment was indexed as prose")

	ex = explicate(t, p, "lost his left hand to a winch", ExplicateOptions{Limit: 1})
	require.Len(t, ex.Passages, 1)
	assert.NotContains(t, ex.Passages[0].Text, "\r")
	assert.Contains(t, unitText(units, ex.Passages[0]), "\r\n")

	ex = explicate(t, p, "signal log three long one short", ExplicateOptions{})
	assert.Empty(t, ex.Passages, "fenced code was indexed as prose")
}

func TestExplicateNamesBoostTheirEntry(t *testing.T) {
	// Two paragraphs share the quote's words equally; only one names the
	// entry the quote comes from.
	units := []*Unit{NewUnit("manuscript/01-two.md", `# Two

Marten mended the nets by the fire every night.

Tobias mended the nets by the fire every night.
`, 0)}
	p := openMemoryPassages(t)
	syncUnits(t, p, units)
	cat := explicateCatalog(t)
	quote := "The lighthouse keeper lost his left hand to a winch during the great flood, yet he mended nets by the fire."

	without := explicate(t, p, quote, ExplicateOptions{})
	require.Nil(t, without.Source)
	require.Len(t, without.Passages, 2)
	assert.InDelta(t, without.Passages[0].Score, without.Passages[1].Score, 1e-9, "without the entry the two are alike")

	with := explicate(t, p, quote, ExplicateOptions{Catalog: cat})
	require.NotNil(t, with.Source)
	assert.Equal(t, "codex/characters/tobias-wren.md", with.Source.Entry)
	require.Len(t, with.Passages, 2)
	assert.True(t, strings.HasPrefix(with.Passages[0].Text, "Tobias"), "the paragraph naming the entry should lead: %q", with.Passages[0].Text)
	assert.Greater(t, with.Passages[0].Score, with.Passages[1].Score)
}

func TestExplicateFindsTheEntryNamedWithOneSharedWord(t *testing.T) {
	// A continuity check: the codex line speaks of a hand lost to a winch;
	// the chapter that contradicts it names Tobias and shares one word
	// with the quote. Without the entry, one word is not enough.
	units := []*Unit{NewUnit("manuscript/01-one.md", `# One

Tobias raised both hands to the lamp and laughed.

The gulls wheeled over the harbor wall.
`, 0)}
	p := openMemoryPassages(t)
	syncUnits(t, p, units)
	quote := "The lighthouse keeper lost his left hand to a winch during the great flood, yet he mended nets by the fire."

	without := explicate(t, p, quote, ExplicateOptions{})
	assert.Empty(t, without.Passages)

	with := explicate(t, p, quote, ExplicateOptions{Catalog: explicateCatalog(t)})
	require.NotNil(t, with.Source)
	require.Len(t, with.Passages, 1)
	assert.True(t, strings.HasPrefix(with.Passages[0].Text, "Tobias raised"), "got %q", with.Passages[0].Text)
}

func TestExplicateSource(t *testing.T) {
	p := openMemoryPassages(t)
	syncUnits(t, p, explicateUnits())
	cat := explicateCatalog(t)

	tests := []struct {
		name    string
		quote   string
		want    *QuoteSource
		wantSub string // the entry text the range must cover
	}{
		{
			name:  "exact",
			quote: "Mara hides the smugglers' ledgers beneath the chapel floor, wrapped in oilcloth.",
			want: &QuoteSource{Entry: "codex/characters/mara-vell.md", Name: "Mara Vell",
				Path: "codex/characters/mara-vell.md", Section: "History", Exact: true},
			wantSub: "Mara hides the smugglers' ledgers beneath the chapel floor, wrapped in oilcloth",
		},
		{
			name:  "exact despite case, spacing, quotes and markup",
			quote: "“the lighthouse keeper lost his left hand   to a WINCH during the great flood”",
			want: &QuoteSource{Entry: "codex/characters/tobias-wren.md", Name: "Tobias Wren",
				Path: "codex/characters/tobias-wren.md", Section: "Appearance", Exact: true},
			wantSub: "The lighthouse keeper lost his **left hand** to a winch during the great flood",
		},
		{
			name:  "exact across a link",
			quote: "Ilse Dorn is the only one who knows where the ledgers are",
			want: &QuoteSource{Entry: "codex/characters/mara-vell.md", Name: "Mara Vell",
				Path: "codex/characters/mara-vell.md", Section: "Relationships", Exact: true},
			wantSub: "Ilse Dorn]] is the only one who knows where the ledgers are",
		},
		{
			name:  "exact in front matter",
			quote: "Smuggler who keeps the harbor's books",
			want: &QuoteSource{Entry: "codex/characters/mara-vell.md", Name: "Mara Vell",
				Path: "codex/characters/mara-vell.md", Exact: true},
			wantSub: "Smuggler who keeps the harbor's books",
		},
		{
			name:  "exact in a soul",
			quote: "Ilse fears that Mara will go blind counting other people's sins.",
			want: &QuoteSource{Entry: "codex/characters/ilse-dorn/index.md", Name: "Ilse Dorn",
				Path: "codex/characters/ilse-dorn/soul.md", Section: "Fears", Exact: true},
			wantSub: "Ilse fears that Mara will go blind counting other people's sins",
		},
		{
			name:  "reworded",
			quote: "Mara hid the ledgers under the chapel floor in oilcloth",
			want: &QuoteSource{Entry: "codex/characters/mara-vell.md", Name: "Mara Vell",
				Path: "codex/characters/mara-vell.md", Section: "History"},
			wantSub: "Mara hides the smugglers' ledgers beneath the chapel floor, wrapped in oilcloth.",
		},
		{
			name:  "reworded across two sentences",
			quote: "Mara keeps ledgers under the chapel and reads harbor lamps as her mother taught",
			want: &QuoteSource{Entry: "codex/characters/mara-vell.md", Name: "Mara Vell",
				Path: "codex/characters/mara-vell.md", Section: "History"},
			wantSub: "Mara hides the smugglers' ledgers beneath the chapel floor, wrapped in oilcloth.\nShe learned to read the harbor lamps from her mother.",
		},
		{
			name:  "not in the codex",
			quote: "The moon is made of green cheese.",
		},
		{
			name:  "too little in common",
			quote: "Mara sold the chapel to a merchant from the capital for silver.",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ex := explicate(t, p, tt.quote, ExplicateOptions{Catalog: cat})
			if tt.want == nil {
				assert.Nil(t, ex.Source)
				return
			}
			require.NotNil(t, ex.Source)
			got := *ex.Source
			src := ""
			for _, e := range cat.All() {
				switch {
				case e.ID == got.Path:
					src = e.Source
				case e.Soul != nil && e.Soul.ID == got.Path:
					src = e.Soul.Source
				}
			}
			require.NotEmpty(t, src)
			require.True(t, got.Range.Start >= 0 && got.Range.End <= len(src))
			assert.Equal(t, strings.TrimSuffix(tt.wantSub, "."), strings.TrimSuffix(src[got.Range.Start:got.Range.End], "."))
			got.Range = codex.Range{}
			assert.Equal(t, *tt.want, got)
		})
	}
}

func TestExplicateBadQuotes(t *testing.T) {
	p := openMemoryPassages(t)
	syncUnits(t, p, explicateUnits())
	tests := []struct {
		name  string
		quote string
		err   error
	}{
		{"empty", "", ErrEmptyQuote},
		{"whitespace", " \n\t\u00a0 ", ErrEmptyQuote},
		{"too long", strings.Repeat("ledger ", 300), ErrQuoteTooLong},
		{"too long in characters", strings.Repeat("é", MaxQuoteChars+1), ErrQuoteTooLong},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := p.Explicate(context.Background(), tt.quote, ExplicateOptions{})
			assert.ErrorIs(t, err, tt.err)
		})
	}
	// At the bound is fine.
	_, err := p.Explicate(context.Background(), strings.Repeat("é", MaxQuoteChars), ExplicateOptions{})
	assert.NoError(t, err)
}

func TestExplicateStopWordsOnly(t *testing.T) {
	p := openMemoryPassages(t)
	syncUnits(t, p, explicateUnits())
	ex := explicate(t, p, "and the of it was", ExplicateOptions{Catalog: explicateCatalog(t)})
	assert.Empty(t, ex.Passages)
	assert.NotNil(t, ex.Passages, "an empty list, not null")
}

func TestExplicateLimit(t *testing.T) {
	var units []*Unit
	for i := range 30 {
		units = append(units, NewUnit(filepathOf(i), "# Tide\n\nThe tide came in over the salt flats.\n", 0))
	}
	p := openMemoryPassages(t)
	syncUnits(t, p, units)
	tests := []struct{ limit, want int }{{0, DefaultPassages}, {-3, DefaultPassages}, {1, 1}, {12, 12}, {100, MaxPassages}}
	for _, tt := range tests {
		ex := explicate(t, p, "tide over the salt flats", ExplicateOptions{Limit: tt.limit})
		assert.Len(t, ex.Passages, tt.want, "limit %d", tt.limit)
	}
}

func filepathOf(i int) string { return fmt.Sprintf("manuscript/%03d-tide.md", i) }

func TestExplicateExcerptShowsTheMatch(t *testing.T) {
	filler := strings.Repeat("The gulls wheeled and the boats came home. ", 40)
	text := "# Long\n\n" + filler + "At the end of it all, Mara burned the ledgers in the chapel stove.\n"
	units := []*Unit{NewUnit("manuscript/01-long.md", text, 0)}
	p := openMemoryPassages(t)
	syncUnits(t, p, units)

	ex := explicate(t, p, "Mara burned the ledgers", ExplicateOptions{Limit: 1})
	require.Len(t, ex.Passages, 1)
	got := ex.Passages[0].Text
	assert.True(t, strings.HasPrefix(got, "… "), "cut text must say so: %q", got[:20])
	assert.Contains(t, got, "Mara burned the ledgers in the chapel stove.")
	assert.LessOrEqual(t, len(got), PassageExcerptBytes+len("… ")+len(" …"))

	// Matches everywhere: the first window holds as many as any.
	ex = explicate(t, p, "gulls wheeled boats home", ExplicateOptions{Limit: 1})
	require.Len(t, ex.Passages, 1)
	got = ex.Passages[0].Text
	assert.True(t, strings.HasPrefix(got, "The gulls wheeled"), "%q", got[:20])
	assert.True(t, strings.HasSuffix(got, "came home. …"), "the last matched sentence is shown whole: %q", got[len(got)-30:])
	assert.LessOrEqual(t, len(got), PassageExcerptBytes+len(" …"))
}

func TestExcerptBounds(t *testing.T) {
	p := openMemoryPassages(t)
	terms := map[string]bool{"ledger": true, "é": true}
	tests := map[string]string{
		"one giant word":       strings.Repeat("é", 1900),
		"no sentence ends":     strings.Repeat("ledger and rope and salt ", 80),
		"sentences":            strings.Repeat("The ledger was wet. ", 90),
		"wide characters":      strings.Repeat("日本語の文章です。", 80),
		"short":                "A ledger.",
		"exactly at the bound": strings.Repeat("a", PassageExcerptBytes),
	}
	for name, text := range tests {
		t.Run(name, func(t *testing.T) {
			got := p.excerpt(text, terms, PassageExcerptBytes)
			assert.True(t, utf8.ValidString(got))
			assert.NotEmpty(t, strings.Trim(got, "… "))
			assert.LessOrEqual(t, len(got), PassageExcerptBytes+len("… ")+len(" …"))
			if len(text) <= PassageExcerptBytes {
				assert.Equal(t, text, got)
			} else {
				assert.Contains(t, got, "…")
			}
		})
	}
}

func TestSyncIndexesOnlyWhatChanged(t *testing.T) {
	units := explicateUnits()
	p := openMemoryPassages(t)

	stats := syncUnits(t, p, units)
	total := 0
	for _, u := range units {
		total += len(Paragraphs(u))
	}
	assert.Equal(t, SyncStats{Units: 3, Indexed: 3, Paragraphs: total}, withoutDuration(stats))
	assert.Equal(t, total, docCount(t, p))

	stats = syncUnits(t, p, units)
	assert.Equal(t, SyncStats{Units: 3}, withoutDuration(stats), "nothing changed, nothing indexed")

	// An editor's version of one chapter: same text, new Unit value.
	same := NewUnit(units[2].Path, units[2].Text, 7)
	stats = syncUnits(t, p, []*Unit{units[0], units[1], same})
	assert.Equal(t, 0, stats.Indexed, "the text, not the Unit value, decides")

	edited := NewUnit(units[2].Path, strings.Replace(marketChapter, "A boy stole a herring and ran.", "A boy stole a herring and ran.\n\nThe harbormaster fined him a copper penny.", 1), 3)
	stats = syncUnits(t, p, []*Unit{units[0], units[1], edited})
	assert.Equal(t, SyncStats{Units: 3, Indexed: 1, Paragraphs: len(Paragraphs(edited))}, withoutDuration(stats))
	assert.Equal(t, total+1, docCount(t, p), "old paragraphs of the edited unit must go")

	ex := explicate(t, p, "harbormaster fined him a copper penny", ExplicateOptions{})
	require.NotEmpty(t, ex.Passages)
	assert.Equal(t, "manuscript/03-market.md", ex.Passages[0].Path)
	assert.Equal(t, "The harbormaster fined him a copper penny.", ex.Passages[0].Text)

	// The bells paragraph moved down one: its new range must be reported.
	ex = explicate(t, p, "bells rang for a drowned sailor", ExplicateOptions{Limit: 1})
	require.Len(t, ex.Passages, 1)
	assert.Equal(t, "At noon", unitText([]*Unit{edited}, ex.Passages[0])[:7])
}

func TestSyncReindexesWhenTheOutlineDiffers(t *testing.T) {
	// Same text, headings found differently (as a newer Markdown parser
	// might): paragraphs may be numbered differently, so the unit is
	// indexed again.
	units := explicateUnits()
	p := openMemoryPassages(t)
	syncUnits(t, p, units)
	reread := *units[0]
	reread.Headings = reread.Headings[:1]
	stats := syncUnits(t, p, []*Unit{&reread, units[1], units[2]})
	assert.Equal(t, 1, stats.Indexed)
	assert.Equal(t, len(Paragraphs(&reread))+len(Paragraphs(units[1]))+len(Paragraphs(units[2])), docCount(t, p))
}

func TestSyncRemovesVanishedUnits(t *testing.T) {
	units := explicateUnits()
	p := openMemoryPassages(t)
	syncUnits(t, p, units)
	require.NotEmpty(t, explicate(t, p, "Tobias lost his hand to a winch", ExplicateOptions{}).Passages)

	stats := syncUnits(t, p, []*Unit{units[0], units[2]})
	assert.Equal(t, SyncStats{Units: 2, Removed: 1}, withoutDuration(stats))
	assert.Equal(t, len(Paragraphs(units[0]))+len(Paragraphs(units[2])), docCount(t, p))
	for _, ps := range explicate(t, p, "Tobias lost his hand to a winch in the great flood", ExplicateOptions{Limit: MaxPassages}).Passages {
		assert.NotEqual(t, "manuscript/02-storm.md", ps.Path)
	}

	stats = syncUnits(t, p, nil)
	assert.Equal(t, SyncStats{Removed: 2}, withoutDuration(stats))
	assert.Equal(t, 0, docCount(t, p))
	assert.Empty(t, explicate(t, p, "ledgers", ExplicateOptions{}).Passages)
}

func TestSyncRefusesDuplicatePaths(t *testing.T) {
	units := explicateUnits()
	p := openMemoryPassages(t)
	_, err := p.Sync(context.Background(), []*Unit{units[0], units[0]})
	assert.ErrorContains(t, err, "given twice")
}

func withoutDuration(s SyncStats) SyncStats {
	s.Duration = 0
	return s
}

func TestPassagesPersistAcrossRuns(t *testing.T) {
	dir := t.TempDir()
	units := explicateUnits()

	p := openDiskPassages(t, dir)
	assert.True(t, p.Report().Rebuilt)
	assert.Equal(t, "missing", p.Report().Reason)
	first := syncUnits(t, p, units)
	require.Equal(t, 3, first.Indexed)
	require.NoError(t, p.Close())

	// Warm: nothing to do, and the index answers at once.
	p = openDiskPassages(t, dir)
	assert.Equal(t, PassageReport{Dir: dir, Units: 3}, p.Report())
	stats := syncUnits(t, p, explicateUnits())
	assert.Equal(t, SyncStats{Units: 3}, withoutDuration(stats))
	assert.Equal(t, first.Paragraphs, docCount(t, p))
	ex := explicate(t, p, "Mara kept the ledgers wrapped in oilcloth", ExplicateOptions{})
	require.NotEmpty(t, ex.Passages)
	assert.Equal(t, "manuscript/01-harbor.md", ex.Passages[0].Path)
	require.NoError(t, p.Close())

	// Changed while quire was not running: one chapter edited, one gone.
	edited := NewUnit(units[0].Path, strings.Replace(harborChapter, "nine lamps", "eleven lamps", 1), 0)
	p = openDiskPassages(t, dir)
	stats = syncUnits(t, p, []*Unit{edited, units[2]})
	assert.Equal(t, SyncStats{Units: 2, Indexed: 1, Removed: 1, Paragraphs: len(Paragraphs(edited))}, withoutDuration(stats))
	require.NoError(t, p.Close())

	p = openDiskPassages(t, dir)
	defer p.Close()
	stats = syncUnits(t, p, []*Unit{edited, units[2]})
	assert.Equal(t, SyncStats{Units: 2}, withoutDuration(stats))
	assert.Equal(t, len(Paragraphs(edited))+len(Paragraphs(units[2])), docCount(t, p))
}

func TestPassagesRebuildDamagedIndex(t *testing.T) {
	tests := []struct {
		name   string
		damage func(t *testing.T, index string)
		reason string
	}{
		{"garbled metadata", func(t *testing.T, index string) {
			require.NoError(t, os.WriteFile(filepath.Join(index, "index_meta.json"), []byte("{not json"), 0o600))
		}, "corrupt"},
		{"truncated store", func(t *testing.T, index string) {
			require.NoError(t, os.Truncate(filepath.Join(index, "store", "root.bolt"), 100))
		}, ""},
		{"store removed", func(t *testing.T, index string) {
			require.NoError(t, os.RemoveAll(filepath.Join(index, "store")))
		}, ""},
		{"older schema", func(t *testing.T, index string) {
			// Safe batches, so the damage is on disk before Close.
			idx, err := bleve.OpenUsing(index, map[string]any{"unsafe_batch": false})
			require.NoError(t, err)
			require.NoError(t, idx.SetInternal([]byte(keySchema), []byte("0")))
			require.NoError(t, idx.Close())
		}, "schema"},
		{"unit list garbled", func(t *testing.T, index string) {
			// Safe batches, so the damage is on disk before Close.
			idx, err := bleve.OpenUsing(index, map[string]any{"unsafe_batch": false})
			require.NoError(t, err)
			require.NoError(t, idx.SetInternal([]byte(keyUnits), []byte("[oops")))
			require.NoError(t, idx.Close())
		}, "corrupt"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			units := explicateUnits()
			p := openDiskPassages(t, dir)
			syncUnits(t, p, units)
			require.NoError(t, p.Close())

			tt.damage(t, filepath.Join(dir, passageIndexDir))

			p = openDiskPassages(t, dir)
			defer p.Close()
			assert.True(t, p.Report().Rebuilt)
			assert.Contains(t, p.Report().Reason, tt.reason)
			assert.NotEqual(t, "missing", p.Report().Reason)
			stats := syncUnits(t, p, units)
			assert.Equal(t, 3, stats.Indexed, "a rebuilt index starts empty")
			assert.NotEmpty(t, explicate(t, p, "Tobias lost his hand to a winch", ExplicateOptions{}).Passages)
		})
	}
}

func TestPassagesLockedBySecondOpener(t *testing.T) {
	dir := t.TempDir()
	first := openDiskPassages(t, dir)

	start := time.Now()
	_, err := OpenPassages(context.Background(), dir, PassageOptions{BoltTimeout: 50 * time.Millisecond})
	require.ErrorIs(t, err, codex.ErrIndexLocked)
	assert.Less(t, time.Since(start), 5*time.Second, "a held index must not hang the second opener")

	require.NoError(t, first.Close())
	second := openDiskPassages(t, dir)
	assert.False(t, second.Report().Rebuilt, "the first opener's index is intact")
	require.NoError(t, second.Close())
}

func TestPassagesHonourContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p := openMemoryPassages(t)

	_, err := p.Sync(ctx, explicateUnits())
	assert.ErrorIs(t, err, context.Canceled)
	_, err = p.Explicate(ctx, "ledgers", ExplicateOptions{Catalog: explicateCatalog(t)})
	assert.ErrorIs(t, err, context.Canceled)
	_, err = OpenPassages(ctx, t.TempDir(), PassageOptions{})
	assert.ErrorIs(t, err, context.Canceled)

	// A canceled Sync leaves nothing half done that the next one misses.
	stats := syncUnits(t, p, explicateUnits())
	assert.Equal(t, 3, stats.Indexed)
	assert.NotEmpty(t, explicate(t, p, "ledgers", ExplicateOptions{}).Passages)
}

func TestSyncCanceledMidwayRecovers(t *testing.T) {
	// Enough units for several batches, so cancellation lands between them.
	var units []*Unit
	body := strings.Repeat("The tide came in over the salt flats and the gulls cried. ", 40)
	for i := range 400 {
		units = append(units, NewUnit(filepathOf(i), "# Tide\n\n"+body+"\n\n"+body+"\n", 0))
	}
	dir := t.TempDir()
	p := openDiskPassages(t, dir)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		time.Sleep(20 * time.Millisecond)
		cancel()
	}()
	_, err := p.Sync(ctx, units)
	if err != nil {
		assert.ErrorIs(t, err, context.Canceled)
	}
	// What the index records of its units matches the documents it holds.
	recorded := 0
	for _, st := range p.states {
		recorded += st.Paragraphs
	}
	assert.Equal(t, recorded, docCount(t, p))
	require.NoError(t, p.Close())

	// Whatever landed is known after a restart; the rest is indexed now.
	p = openDiskPassages(t, dir)
	defer p.Close()
	syncUnits(t, p, units)
	want := 0
	for _, u := range units {
		want += len(Paragraphs(u))
	}
	assert.Equal(t, want, docCount(t, p))
	stats := syncUnits(t, p, units)
	assert.Equal(t, 0, stats.Indexed)
}

func TestPassagesConcurrentUse(t *testing.T) {
	units := explicateUnits()
	edited := NewUnit(units[1].Path, strings.Replace(stormChapter, "Tobias Wren", "Tobias Wren, whom the children feared,", 1), 0)
	p := openMemoryPassages(t)
	syncUnits(t, p, units)

	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for i := range 4 {
		wg.Go(func() {
			for k := range 10 {
				set := units
				if (i+k)%2 == 0 {
					set = []*Unit{units[0], edited, units[2]}
				}
				if _, err := p.Sync(context.Background(), set); err != nil {
					errs <- err
				}
			}
		})
		wg.Go(func() {
			for range 10 {
				ex, err := p.Explicate(context.Background(), "Tobias lost his hand to a winch", ExplicateOptions{})
				if err != nil {
					errs <- err
					continue
				}
				for _, ps := range ex.Passages {
					if !strings.Contains(ps.Text, "Tobias") && !strings.Contains(ps.Text, "lighthouse") && !strings.Contains(ps.Text, "hand") {
						errs <- errors.New("hit read against the wrong paragraph: " + ps.Text)
					}
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		assert.NoError(t, err)
	}
}

func TestPassagesClosed(t *testing.T) {
	p, err := OpenPassages(context.Background(), "", PassageOptions{InMemory: true})
	require.NoError(t, err)
	require.NoError(t, p.Close())
	require.NoError(t, p.Close(), "closing twice is harmless")
	_, err = p.Explicate(context.Background(), "ledgers", ExplicateOptions{})
	assert.ErrorIs(t, err, ErrPassagesClosed)
	_, err = p.Sync(context.Background(), explicateUnits())
	assert.ErrorIs(t, err, ErrPassagesClosed)
}

func TestOpenPassagesNeedsAFolder(t *testing.T) {
	_, err := OpenPassages(context.Background(), "", PassageOptions{})
	assert.ErrorContains(t, err, "no folder")
}

func TestDocIDRoundTrip(t *testing.T) {
	for _, path := range []string{"manuscript/01-harbor.md", "odd:name#1.md", "a/b:c/d.md", ""} {
		gotPath, hash, i, ok := parseDocID(docID(path, "0123456789abcdef", 42))
		require.True(t, ok)
		assert.Equal(t, path, gotPath)
		assert.Equal(t, "0123456789abcdef", hash)
		assert.Equal(t, 42, i)
	}
	for _, bad := range []string{"", "nohash", "h:x:p", "h:-1:p", "h:1"} {
		_, _, _, ok := parseDocID(bad)
		assert.False(t, ok, bad)
	}
}

func TestPassagesLogNoProse(t *testing.T) {
	var buf strings.Builder
	var mu sync.Mutex
	log := slogTo(&buf, &mu)
	p, err := OpenPassages(context.Background(), t.TempDir(), PassageOptions{Logger: log})
	require.NoError(t, err)
	defer p.Close()
	syncUnits(t, p, explicateUnits())
	explicate(t, p, "Mara kept the ledgers wrapped in oilcloth", ExplicateOptions{Catalog: explicateCatalog(t)})
	mu.Lock()
	defer mu.Unlock()
	out := buf.String()
	assert.Contains(t, out, "passages synced")
	assert.Contains(t, out, "explicated")
	for _, prose := range []string{"oilcloth", "ledgers", "Tobias", "lighthouse"} {
		assert.NotContains(t, out, prose)
	}
}

// lockedWriter lets a logger write from several goroutines.
type lockedWriter struct {
	mu *sync.Mutex
	b  *strings.Builder
}

func (w lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func slogTo(b *strings.Builder, mu *sync.Mutex) *slog.Logger {
	return slog.New(slog.NewTextHandler(lockedWriter{mu, b}, &slog.HandlerOptions{Level: slog.LevelDebug}))
}
