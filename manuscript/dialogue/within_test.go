package dialogue

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/manuscript/dialogue/dialoguetest"
)

// A chapter attributed with the part of the cast it names is attributed
// as with the whole cast: Pride and Prejudice chapter by chapter, its
// cast among two thousand characters it never names, and a chapter whose
// speaker lines name characters its prose does not.
func TestWithinDecidesAsTheWholeCast(t *testing.T) {
	text, entries := dialoguetest.PrideAndPrejudice(t), dialoguetest.Cast(t)
	for i := range 2000 {
		title := []string{"Mr.", "Mrs.", "Captain", "Lady", ""}[i%5]
		e, _ := codex.Parse(fmt.Sprintf("codex/characters/extra-%04d.md", i),
			[]byte(fmt.Sprintf("---\nname: %s Extra%04d\n---\n", title, i)), codex.TypeCharacter)
		entries = append(entries, e)
	}
	// A speaker line may name a character who is not in the prose, by
	// an alias in another case.
	entries = append(entries, mustEntry(t, "name: Anne de Bourgh\naliases: [Miss de Bourgh]\ngender: female"))
	whole := NewCast(entries)
	m := manuscript.NewMatcherOf(entries)

	chapters := strings.Split(text, "Chapter ")
	chapters = append(chapters,
		"“Who spoke?” <!-- speaker: miss DE BOURGH -->\n\n“Not I,” said Elizabeth.\n\n“Nor I.”\n<!-- speaker: Nobody At All -->\n")
	require.Greater(t, len(chapters), 60)
	utts := 0
	for i, chText := range chapters {
		ch := Chapter{Text: chText, Body: codex.Range{End: len(chText)}, Mentions: m.ScanAll(chText)}
		if i%2 == 0 {
			ch.POV = entries[0].ID // Elizabeth's "I"
		}
		part := whole.Within(ch)
		assert.Less(t, len(part.Characters()), 20, "chapter %d names a few characters, not the codex", i)
		want := Analyze(ch, whole, Options{})
		assert.Equal(t, want, Analyze(ch, part, Options{}), "chapter %d", i)
		utts += len(want)
	}
	assert.Greater(t, utts, 1000)

	last := Analyze(Chapter{Text: chapters[len(chapters)-1], Body: codex.Range{End: len(chapters[len(chapters)-1])}}, whole, Options{})
	require.NotEmpty(t, last)
	assert.Equal(t, "codex/characters/anne.md", last[0].Speaker)
	assert.Equal(t, RuleWriter, last[0].Rule)

	var none *Cast
	assert.Nil(t, none.Within(Chapter{}))
}

func mustEntry(t *testing.T, frontMatter string) *codex.Entry {
	t.Helper()
	e, problems := codex.Parse("codex/characters/anne.md", []byte("---\n"+frontMatter+"\n---\n"), codex.TypeCharacter)
	require.NotNil(t, e, "%v", problems)
	return e
}
