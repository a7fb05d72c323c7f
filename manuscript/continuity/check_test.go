package continuity

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/manuscript/dialogue"
)

// smallBook: Séverine has pale green eyes and black hair, Marek brown
// eyes, Jory dies in chapter 2 ("The Drowning"), Ilse's eyes are
// undescribed in colour; a style entry holds three rules.
var smallBook = map[string]string{
	"codex/characters/severine.md": "---\ntype: character\nname: Séverine Aubrac\naliases: [Séverine]\neyes: pale green\nhair: black\n---\n",
	"codex/characters/marek.md":    "---\ntype: character\nname: Marek Dunn\naliases: [Marek]\neyes: brown\n---\n",
	"codex/characters/ilse.md":     "---\ntype: character\nname: Ilse Dorn\naliases: [Ilse]\neyes: unsettling\n---\n",
	"codex/characters/jory.md":     "---\ntype: character\nname: Jory Vane\naliases: [Jory]\nprogressions:\n  - from: The Drowning\n    status: dead\n    note: Drowned.\n---\n",
	"codex/locations/vault.md":     "---\ntype: location\nname: Skerry Vault\n---\n",
	"codex/style/house.md":         "---\ntype: style\nname: House Style\nrules:\n  - {avoid: \"13th\", prefer: thirteenth}\n  - {avoid: \"all of a sudden\", prefer: suddenly, note: Shorter.}\n  - {avoid: \"okay\"}\n  - term: salt-debt\n---\n",
	"manuscript/01-harbor.md":      "---\ntitle: The Harbor\nday: 1\n---\nJory laughed.\n",
	"manuscript/02-drowning.md":    "---\ntitle: The Drowning\nday: 4\n---\nThe sea took him.\n",
}

// checkText checks text as a third chapter of smallBook (or of files)
// and returns the words each diagnostic of code points at.
func checkText(t *testing.T, tl *Timeline, text, code string) []string {
	t.Helper()
	u := manuscript.NewUnit("manuscript/03-test.md", text, 1)
	var out []string
	for _, d := range Check(tl, u) {
		require.True(t, d.Range.Start >= 0 && d.Range.End <= len(text) && d.Range.Start <= d.Range.End)
		if d.Code == code {
			out = append(out, text[d.Range.Start:d.Range.End])
			assert.NotEmpty(t, d.Message)
			assert.Equal(t, "manuscript/03-test.md", d.Path)
		}
	}
	return out
}

func TestTraitContradiction(t *testing.T) {
	tl, _ := openBook(t, writeBook(t, smallBook), Options{})
	tests := []struct {
		name, text string
		want       []string
	}{
		{"possessive", "Séverine's dark brown eyes were wet.", []string{"dark brown eyes"}},
		{"full name and pronoun", "Séverine Aubrac closed the book, and her dark brown eyes were wet.", []string{"dark brown eyes"}},
		{"after the noun", "Séverine looked up; her eyes were brown as peat.", []string{"eyes were brown"}},
		{"compound", "The brown-eyed Séverine said nothing.", []string{"brown-eyed"}},
		{"hair", "Séverine pushed back her golden hair.", []string{"golden hair"}},
		{"the canon's own colour", "Séverine's pale green eyes gave nothing back.", nil},
		{"a shade of it", "Séverine's dark green eyes narrowed.", nil},
		{"the brown-eyed one beside her", "Séverine watched Marek, his brown eyes narrowed.", nil},
		{"compound beside her", "Marek, brown-eyed and patient, stood beside Séverine.", nil},
		{"possessive other", "Séverine looked into Marek's brown eyes.", nil},
		{"possessive of the wrong one", "Marek looked into Séverine's brown eyes.", []string{"brown eyes"}},
		{"undescribed colour absorbs", "Séverine and Ilse stood there, grey eyes on the sea.", nil},
		{"no name in the sentence", "Séverine came in. Her brown eyes were wet.", nil},
		{"other sentence", "Séverine sat. The brown eyes of the fish stared.", nil},
		{"no colour", "Séverine's tired eyes closed.", nil},
		{"in code", "Séverine wrote `Séverine's brown eyes` in the log.", nil},
		{"someone else's eyes", "Séverine looked at the brown-eyed boy.", nil},
		{"a determiner", "Séverine watched the grey eyes of the gull.", nil},
		{"compound after a comma", "Séverine, brown-eyed, said nothing.", []string{"brown-eyed"}},
		{"compound after a copula", "Séverine was brown-eyed once.", []string{"brown-eyed"}},
		{"once per sentence", "Séverine's brown eyes, brown as mud; brown-eyed Séverine.", []string{"brown eyes"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, checkText(t, tl, tc.text, CodeTraitContradiction))
		})
	}
}

func TestTraitContradictionRelated(t *testing.T) {
	tl, _ := openBook(t, writeBook(t, smallBook), Options{})
	ds := Check(tl, manuscript.NewUnit("manuscript/03-test.md", "Séverine's brown eyes.", 1))
	require.Len(t, ds, 1)
	d := ds[0]
	assert.Equal(t, codex.SeverityWarning, d.Severity)
	assert.Equal(t, "codex/characters/severine.md", d.Entry)
	assert.Contains(t, d.Message, `"brown eyes"`)
	assert.Contains(t, d.Message, "pale green")
	require.Len(t, d.Related, 1)
	assert.Equal(t, Related{Path: "codex/characters/severine.md", Range: d.Related[0].Range, Line: 5, Message: "eyes: pale green"}, d.Related[0])
	src := smallBook["codex/characters/severine.md"]
	assert.Equal(t, "eyes: pale green", src[d.Related[0].Range.Start:d.Related[0].Range.End])
}

func TestTraitsExtended(t *testing.T) {
	files := map[string]string{
		"codex/characters/wend.md": "---\ntype: character\nname: Wend\ncloak: blue\n---\n",
		"manuscript/01-a.md":       "---\ntitle: A\n---\n",
	}
	root := writeBook(t, files)
	tl, _ := openBook(t, root, Options{})
	assert.Empty(t, checkText(t, tl, "Wend shook out his red cloak.", CodeTraitContradiction), "cloak is no trait by default")
	tl, _ = openBook(t, root, Options{Traits: []string{"cloak"}})
	assert.Equal(t, []string{"red cloak"}, checkText(t, tl, "Wend shook out his red cloak.", CodeTraitContradiction))
}

func TestAfterDeath(t *testing.T) {
	tl, _ := openBook(t, writeBook(t, smallBook), Options{})
	tests := []struct {
		name, text string
		want       []string
	}{
		{"said Jory", "\"Go,\" said Jory.", []string{"said Jory"}},
		{"Jory said", "\"Go,\" Jory said.", []string{"Jory said"}},
		{"Jory asked", "Jory asked for the lamp.", []string{"Jory asked"}},
		{"subject acting", "Jory climbed the stair.", []string{"Jory climbed"}},
		{"irregular verb", "Jory stood at the rail.", []string{"Jory stood"}},
		{"after and", "The bell rang, and Jory turned.", []string{"Jory turned"}},
		{"full name", "Jory Vane opened the door.", []string{"Jory Vane opened"}},
		{"remembered", "Teodora remembered Jory.", nil},
		{"remembered by him", "Jory remembered nothing now.", nil},
		{"possessive", "Jory's boots stood by the door.", nil},
		{"described", "Jory was twenty. Jory had a brother.", nil},
		{"object", "They buried Jory at noon.", nil},
		{"not a clause start", "She remembered how Jory smiled.", nil},
		{"comma after", "Jory, who drowned, is mourned.", nil},
		{"in code", "The clerk wrote `said Jory` twice.", nil},
		{"dying", "Jory drowned.", nil},
		// Who speaks is the chapter's dialogue attribution: a tag that
		// names the dead speaker, before or after the speech, in any
		// quotation marks.
		{"speaks by a tag before", "Jory said, \"Go.\"", []string{"Jory said"}},
		{"speaks in curly quotes", "“Keep the lamp lit,” Jory whispered.", []string{"Jory whispered"}},
		{"speaks in guillemets", "« Va, » dit Marek. « Non, » said Jory.", []string{"said Jory"}},
		// The writer's speaker line gives the speech to the dead; the
		// diagnostic points at the speech.
		{"speaks by the writer's line", "\"Keep the lamp lit.\"\n<!-- speaker: Jory -->\n", []string{"\"Keep the lamp lit.\""}},
		{"the writer's line gives it to another", "\"Go,\" said Jory. <!-- speaker: Marek -->", nil},
		// Named inside someone else's speech, the dead neither speak nor
		// act.
		{"named in another's speech", "\"Jory said the lamp was lit,\" said Marek.", nil},
		{"acting in another's speech", "\"Jory climbed that stair every night,\" Marek said.", nil},
		// A speaker quire only guesses is no finding, even when the guess
		// is the dead: a pronoun, the narration, the turns.
		{"guessed from a pronoun", "Marek looked away from Jory. \"Go,\" he said.", nil},
		{"guessed from the narration, who acts there", "Jory came to the rail. \"Go.\"", []string{"Jory came"}},
		{"guessed from the turns", "Marek looked at Jory.\n\n\"Go,\" said Marek.\n\n\"No.\"\n", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, checkText(t, tl, tc.text, CodeAfterDeath))
		})
	}
	// The book's quotation marks are the dialogue: setting's: with a
	// dash for speech, straight quotes hold no one's words.
	dash, _ := openBook(t, writeBook(t, smallBook), Options{Dialogue: dialogue.Options{Quotes: dialogue.QuotesDash}})
	assert.Empty(t, checkText(t, dash, "\"Go,\" said Jory.", CodeAfterDeath))
	assert.Equal(t, []string{"said Jory"}, checkText(t, dash, "—Go —said Jory.", CodeAfterDeath))
	// In chapter 1, before the drowning, he is alive.
	u := manuscript.NewUnit("manuscript/01-harbor.md", "---\ntitle: The Harbor\nday: 1\n---\nJory laughed. \"Go,\" said Jory.\n", 1)
	assert.Empty(t, Check(tl, u))
	// A flashback, with a day or without, is never checked.
	for _, fm := range []string{"flashback: true\nday: 1", "flashback: true", "flashback: true\nday: 9"} {
		assert.Empty(t, checkText(t, tl, "---\n"+fm+"\n---\n\"Go,\" said Jory.\n", CodeAfterDeath), fm)
	}
}

func TestAfterDeathMessage(t *testing.T) {
	tl, _ := openBook(t, writeBook(t, smallBook), Options{})
	ds := Check(tl, manuscript.NewUnit("manuscript/03-test.md", "\"Go,\" said Jory.", 1))
	require.Len(t, ds, 1)
	assert.Contains(t, ds[0].Message, `"said Jory"`)
	assert.Contains(t, ds[0].Message, `dead from chapter 2, "The Drowning"`)
	require.Len(t, ds[0].Related, 1)
	assert.Equal(t, "codex/characters/jory.md", ds[0].Related[0].Path)
	assert.Equal(t, 6, ds[0].Related[0].Line)
	assert.Contains(t, ds[0].Related[0].Message, "Drowned.")
}

func TestTimelineOrder(t *testing.T) {
	tl, _ := openBook(t, writeBook(t, smallBook), Options{})
	tests := []struct {
		name, fm string
		want     []string
	}{
		{"earlier", "day: 3", []string{"3"}},
		{"same day", "day: 4", nil},
		{"later", "day: 12", nil},
		{"flashback", "day: 1\nflashback: true", nil},
		{"no day", "title: X", nil},
		{"unreadable day", "day: soon", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, checkText(t, tl, "---\n"+tc.fm+"\n---\nProse.\n", CodeTimelineOrder))
		})
	}
	ds := Check(tl, manuscript.NewUnit("manuscript/03-test.md", "---\nday: 3\n---\n", 1))
	require.Len(t, ds, 1)
	assert.Contains(t, ds[0].Message, `"The Drowning" before it is on day 4`)
	assert.Equal(t, Related{Path: "manuscript/02-drowning.md", Range: ds[0].Related[0].Range, Line: 3, Message: `"The Drowning" is on day 4`}, ds[0].Related[0])
}

func TestUnknownReference(t *testing.T) {
	tl, _ := openBook(t, writeBook(t, smallBook), Options{})
	tests := []struct {
		name, fm string
		want     []string
	}{
		{"known name and alias", "pov: Séverine Aubrac\nlocation: Skerry Vault", nil},
		{"alias, any case", "pov: séverine", nil},
		{"typo", "pov: Severin Aubrac", []string{"Severin Aubrac"}},
		{"unknown place", "location: The Moon", []string{"The Moon"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, checkText(t, tl, "---\n"+tc.fm+"\n---\nProse.\n", CodeUnknownReference))
		})
	}
	text := "---\npov: Severine Aubrak\n---\n"
	ds := Check(tl, manuscript.NewUnit("manuscript/03-test.md", text, 1))
	require.Len(t, ds, 1)
	assert.Contains(t, ds[0].Message, `did you mean "Séverine Aubrac"?`)
	// The near name is the fix, its entry the canon to open, and the
	// name as written an entry the writer may create.
	require.NotNil(t, ds[0].Fix)
	assert.Equal(t, Fix{Title: `Change to "Séverine Aubrac"`, Range: ds[0].Range, NewText: "Séverine Aubrac"}, *ds[0].Fix)
	assert.Equal(t, "Severine Aubrak", text[ds[0].Range.Start:ds[0].Range.End])
	assert.NotEmpty(t, ds[0].Entry)
	assert.Equal(t, &Missing{Name: "Severine Aubrak", Type: codex.TypeCharacter}, ds[0].Missing)

	ds = Check(tl, manuscript.NewUnit("manuscript/03-test.md", "---\nlocation: The Moon\n---\n", 1))
	require.Len(t, ds, 1)
	assert.Nil(t, ds[0].Fix, "nothing is near enough to offer")
	assert.Empty(t, ds[0].Entry)
	assert.Equal(t, &Missing{Name: "The Moon", Type: codex.TypeLocation}, ds[0].Missing)
}

func TestStyleRule(t *testing.T) {
	tl, _ := openBook(t, writeBook(t, smallBook), Options{})
	tests := []struct {
		name, text string
		want       []string // "words→fix"
	}{
		{"avoid", "On the 13th night.", []string{"13th→thirteenth"}},
		{"avoid a phrase, capital kept", "All of a sudden the bell rang.", []string{"All of a sudden→Suddenly"}},
		{"phrase over a line break", "and all of\na sudden it rang", []string{"all of\na sudden→suddenly"}},
		{"avoid without prefer", "It was okay.", []string{"okay→"}},
		{"part of a word", "The 13thly okayish.", nil},
		{"term exact", "The salt-debt is due.", nil},
		{"term capital at sentence start", "Salt-debt is due.", nil},
		{"term case", "The Salt-Debt is due.", []string{"Salt-Debt→salt-debt"}},
		{"term spaced", "The salt debt is due.", []string{"salt debt→salt-debt"}},
		{"term joined", "The saltdebt is due.", []string{"saltdebt→salt-debt"}},
		{"term spaced at sentence start", "Salt debt is due.", []string{"Salt debt→Salt-debt"}},
		{"in code", "Type `13th` here.", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			u := manuscript.NewUnit("manuscript/03-test.md", tc.text, 1)
			var got []string
			for _, d := range Check(tl, u) {
				if d.Code != CodeStyleRule {
					continue
				}
				fix := ""
				if d.Fix != nil {
					fix = d.Fix.NewText
					assert.Equal(t, d.Range, d.Fix.Range)
				}
				got = append(got, tc.text[d.Range.Start:d.Range.End]+"→"+fix)
				assert.Equal(t, codex.SeverityInfo, d.Severity)
				assert.Equal(t, "codex/style/house.md", d.Entry)
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestCheckLevels(t *testing.T) {
	root := writeBook(t, smallBook)
	text := "---\nday: 3\npov: Nobody\n---\n\"Go,\" said Jory. On the 13th night Séverine's brown eyes shut.\n"
	codes := func(opts Options) map[string]codex.Severity {
		tl, _ := openBook(t, root, opts)
		out := map[string]codex.Severity{}
		for _, d := range Check(tl, manuscript.NewUnit("manuscript/03-test.md", text, 1)) {
			out[d.Code] = d.Severity
		}
		return out
	}
	all := codes(Options{})
	assert.Equal(t, map[string]codex.Severity{CodeAfterDeath: codex.SeverityWarning, CodeStyleRule: codex.SeverityInfo,
		CodeTimelineOrder: codex.SeverityWarning, CodeTraitContradiction: codex.SeverityWarning, CodeUnknownReference: codex.SeverityWarning}, all)
	got := codes(Options{Checks: map[string]Level{CodeAfterDeath: LevelOff, CodeStyleRule: "Warning", CodeTimelineOrder: LevelError,
		CodeTraitContradiction: LevelOff, CodeUnknownReference: "loud"}})
	assert.Equal(t, map[string]codex.Severity{CodeStyleRule: codex.SeverityWarning, CodeTimelineOrder: codex.SeverityError,
		CodeUnknownReference: codex.SeverityWarning}, got, "an unusable level keeps the default")
	for _, c := range Checks {
		assert.Empty(t, codes(Options{Checks: map[string]Level{c: LevelOff}})[c], c)
	}
}

func TestOptionsValidate(t *testing.T) {
	assert.Empty(t, Options{Checks: map[string]Level{CodeAfterDeath: LevelOff, CodeStyleRule: LevelWarning}}.Validate())
	assert.Equal(t, []string{
		`checks: "after-dark" is no check; the checks are trait-contradiction, after-death, timeline-order, unknown-reference, style-rule, name-spelling, paragraph-breaks`,
		`checks: style-rule: "loud" is no level; use off, error, warning or info`,
	}, Options{Checks: map[string]Level{"after-dark": LevelOff, CodeStyleRule: "loud"}}.Validate())
}

// TestAsOfFlashbackRule pins the rule of the package documentation.
func TestAsOfFlashbackRule(t *testing.T) {
	files := map[string]string{
		"codex/characters/jory.md": "---\ntype: character\nname: Jory\neyes: grey\nprogressions:\n  - from: 2\n    status: dead\n    eyes: glass\n  - from: Chapter 99\n    title: Ghost\n---\n",
		"manuscript/01-a.md":       "---\ntitle: A\nday: 1\n---\n",
		"manuscript/02-b.md":       "---\ntitle: B\nday: 5\n---\n",
		"manuscript/03-c.md":       "---\ntitle: C\nflashback: true\nday: 2\n---\n",
		"manuscript/04-d.md":       "---\ntitle: D\nflashback: true\n---\n",
		"manuscript/05-e.md":       "---\ntitle: E\nflashback: true\nday: 5\n---\n",
		"manuscript/06-f.md":       "---\ntitle: F\n---\n",
		"manuscript/07-g.md":       "---\ntitle: G\nday: 3\n---\n",
	}
	tl, snap := openBook(t, writeBook(t, files), Options{})
	e, ok := tl.Canon().Catalog().Get("codex/characters/jory.md")
	require.True(t, ok)
	want := map[string]string{
		"manuscript/01-a.md": "confirmed grey",
		"manuscript/02-b.md": "dead glass",     // from here on
		"manuscript/03-c.md": "confirmed grey", // a flashback to day 2, before day 5
		"manuscript/04-d.md": "dead glass",     // a flashback without a day: its place in the book
		"manuscript/05-e.md": "dead glass",     // a flashback to day 5 itself
		"manuscript/06-f.md": "dead glass",     // no day: reading order
		"manuscript/07-g.md": "dead glass",     // day 3 but no flashback: reading order (and a timeline slip)
	}
	for _, u := range snap.Units() {
		a := tl.AsOf(e, tl.Chapter(u.Path, u.Meta))
		assert.Equal(t, want[u.Path], a.Status+" "+a.Field("eyes"), u.Path)
		assert.Equal(t, "Jory", a.Entry.Title, "chapter 99 does not exist")
	}
	require.Len(t, tl.Problems(), 1)
	p := tl.Problems()[0]
	assert.Equal(t, "codex/characters/jory.md", p.Path)
	assert.Equal(t, "Chapter 99", files[p.Path][p.Range.Start:p.Range.End])
	assert.Contains(t, p.Message, "applies nowhere")
	// The story day of a chapter without one is the last day before it.
	days := map[string]string{}
	for _, ch := range tl.Chapters() {
		days[ch.Path] = fmt.Sprint(ch.StoryDay, ch.HasStoryDay)
	}
	assert.Equal(t, "5 true", days["manuscript/04-d.md"])
	assert.Equal(t, "5 true", days["manuscript/06-f.md"])
}

// TestCheckBounded: a chapter of a hundred thousand slips reports at
// most MaxDiagnostics per check, and in time that grows with the text.
func TestCheckBounded(t *testing.T) {
	tl, _ := openBook(t, writeBook(t, smallBook), Options{})
	// One paragraph each: speech in one paragraph whose quotations are
	// parted by a tag is one utterance (docs/dialogue.md).
	text := strings.Repeat("\"Go,\" said Jory. Séverine's brown eyes saw the 13th salt debt.\n\n", 20_000)
	ds := Check(tl, manuscript.NewUnit("manuscript/03-test.md", text, 1))
	counts := map[string]int{}
	for _, d := range ds {
		counts[d.Code]++
	}
	for code, n := range counts {
		assert.LessOrEqual(t, n, MaxDiagnostics, code)
	}
	assert.Equal(t, MaxDiagnostics, counts[CodeAfterDeath])
}

// FuzzCheck: any chapter text checks without panicking, and every
// diagnostic and fix points inside it.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{
		"\"Go,\" said Jory. Séverine's dark brown eyes were wet.",
		"---\nday: 0\npov: Nobody\nflashback: maybe\n---\nAll of a sudden, the Salt Debt and the saltdebt.",
		"Jory", "Séverine's", "said", "brown-eyed-", "`code` Jory climbed", "# Jory said\nJory said",
		"Séverine’s eyes were brown… “Go,” said Jory.",
	} {
		f.Add(s)
	}
	tl, _ := openBook(f, writeBook(f, smallBook), Options{})
	f.Fuzz(func(t *testing.T, text string) {
		u := manuscript.NewUnit("manuscript/03-test.md", text, 1)
		n := len(u.Text)
		for _, d := range Check(tl, u) {
			if d.Range.Start < 0 || d.Range.End > n || d.Range.Start > d.Range.End {
				t.Fatalf("%s range %v outside %d bytes", d.Code, d.Range, n)
			}
			if d.Fix != nil && (d.Fix.Range.Start < 0 || d.Fix.Range.End > n) {
				t.Fatalf("fix range %v outside %d bytes", d.Fix.Range, n)
			}
		}
	})
}

// TestCheckLinear: four times the chapter costs about four times the
// memory, whatever it holds; allocations are compared, never time.
func TestCheckLinear(t *testing.T) {
	tl, _ := openBook(t, writeBook(t, smallBook), Options{})
	// The second chapter names the dead, so its speech is attributed.
	for _, para := range []string{
		"Séverine's pale green eyes met Marek's. \"Go,\" said Marek, and the salt-debt was paid on the thirteenth night.\n\n",
		"Séverine's pale green eyes met Jory's. \"Go,\" said Jory, and the salt-debt was paid.\n\n\"No,\" she said.\n\n",
	} {
		cost := func(n int) float64 {
			u := manuscript.NewUnit("manuscript/03-test.md", strings.Repeat(para, n), 1)
			return testing.AllocsPerRun(3, func() { Check(tl, u) })
		}
		small, large := cost(500), cost(2000)
		t.Logf("500 paragraphs: %.0f allocations; 2,000: %.0f", small, large)
		assert.Less(t, large/small, 6.0)
	}
}
