package codex

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSplitFrontMatter(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		present bool
		closed  bool
		// yaml and body are the text of the block and of what follows.
		yaml, body string
	}{
		{name: "none", src: "# Mara\n", body: "# Mara\n"},
		{name: "empty file", src: ""},
		{name: "closed", src: "---\nname: Mara\n---\n# Mara\n", present: true, closed: true,
			yaml: "name: Mara\n", body: "# Mara\n"},
		{name: "dots close", src: "---\nname: Mara\n...\nbody", present: true, closed: true,
			yaml: "name: Mara\n", body: "body"},
		{name: "fences with trailing blanks", src: "--- \t\nname: Mara\n---  \nbody", present: true, closed: true,
			yaml: "name: Mara\n", body: "body"},
		{name: "empty block", src: "---\n---\nbody", present: true, closed: true, body: "body"},
		{name: "closing fence at the end of file", src: "---\nname: Mara\n---", present: true, closed: true,
			yaml: "name: Mara\n"},
		{name: "CRLF", src: "---\r\nname: Mara\r\n---\r\nbody\r\n", present: true, closed: true,
			yaml: "name: Mara\r\n", body: "body\r\n"},
		{name: "BOM", src: "\xEF\xBB\xBF---\nname: Mara\n---\nbody", present: true, closed: true,
			yaml: "name: Mara\n", body: "body"},
		{name: "BOM without front matter", src: "\xEF\xBB\xBF# Mara", body: "# Mara"},
		{name: "four dashes is a rule, not a fence", src: "----\nname: Mara\n----\n", body: "----\nname: Mara\n----\n"},
		{name: "indented fence is not a fence", src: " ---\nname: Mara\n---\n", body: " ---\nname: Mara\n---\n"},
		{name: "fence later in the file", src: "text\n---\nname: Mara\n---\n", body: "text\n---\nname: Mara\n---\n"},
		{name: "indented closing fence does not close", src: "---\nname: Mara\n  ---\n\nbody", present: true,
			yaml: "name: Mara\n  ---\n", body: "\nbody"},
		{name: "unclosed up to a blank line", src: "---\nname: Mara\ntype: character\n\nBody.\n---x\n", present: true,
			yaml: "name: Mara\ntype: character\n", body: "\nBody.\n---x\n"},
		{name: "unclosed up to a heading", src: "---\nname: Mara\n# Mara\n", present: true,
			yaml: "name: Mara\n", body: "# Mara\n"},
		{name: "unclosed to the end", src: "---\nname: Mara", present: true, yaml: "name: Mara"},
		{name: "only the fence", src: "---", present: true},
		{name: "unclosed, blank first line", src: "---\n\nname: Mara\n", present: true, body: "\nname: Mara\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := []byte(tt.src)
			fm := splitFrontMatter(src)
			assert.Equal(t, tt.present, fm.Present, "present")
			assert.Equal(t, tt.closed, fm.Closed, "closed")
			assert.Equal(t, tt.yaml, sub(tt.src, fm.YAML), "yaml")
			assert.Equal(t, tt.body, sub(tt.src, fm.Body), "body")
			assert.Equal(t, len(src), fm.Body.End)
			if fm.Present {
				assert.Equal(t, "---", sub(tt.src, fm.Open)[:3])
			}
		})
	}
}

func TestLineAt(t *testing.T) {
	tests := []struct {
		src       string
		pos       int
		end, next int
	}{
		{"abc\ndef", 0, 3, 4},
		{"abc\r\ndef", 0, 3, 5},
		{"abc\ndef", 4, 7, 7},
		{"\n", 0, 0, 1},
		{"\r\n", 0, 0, 2},
		{"", 0, 0, 0},
		{"a\rb\n", 0, 3, 4}, // a lone CR is not a line break
	}
	for _, tt := range tests {
		end, next := lineAt([]byte(tt.src), tt.pos)
		assert.Equal(t, [2]int{tt.end, tt.next}, [2]int{end, next}, "%q at %d", tt.src, tt.pos)
	}
}
