package manuscript

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
)

// longBody is n characters of prose in paragraphs of about 500
// characters each, as a long chapter's body would be.
func longBody(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "Paragraph %d. ", i)
		for b.Len()%500 < 480 && b.Len() < n {
			b.WriteString("The tide came in. ")
		}
		b.WriteString("\n\n")
	}
	return b.String()[:n]
}

var truncationMarker = regexp.MustCompile(`\n\n\[quire: truncated; showing the first (\d+) of (\d+) characters of ([^\]]+)\]$`)

// shownPart splits a truncated text into the prose shown and the numbers
// its marker states.
func shownPart(t *testing.T, text string) (head string, shown, total int, path string) {
	t.Helper()
	m := truncationMarker.FindStringSubmatchIndex(text)
	require.NotNil(t, m, "no truncation marker at the end of %q", tail(text))
	shown, err := strconv.Atoi(text[m[2]:m[3]])
	require.NoError(t, err)
	total, err = strconv.Atoi(text[m[4]:m[5]])
	require.NoError(t, err)
	return text[:m[0]], shown, total, text[m[6]:m[7]]
}

func tail(s string) string {
	if len(s) > 200 {
		return "…" + s[len(s)-200:]
	}
	return s
}

func TestLimitsDefaults(t *testing.T) {
	assert.Equal(t, Limits{Unit: 24000, Total: 60000}, Limits{}.withDefaults())
	assert.Equal(t, Limits{Unit: 24000, Total: 60000}, Limits{Unit: -1, Total: -5}.withDefaults())
	assert.Equal(t, Limits{Unit: 10, Total: 20}, Limits{Unit: 10, Total: 20}.withDefaults())
}

func TestContextUnit(t *testing.T) {
	m := openFiles(t, projectFiles{
		"manuscript/01-dawn.md":    "---\ntitle: Dawn\npov: Mara\n---\n# Dawn\n\nThe harbor woke.\n",
		"manuscript/02-storm.md":   chapterText("Storm", "The sea rose."),
		"codex/characters/mara.md": "---\nname: Mara Vell\n---\n# Mara Vell\n\nSmuggler.\n",
	})
	s := m.Snapshot()
	c, err := s.Context([]string{"1"}, Place{}, Limits{})
	require.NoError(t, err)
	require.Len(t, c.Units, 1)
	body := "# Dawn\n\nThe harbor woke.\n"
	assert.Equal(t, ContextUnit{
		Ref: "1", Kind: KindChapter, Path: "manuscript/01-dawn.md", Title: "Dawn",
		Number: 1, Position: 1, Words: 4, Text: body, Chars: len(body),
	}, c.Units[0])
	assert.Equal(t, len(body), c.Chars)
	assert.False(t, c.Truncated)
	assert.Empty(t, c.Failed)

	// A Markdown file that is no chapter is a document.
	c, err = s.Context([]string{"codex/characters/mara.md"}, Place{}, Limits{})
	require.NoError(t, err)
	assert.Equal(t, KindDocument, c.Units[0].Kind)
	assert.Equal(t, "Mara Vell", c.Units[0].Title)
	assert.Zero(t, c.Units[0].Position)
	assert.Equal(t, "# Mara Vell\n\nSmuggler.\n", c.Units[0].Text)

	// The active document, chapter or not.
	c, err = s.Context([]string{"current"}, Place{Current: "manuscript/02-storm.md"}, Limits{})
	require.NoError(t, err)
	assert.Equal(t, KindChapter, c.Units[0].Kind)
	assert.Equal(t, "current", c.Units[0].Ref)
	assert.Equal(t, 2, c.Units[0].Position)
}

func TestContextTruncatesLongChapter(t *testing.T) {
	body := longBody(50000)
	require.Equal(t, 50000, utf8.RuneCountInString(body))
	m := openFiles(t, projectFiles{"manuscript/01-long.md": "---\ntitle: Long\n---\n" + body})
	s := m.Snapshot()

	c, err := s.Context([]string{"1"}, Place{}, Limits{})
	require.NoError(t, err)
	u := c.Units[0]
	assert.True(t, u.Truncated)
	assert.True(t, c.Truncated)
	assert.Equal(t, 50000, u.Chars, "the true length")

	head, shown, total, path := shownPart(t, u.Text)
	assert.Equal(t, 50000, total)
	assert.Equal(t, "manuscript/01-long.md", path)
	assert.Equal(t, utf8.RuneCountInString(head), shown)
	assert.LessOrEqual(t, shown, DefaultUnitChars)
	assert.GreaterOrEqual(t, shown, DefaultUnitChars*4/5, "the cut stays near the limit")
	assert.Equal(t, body[:len(head)], head, "the shown text is the start of the body")
	assert.True(t, strings.HasPrefix(body[len(head):], "\n\n"), "the cut falls at a paragraph break")
	assert.Equal(t, shown, c.Chars, "the call counts what it shows, not the marker")

	// A smaller unit limit.
	c, err = s.Context([]string{"1"}, Place{}, Limits{Unit: 1000})
	require.NoError(t, err)
	_, shown, total, _ = shownPart(t, c.Units[0].Text)
	assert.LessOrEqual(t, shown, 1000)
	assert.Greater(t, shown, 800)
	assert.Equal(t, 50000, total)
}

func TestContextExactLimitIsNotTruncated(t *testing.T) {
	body := longBody(DefaultUnitChars)
	m := openFiles(t, projectFiles{"manuscript/01-exact.md": body})
	c, err := m.Snapshot().Context([]string{"1"}, Place{}, Limits{})
	require.NoError(t, err)
	assert.False(t, c.Units[0].Truncated)
	assert.Equal(t, body, c.Units[0].Text)
	assert.Equal(t, DefaultUnitChars, c.Chars)

	c, err = m.Snapshot().Context([]string{"1"}, Place{}, Limits{Unit: DefaultUnitChars - 1})
	require.NoError(t, err)
	assert.True(t, c.Units[0].Truncated)
}

func TestContextTotalLimit(t *testing.T) {
	files := projectFiles{}
	bodies := map[string]string{}
	for _, n := range []string{"1", "2", "3", "4"} {
		body := longBody(10000)
		bodies[n] = body
		files["manuscript/0"+n+"-part.md"] = body
	}
	s := openFiles(t, files).Snapshot()

	c, err := s.Context([]string{"1", "2", "3"}, Place{}, Limits{Total: 25000})
	require.NoError(t, err)
	require.Len(t, c.Units, 3)
	assert.True(t, c.Truncated)
	for _, u := range c.Units[:2] {
		assert.False(t, u.Truncated, u.Ref)
		assert.Equal(t, bodies[u.Ref], u.Text)
	}
	head, shown, total, _ := shownPart(t, c.Units[2].Text)
	assert.True(t, c.Units[2].Truncated)
	assert.LessOrEqual(t, shown, 5000)
	assert.Equal(t, 10000, total)
	assert.Equal(t, bodies["3"][:len(head)], head)

	assert.Equal(t, 20000+shown, c.Chars)
	assert.LessOrEqual(t, c.Chars, 25000)

	// With the budget used up, the rest are listed with a note instead of
	// text.
	c, err = s.Context([]string{"1", "2", "3", "4"}, Place{}, Limits{Total: 20000})
	require.NoError(t, err)
	require.Len(t, c.Units, 4)
	assert.Equal(t, 20000, c.Chars)
	for _, last := range c.Units[2:] {
		assert.True(t, last.Truncated)
		assert.Equal(t, 10000, last.Chars)
		assert.Contains(t, last.Text, last.Path+" left out")
		assert.Contains(t, last.Text, "20000-character limit")
		assert.NotContains(t, last.Text, "The tide")
	}

	// The defaults bound both each unit and the whole call.
	long := projectFiles{}
	for i := 1; i <= 4; i++ {
		long[fmt.Sprintf("manuscript/%02d-long.md", i)] = longBody(50000)
	}
	s = openFiles(t, long).Snapshot()
	c, err = s.Context([]string{"1", "2", "3", "4"}, Place{}, Limits{})
	require.NoError(t, err)
	sum := 0
	for _, u := range c.Units {
		assert.True(t, u.Truncated)
		assert.Equal(t, 50000, u.Chars)
		if strings.Contains(u.Text, "left out") {
			continue
		}
		_, shown, _, _ := shownPart(t, u.Text)
		assert.LessOrEqual(t, shown, DefaultUnitChars)
		sum += shown
	}
	assert.Equal(t, sum, c.Chars)
	assert.LessOrEqual(t, c.Chars, DefaultTotalChars)
}

func TestContextMultiByteNeverSplit(t *testing.T) {
	tests := []struct {
		name  string
		body  string
		limit int
	}{
		{"emoji without breaks", strings.Repeat("😀", 30000), DefaultUnitChars},
		{"CJK without breaks", strings.Repeat("日本語の文章", 5000), DefaultUnitChars},
		{"CJK lines", strings.Repeat("海が荒れた。\n", 6000), DefaultUnitChars},
		{"mixed, small limit", "héllo wörld 🎉🎉 日本 ça va", 7},
		{"emoji with spaces", strings.Repeat("🌊 🐚 ", 10000), 999},
		{"combining marks", strings.Repeat("e\u0301", 2000), 1001},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := openFiles(t, projectFiles{"manuscript/01-x.md": tt.body}).Snapshot()
			c, err := s.Context([]string{"1"}, Place{}, Limits{Unit: tt.limit})
			require.NoError(t, err)
			u := c.Units[0]
			require.True(t, u.Truncated)
			assert.True(t, utf8.ValidString(u.Text))
			head, shown, total, _ := shownPart(t, u.Text)
			assert.Equal(t, utf8.RuneCountInString(tt.body), total)
			assert.Equal(t, utf8.RuneCountInString(head), shown)
			assert.LessOrEqual(t, shown, tt.limit)
			assert.True(t, strings.HasPrefix(tt.body, head))
			assert.True(t, utf8.RuneStart(tt.body[len(head)]), "the cut falls between characters")
		})
	}

	// With no break to prefer, the cut is exactly at the limit.
	s := openFiles(t, projectFiles{"manuscript/01-x.md": strings.Repeat("😀", 30000)}).Snapshot()
	c, err := s.Context([]string{"1"}, Place{}, Limits{})
	require.NoError(t, err)
	head, shown, _, _ := shownPart(t, c.Units[0].Text)
	assert.Equal(t, DefaultUnitChars, shown)
	assert.Equal(t, strings.Repeat("😀", DefaultUnitChars), head)
}

func TestContextManyRefs(t *testing.T) {
	files := projectFiles{}
	for i := 1; i <= 10; i++ {
		files[fmt.Sprintf("manuscript/%02d-ch.md", i)] = chapterText(fmt.Sprintf("Chapter %d", i), "Text.")
	}
	s := openFiles(t, files).Snapshot()

	refs := []string{"1", "2", "3", "4", "5", "6", "7", "8"}
	c, err := s.Context(refs, Place{}, Limits{})
	require.NoError(t, err)
	assert.Len(t, c.Units, MaxRefs)

	_, err = s.Context(append(refs, "9"), Place{}, Limits{})
	var re *RefError
	require.ErrorAs(t, err, &re)
	assert.Contains(t, re.Reason, "at most 8")

	_, err = s.Context(nil, Place{}, Limits{})
	require.ErrorAs(t, err, &re)
	assert.Contains(t, re.Reason, "no reference")
}

func TestContextDedupes(t *testing.T) {
	s := openFiles(t, projectFiles{
		"manuscript/01-dawn.md":  chapterText("Dawn", "Dawn."),
		"manuscript/02-storm.md": chapterText("Storm", "Storm."),
	}).Snapshot()
	turn := Place{Current: "manuscript/01-dawn.md"}
	c, err := s.Context([]string{"1", "current", "manuscript/01-dawn.md", "dawn", "chapter 1", "storm", "2"}, turn, Limits{})
	require.NoError(t, err)
	require.Len(t, c.Units, 2)
	assert.Equal(t, "1", c.Units[0].Ref, "the first reference names the unit")
	assert.Equal(t, "storm", c.Units[1].Ref)
	assert.Equal(t, c.Units[0].Chars+c.Units[1].Chars, c.Chars, "a repeated unit costs nothing")
}

func TestContextFailedRefs(t *testing.T) {
	s := openFiles(t, projectFiles{
		"manuscript/01-dawn.md":  chapterText("Dawn", "Dawn."),
		"manuscript/02-storm.md": chapterText("The Storm", "Storm."),
	}).Snapshot()

	c, err := s.Context([]string{"1", "the stom", "../secret.md", "selection"}, Place{}, Limits{})
	require.NoError(t, err, "one good reference is enough")
	require.Len(t, c.Units, 1)
	require.Len(t, c.Failed, 3)
	assert.Equal(t, "the stom", c.Failed[0].Ref)
	assert.Contains(t, c.Failed[0].Error, "no chapter has that title")
	require.NotEmpty(t, c.Failed[0].Candidates)
	assert.Equal(t, "manuscript/02-storm.md", c.Failed[0].Candidates[0].Path)
	assert.Equal(t, "../secret.md", c.Failed[1].Ref)
	assert.Contains(t, c.Failed[1].Error, "path refused")
	assert.Contains(t, c.Failed[2].Error, "no text selected")

	// When nothing resolves, the call fails with every reason.
	_, err = s.Context([]string{"the stom", "../secret.md"}, Place{}, Limits{})
	require.Error(t, err)
	var re *RefError
	assert.ErrorAs(t, err, &re)
	assert.ErrorIs(t, err, ErrPathRefused)
	assert.Contains(t, err.Error(), "the stom")
	assert.Contains(t, err.Error(), "../secret.md")
}

func TestContextSelection(t *testing.T) {
	text := "# Dawn\n\nThe harbor woke.\n\n" + secretSentence + "\n"
	m := openFiles(t, projectFiles{"manuscript/01-dawn.md": text})
	s := m.Snapshot()
	u, _ := s.Unit("manuscript/01-dawn.md")
	start := strings.Index(text, secretSentence)
	sel, err := Capture(u, codex.Range{Start: start, End: start + len(secretSentence)})
	require.NoError(t, err)
	turn := Place{Current: u.Path, Selection: sel}

	c, err := s.Context([]string{"selection", "current", " Selection "}, turn, Limits{})
	require.NoError(t, err)
	require.Len(t, c.Units, 2, "the selection and the chapter it lies in are two units")
	got := c.Units[0]
	assert.Equal(t, ContextUnit{
		Ref: "selection", Kind: KindSelection, Path: u.Path, Title: "Dawn",
		Words: 10, Hash: codex.HashText(secretSentence), Text: secretSentence, Chars: len(secretSentence),
	}, got)
	assert.Equal(t, KindChapter, c.Units[1].Kind)

	// A long selection is bounded like any unit.
	c, err = s.Context([]string{"selection"}, turn, Limits{Unit: 20})
	require.NoError(t, err)
	assert.True(t, c.Units[0].Truncated)
	_, shown, total, _ := shownPart(t, c.Units[0].Text)
	assert.LessOrEqual(t, shown, 20)
	assert.Equal(t, len(secretSentence), total)

	// No selection this turn.
	_, err = s.Context([]string{"selection"}, Place{Current: u.Path}, Limits{})
	var re *RefError
	require.ErrorAs(t, err, &re)
	assert.True(t, errors.As(err, &re))
}

func TestContextLeavesOutAUnitTheBudgetCanBarelyStart(t *testing.T) {
	m := openFiles(t, projectFiles{
		"manuscript/01-a.md": longBody(2900),
		"manuscript/02-b.md": longBody(2000),
		"manuscript/03-c.md": longBody(50),
	})
	c, err := m.Snapshot().Context([]string{"1", "2", "3"}, Place{}, Limits{Unit: 3000, Total: 3200})
	require.NoError(t, err)
	require.Len(t, c.Units, 3)
	assert.False(t, c.Units[0].Truncated)
	assert.True(t, c.Units[1].Truncated, "300 characters left: too few to start a 2,000-character unit")
	assert.Contains(t, c.Units[1].Text, "left out")
	assert.NotContains(t, c.Units[1].Text, "Paragraph")
	assert.False(t, c.Units[2].Truncated, "a unit that fits what is left still comes whole")
	assert.Equal(t, 2950, c.Chars)
}
