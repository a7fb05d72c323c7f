package dialoguebench

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCurly(t *testing.T) {
	for in, want := range map[string]string{
		`"I don't know," said Emma.`:                       `“I don’t know,” said Emma.`,
		`"Give 'em the Bennets' carriage at six o'clock."`: `“Give ’em the Bennets’ carriage at six o’clock.”`,
		`He said, 'Come here.'`:                            `He said, ‘Come here.’`,
		`"She said 'no' to him."`:                          `“She said ‘no’ to him.”`,
		`"'Tis a sad business."`:                           `“’Tis a sad business.”`,
		`"'Twas in '92, when the rock 'n' roll--"`:         `“’Twas in ’92, when the rock ’n’ roll--”`,
		`("Yes")`:                          `(“Yes”)`,
		`--"Yes."--"No."`:                  `--“Yes.”--“No.”`,
		"\"One paragraph.\n\n\"Another.\"": "“One paragraph.\n\n“Another.”",
		`'Em, 'em! the lads' caps.`:        `’Em, ’em! the lads’ caps.`,
		`'Every one,' she said.`:           `‘Every one,’ she said.`,
		// A text that lost its apostrophes: a mark with spaces on
		// both sides closes an open one and opens otherwise.
		`"title of  A Study in Scarlet. "` + "\n\n" + `" I have,  he said.`: `“title of  A Study in Scarlet. ”` + "\n\n" + `“ I have,  he said.`,
	} {
		got, _ := Curly(in)
		assert.Equal(t, want, got, in)
	}
}

func TestCurlyShift(t *testing.T) {
	in := `"I don't," said Emma, "agree."`
	out, sh := Curly(in)
	for _, w := range []string{"I don't,", "said Emma,", "agree."} {
		i := strings.Index(in, w)
		got := out[sh.Map(i):sh.Map(i+len(w))]
		assert.Equal(t, w, strings.ReplaceAll(got, "’", "'"), w)
	}
	assert.Equal(t, len(out), sh.Map(len(in)))
	assert.Equal(t, 0, sh.Map(0))
}

// Every gold utterance of the curly copy holds the words of the
// straight one, only its marks made curly.
func TestCurlyGoldHoldsTheSameWords(t *testing.T) {
	books, err := LoadLitBank("testdata/litbank-quotes.json.gz")
	require.NoError(t, err)
	plain := strings.NewReplacer("“", `"`, "”", `"`, "‘", "'", "’", "'")
	n := 0
	for _, b := range books {
		eds := NewEditions(b, nil, true)
		straight, curly := eds[0], eds[1]
		require.Len(t, curly.Gold, len(straight.Gold))
		for i, g := range straight.Gold {
			for j, s := range g.Spans {
				c := curly.Gold[i].Spans[j]
				assert.Equal(t, plain.Replace(straight.Book.Text[s.Start:s.End]), plain.Replace(curly.Book.Text[c.Start:c.End]), b.Title)
				n++
			}
		}
	}
	assert.Greater(t, n, 1000)
}
