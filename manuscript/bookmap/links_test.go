package bookmap

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestFillEditorURI: the editor's template gets the path as the system
// writes it, escaped, with no slash doubled after vscode://file/ on any
// system (vscode://file//Z:/… and vscode://file//home/… name a network
// share, not the chapter).
func TestFillEditorURI(t *testing.T) {
	tests := []struct {
		name, template, abs, want string
	}{
		{"vscode, unix", "vscode://file/{path}:{line}:{column}", "/home/zoë/My Novel/manuscript/01.md",
			"vscode://file/home/zo%C3%AB/My%20Novel/manuscript/01.md:3:7"},
		{"vscode, windows", "vscode://file/{path}:{line}:{column}", "C:/Users/Zoë/My Novel/manuscript/01.md",
			"vscode://file/C:/Users/Zo%C3%AB/My%20Novel/manuscript/01.md:3:7"},
		{"wine drive", "vscode://file/{path}:{line}:{column}", "Z:/tmp/book/manuscript/01.md",
			"vscode://file/Z:/tmp/book/manuscript/01.md:3:7"},
		{"query, unix", "idea://open?file={path}&line={line}", "/home/zoë/book/01.md",
			"idea://open?file=/home/zo%C3%AB/book/01.md&line=3"},
		{"query, windows", "idea://open?file={path}&line={line}", "C:/Users/Zoë/book/01.md",
			"idea://open?file=C:/Users/Zo%C3%AB/book/01.md&line=3"},
		{"path twice", "x://{path}#/{path}", "C:/b/01.md", "x://C:/b/01.md#/C:/b/01.md"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, fillEditorURI(tt.template, tt.abs, 3, 7))
		})
	}
}
