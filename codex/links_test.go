package codex

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestScanLinks(t *testing.T) {
	type link struct {
		target, label string
		// whole and target are the text the link's ranges cover.
		whole, targetText string
	}
	tests := []struct {
		name string
		src  string
		want []link
	}{
		{name: "plain", src: "See [[Mara Vell]].",
			want: []link{{"Mara Vell", "", "[[Mara Vell]]", "Mara Vell"}}},
		{name: "label", src: "[[Ilse Dorn|her sister]]",
			want: []link{{"Ilse Dorn", "her sister", "[[Ilse Dorn|her sister]]", "Ilse Dorn"}}},
		{name: "section", src: "[[Old Harbor#The Docks]]",
			want: []link{{"Old Harbor#The Docks", "", "[[Old Harbor#The Docks]]", "Old Harbor#The Docks"}}},
		{name: "section and label", src: "[[Old Harbor#Docks|the docks]]",
			want: []link{{"Old Harbor#Docks", "the docks", "[[Old Harbor#Docks|the docks]]", "Old Harbor#Docks"}}},
		{name: "padding trimmed", src: "[[  Mara Vell  |  Mara  ]]",
			want: []link{{"Mara Vell", "Mara", "[[  Mara Vell  |  Mara  ]]", "Mara Vell"}}},
		{name: "no-break space padding", src: "[[\u00a0Mara\u00a0]]",
			want: []link{{"Mara", "", "[[\u00a0Mara\u00a0]]", "Mara"}}},
		{name: "several on a line", src: "[[A]] and [[B|b]], then [[C]]",
			want: []link{{"A", "", "[[A]]", "A"}, {"B", "b", "[[B|b]]", "B"}, {"C", "", "[[C]]", "C"}}},
		{name: "extra pipes go to the label", src: "[[A|b|c]]",
			want: []link{{"A", "b|c", "[[A|b|c]]", "A"}}},
		{name: "triple brackets link the inside", src: "[[[Mara]]]",
			want: []link{{"Mara", "", "[[Mara]]", "Mara"}}},
		{name: "non-ASCII", src: "Née [[Séverine Ølby]]",
			want: []link{{"Séverine Ølby", "", "[[Séverine Ølby]]", "Séverine Ølby"}}},
		{name: "escaped", src: `\[[Mara]] and [[Ilse]]`,
			want: []link{{"Ilse", "", "[[Ilse]]", "Ilse"}}},
		{name: "escaped bracket before a run", src: `\[[[Mara]]`,
			want: []link{{"Mara", "", "[[Mara]]", "Mara"}}},
		{name: "multi-line is not a link", src: "[[Mara\nVell]] and [[Ilse\r\nDorn]]", want: nil},
		{name: "empty", src: "[[]] [[ ]] [[|label]]", want: nil},
		{name: "unclosed", src: "[[Mara and [[Ilse]]",
			want: []link{{"Ilse", "", "[[Ilse]]", "Ilse"}}},
		{name: "nested brackets", src: "[[a[b]c]]", want: nil},
		{name: "single brackets", src: "[Mara] [x](y)", want: nil},
		{name: "too long", src: "[[" + strings.Repeat("x", maxLinkLen+1) + "]]", want: nil},
		{name: "longest allowed", src: "[[" + strings.Repeat("x", maxLinkLen-2) + "]]",
			want: []link{{strings.Repeat("x", maxLinkLen-2), "", "[[" + strings.Repeat("x", maxLinkLen-2) + "]]", strings.Repeat("x", maxLinkLen-2)}}},
		{name: "section only", src: "[[#Appearance]]",
			want: []link{{"#Appearance", "", "[[#Appearance]]", "#Appearance"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := []byte(tt.src)
			var got []link
			for _, l := range scanLinks(src, Range{0, len(src)}, nil) {
				got = append(got, link{l.Target, l.Label, sub(tt.src, l.Range), sub(tt.src, l.TargetRange)})
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestScanLinksSkipsCode(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{name: "inline code", src: "`[[A]]` [[B]]", want: []string{"B"}},
		{name: "double backtick code", src: "``x [[A]] ` y`` [[B]]", want: []string{"B"}},
		{name: "fenced code", src: "```\n[[A]]\n```\n[[B]]\n", want: []string{"B"}},
		{name: "link right after a fence", src: "```\ncode\n```\nSee [[B]].\n", want: []string{"B"}},
		{name: "info string", src: "``` [[A]]\n[[A]]\n```\n[[B]]", want: []string{"B"}},
		{name: "empty fenced block with info", src: "```[[A]]\n```\n[[B]]", want: []string{"B"}},
		{name: "tilde fence", src: "~~~\n[[A]]\n~~~\n[[B]]", want: []string{"B"}},
		{name: "unclosed fence runs to the end", src: "[[B]]\n```\n[[A]]\n\n[[A]]", want: []string{"B"}},
		{name: "fence in a blockquote", src: "> ```\n> [[A]]\n> ```\n> [[B]]\n", want: []string{"B"}},
		{name: "fence ended by its list item", src: "- ```\n  [[A]]\n- [[B]]\n", want: []string{"B"}},
		{name: "indented code", src: "    [[A]]\n\n[[B]]", want: []string{"B"}},
		{name: "code span in a heading", src: "# `[[A]]` and [[B]]\n", want: []string{"B"}},
		{name: "html block", src: "<div>\n[[A]]\n</div>\n\n[[B]]\n", want: []string{"B"}},
		{name: "backticks that do not close", src: "`[[B]]", want: []string{"B"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := []byte(tt.src)
			whole := Range{0, len(src)}
			var got []string
			for _, l := range scanLinks(src, whole, outlineOf(src, whole, false).Code) {
				got = append(got, l.Target)
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

// TestScanLinksInBody checks that ranges are offsets into the whole file,
// not into the body scanned.
func TestScanLinksInBody(t *testing.T) {
	src := "---\nsummary: '[[Not]]'\n---\nText [[Mara]]"
	fm := splitFrontMatter([]byte(src))
	links := scanLinks([]byte(src), fm.Body, nil)
	require.Len(t, links, 1)
	assert.Equal(t, "[[Mara]]", sub(src, links[0].Range))
	assert.Equal(t, "Mara", sub(src, links[0].TargetRange))
}

func TestLinkNameAndSection(t *testing.T) {
	tests := []struct {
		target, name, section string
	}{
		{"Mara Vell", "Mara Vell", ""},
		{"Old Harbor#Docks", "Old Harbor", "Docks"},
		{"Old Harbor # The Docks ", "Old Harbor", "The Docks"},
		{"#Appearance", "", "Appearance"},
		{"A#b#c", "A", "b#c"},
	}
	for _, tt := range tests {
		l := Link{Target: tt.target}
		assert.Equal(t, tt.name, l.LinkName(), tt.target)
		assert.Equal(t, tt.section, l.LinkSection(), tt.target)
	}
}

func TestLinkText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"no links", "no links"},
		{"[[Ilse Dorn|Ilse]] and [[Mara]]", "Ilse and Mara"},
		{"[[Old Harbor#Docks]]", "Old Harbor"},
		{"[[ ]] stays", "[[ ]] stays"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, linkText(tt.in), tt.in)
	}
}

// LinksInBody reads a chapter's links: none in its front matter or the
// code ranges it is given, whatever their order, and none for a body
// that is not inside the text.
func TestLinksInBody(t *testing.T) {
	src := "---\npov: '[[Not]]'\n---\n`[[Code]]` [[Mara]] ``[[Code]]`` [[Ilse#Soul]]\n"
	body := splitFrontMatter([]byte(src)).Body
	span := func(s string, from int) Range {
		at := from + strings.Index(src[from:], s)
		return Range{at, at + len(s)}
	}
	first, second := span("`[[Code]]`", 0), span("``[[Code]]``", 0)
	tests := []struct {
		name string
		body Range
		code []Range
		want []string
	}{
		{name: "the body, code in order", body: body, code: []Range{first, second}, want: []string{"Mara", "Ilse#Soul"}},
		{name: "code in any order", body: body, code: []Range{second, first}, want: []string{"Mara", "Ilse#Soul"}},
		{name: "no code given", body: body, want: []string{"Code", "Mara", "Code", "Ilse#Soul"}},
		{name: "a body past the text", body: Range{body.Start, len(src) + 1}, want: nil},
		{name: "a body backwards", body: Range{body.End, body.Start}, want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, l := range LinksInBody(src, tt.body, tt.code) {
				got = append(got, l.Target)
				assert.Equal(t, l.Target, sub(src, l.TargetRange))
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

// LinkProblems holds any file's links to the codex as the codex's own
// are held: a link to no entry, or to a section its entry lacks.
func TestLinkProblems(t *testing.T) {
	ilse, _ := Parse("codex/characters/ilse.md", []byte("---\nname: Ilse Dorn\naliases: [Ilse]\n---\n# Ilse Dorn\n\n## Soul\n\nKind.\n"), TypeCharacter)
	require.NotNil(t, ilse)
	cat := NewCatalog([]*Entry{ilse}, nil)
	src := "[[Ilse]] [[Ilse Dorn#Soul]] [[Nobody]] [[Ilse#Nowhere]] [[Nobody|him]]"
	got := cat.LinkProblems("manuscript/01.md", LinksIn(src))
	var said []string
	for _, p := range got {
		assert.Equal(t, "manuscript/01.md", p.Path)
		assert.Equal(t, CodeBrokenLink, p.Code)
		assert.Equal(t, SeverityWarning, p.Severity)
		said = append(said, sub(src, p.Range)+": "+p.Message)
	}
	assert.Equal(t, []string{
		`Nobody: no codex entry is named "Nobody"`,
		`Ilse#Nowhere: Ilse Dorn has no section "Nowhere"`,
		`Nobody: no codex entry is named "Nobody"`,
	}, said)
	assert.Empty(t, cat.LinkProblems("manuscript/01.md", nil))
}
