package codex

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

// The fast reading of front matter (frontmatter_fast.go) must build the
// nodes the YAML decoder builds, and so the same header and problems.

// nodeShape describes what readMapping reads of a node and its children.
func nodeShape(n *yaml.Node) string {
	var b strings.Builder
	var walk func(n *yaml.Node, depth int)
	walk = func(n *yaml.Node, depth int) {
		fmt.Fprintf(&b, "%s%d %s style=%d %q %d:%d\n", strings.Repeat("  ", depth), n.Kind, n.Tag, n.Style, n.Value, n.Line, n.Column)
		for _, c := range n.Content {
			walk(c, depth+1)
		}
	}
	walk(n, 0)
	return b.String()
}

// checkFastFrontMatter compares both readings of src's front matter and
// reports whether the fast one took it.
func checkFastFrontMatter(t testing.TB, src []byte) bool {
	t.Helper()
	fm := splitFrontMatter(src)
	if !fm.Present {
		return false
	}
	text := validPerByte(string(src[fm.YAML.Start:fm.YAML.End]))
	m, fast := fastMapping(text)
	if fast {
		var doc yaml.Node
		require.NoError(t, yaml.Unmarshal([]byte(text), &doc), "the fast path took front matter the decoder refuses:\n%s", text)
		require.Equal(t, nodeShape(doc.Content[0]), nodeShape(m), "front matter:\n%s", text)
	}
	h1, p1 := decodeHeaderWith("codex/x.md", src, string(src), fm.YAML, true)
	h2, p2 := decodeHeaderWith("codex/x.md", src, string(src), fm.YAML, false)
	require.Equal(t, h2, h1, "front matter:\n%s", text)
	require.Equal(t, p2, p1, "front matter:\n%s", text)
	return fast
}

func TestFastFrontMatter(t *testing.T) {
	tests := []struct {
		yaml string
		fast bool
	}{
		{"name: Mara Vell\ntype: character", true},
		{"name: \"Cith Spire\"\nsummary: \"After the tide, salt.\"\ntags: [slow, location]\nstatus: tentative", true},
		{"aliases: [\"Wea\", 'It''s', Ilse's Ghost, the (old) Harbor-Master]", true},
		{"aliases: []\ntags: [ a ,b ]  # spaced", true},
		{"aliases:\n  - Ilse\n  - \"the Quiet One\"\n  # between\n  - 'x'\ntags: spy, exile", true},
		{"aliases:\n- Ilse\n-   Dorn\nname: x", true},
		{"# a note\nname: Séverine Aubrac   # trailing\n\nrole: Ølby's ✓ keeper 茶", true},
		{"k: é ü [x] {y} a#b c, d", true},
		{"name:\ntype: item\nmentions: false\nflag: TRUE\nnothing: null\nempty:   # none", true},
		{"name: [Ølby, naïve, ümlaut, x]", true},
		{"a: x\na: y\nA: z", true},
		{"locked: [role]\nrole: Protagonist", true},
		// Left to the decoder:
		{"age: 34\nday: 0\nlist: [1, 22, x]\nmore:\n  - 7", true},
		{"age: 034", false},
		{"age: 1234567890", false},
		{"age: 3.5", false},
		{"age: 3 years", false},
		{"born: 1999-04-01", false},
		{"name: Mara\n  continued", false},
		{"summary: she said: \"hi", false},
		{"name: \"esc\\\"aped\"", false},
		{"nested: {a: [1, {b: c}]}", false},
		{"a: &a x\nb: *a", false},
		{"aliases: [a, b, ]", false},
		{"aliases: [a,\n  b]", false},
		{"aliases:\n  - a\n    - b", false},
		{"aliases:\n  -\n  - b", false},
		{"aliases:\n  - a: b", false},
		{"- a\n- b", false},
		{"name:x", false},
		{"name: Tabs\n\tbad: indent", false},
		{"key:#c", false},
		{"name: a\u2028b", false},
		{"name: a\u0085b", false},
		{"name: \"a\"b", false},
		{"# only a comment", false},
		{"name: x\n  # indented comment\n  more: y", false},
		{"sub:\n  key: value", false},
		{"name: 'open", false},
	}
	for _, tt := range tests {
		t.Run(tt.yaml, func(t *testing.T) {
			src := []byte("---\n" + tt.yaml + "\n---\n# Body\n")
			assert.Equal(t, tt.fast, checkFastFrontMatter(t, src))
		})
	}
}

// TestFastFrontMatterOfTheSampleAndTestdata compares both readings over
// the sample book's codex and chapters and the parser's test files.
func TestFastFrontMatterOfTheSampleAndTestdata(t *testing.T) {
	files, fast := 0, 0
	eachMarkdownFile(t, []string{"../cmd/quire/sample", "testdata/parse"}, func(_ string, src []byte) {
		files++
		if checkFastFrontMatter(t, src) {
			fast++
		}
	})
	assert.Greater(t, files, 30)
	assert.Greater(t, fast, files/2, "most of the sample's front matter is read fast")
}

// FuzzFastFrontMatter compares both readings on any front matter. Run it
// with: go test ./codex -run '^$' -fuzz '^FuzzFastFrontMatter$' -fuzztime 60s
func FuzzFastFrontMatter(f *testing.F) {
	for _, src := range fuzzEntries {
		f.Add(strings.TrimPrefix(strings.SplitN(src, "\n---", 2)[0], "---\n"))
	}
	f.Add("aliases:\n  - Ilse\n  - \"the Quiet One\"\ntags: [a, 'b''c', \"d\"] # x\nname: Ølby")
	f.Add("name:\n- a\n-   b\nx: TRUE\ny: ~")
	f.Fuzz(func(t *testing.T, text string) {
		checkFastFrontMatter(t, []byte("---\n"+text+"\n---\nbody\n"))
	})
}

// TestFastFrontMatterLongLines reads lines of many thousand values, wide
// characters among them: the columns are counted on, not from the line's
// start, so this stays linear.
func TestFastFrontMatterLongLines(t *testing.T) {
	items := strings.Repeat("Ølby, 'naïve', \"茶\", ", 20000) + "end"
	src := []byte("---\naliases: [" + items + "]\nsummary: " + strings.Repeat("é ", 100000) + "x\n---\n")
	assert.True(t, checkFastFrontMatter(t, src))
}
