package manuscript

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/quire-ink/quire/codex"
)

// longPara is a paragraph a word processor sets on one line.
var longPara = strings.Repeat("The harbor bell rang out over the grey water, and nobody came. ", 3)

func TestLinePerParagraph(t *testing.T) {
	wrapped := "The harbor bell rang out over the grey water,\nand nobody came down to the quay that night.\n"
	tests := []struct {
		name string
		text string
		want bool
	}{
		{"paragraphs a line each", longPara + "\n" + longPara + "\n" + longPara + "\n", true},
		{"one long line running on is not enough", longPara + "\n" + longPara + "\n\n" + longPara + "\n", false},
		{"blank lines between long lines", longPara + "\n\n" + longPara + "\n\n" + longPara + "\n", false},
		{"hard-wrapped prose", strings.Repeat(wrapped+"\n", 20), false},
		{"a long line before a heading", longPara + "\n# Two\n" + longPara + "\n## Three\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, LinePerParagraph(tt.text, codex.Range{End: len(tt.text)}))
		})
	}
}

// The breaks a blank line would make two paragraphs of: between lines
// of prose only, never in code or a comment, nor around a heading, a
// list, a quotation, a table, HTML or a scene break.
func TestRunOnBreaks(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []string // the line before each break
	}{
		{"prose lines", "One.\nTwo.\nThree.\n", []string{"One.", "Two."}},
		{"a blank line already", "One.\n\nTwo.\n", nil},
		{"structure keeps its breaks", "# Head\nOne.\n- item\n- item\n> quote\n| a | b |\n<div>\n* * *\nTwo.\n1. first\n", nil},
		{"emphasis and dialogue are prose", "*Rain.*\n— Yes.\n-- No.\n", []string{"*Rain.*", "— Yes."}},
		{"a comment and code keep theirs", "One.\n<!-- a note\nof two lines -->\nTwo.\n```\ncode\nmore\n```\nThree.\nFour.\n", []string{"Three."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var code []codex.Range
			if i := strings.Index(tt.text, "```"); i >= 0 {
				j := strings.LastIndex(tt.text, "```") + 3
				code = []codex.Range{{Start: i, End: j}}
			}
			var got []string
			for _, b := range RunOnBreaks(tt.text, codex.Range{End: len(tt.text)}, code) {
				got = append(got, tt.text[strings.LastIndexByte(tt.text[:b], '\n')+1:b])
			}
			assert.Equal(t, tt.want, got)
		})
	}
}
