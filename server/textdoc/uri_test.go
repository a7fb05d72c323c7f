package textdoc

import (
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"
)

// The same Windows file as VS Code names it (drive lower case, colon
// escaped) and as Neovim and Helix do.
const (
	vscodeChapter = "file:///c%3A/Users/Zo%C3%AB/My%20Novel/manuscript/01-harbor.md"
	nvimChapter   = "file:///C:/Users/Zo%C3%AB/My%20Novel/manuscript/01-harbor.md"
)

// TestURIPathBothForms: both forms give one path, with the drive as
// Windows writes it, spaces and accents decoded.
func TestURIPathBothForms(t *testing.T) {
	want := filepath.FromSlash("C:/Users/Zoë/My Novel/manuscript/01-harbor.md")
	for _, u := range []protocol.DocumentURI{vscodeChapter, nvimChapter, "file:///c:/Users/Zo%C3%AB/My%20Novel/manuscript/01-harbor.md"} {
		t.Run(string(u), func(t *testing.T) {
			got, ok := URIPath(u)
			require.True(t, ok)
			assert.Equal(t, want, got)
			assert.Equal(t, protocol.DocumentURI(nvimChapter), PathURI(got), "pathURI writes the drive as Windows does")
		})
	}
}

// TestDocKey: one document whatever the spelling of its URI; on Windows,
// whose file systems do not tell case apart, Manuscript\ is manuscript\.
func TestDocKey(t *testing.T) {
	tests := []struct {
		name string
		a, b protocol.DocumentURI
		same bool
	}{
		{"both drive forms", vscodeChapter, nvimChapter, true},
		{"escaped and plain accents", "file:///C:/Users/Zo%C3%AB/a.md", "file:///C:/Users/Zoë/a.md", true},
		{"folder case", "file:///C:/Book/Manuscript/a.md", "file:///C:/Book/manuscript/a.md", runtime.GOOS == "windows"},
		{"other files", "file:///C:/Book/manuscript/a.md", "file:///C:/Book/manuscript/b.md", false},
		{"other schemes are their own", "untitled:Untitled-1", "untitled:Untitled-1", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.same, DocKey(tt.a) == DocKey(tt.b), "%s / %s", DocKey(tt.a), DocKey(tt.b))
		})
	}
}

// TestURINamesAnswerInTheClientsForm: a file the client named comes back
// as the very URI it sent; any other file in its drive-letter form.
func TestURINamesAnswerInTheClientsForm(t *testing.T) {
	entry := filepath.FromSlash("C:/Users/Zoë/My Novel/codex/characters/mara-vell.md")
	chapter := filepath.FromSlash("C:/Users/Zoë/My Novel/manuscript/01-harbor.md")
	tests := []struct {
		name               string
		root, opened       protocol.DocumentURI
		wantEntry, wantDoc protocol.DocumentURI
	}{
		{"VS Code", "file:///c%3A/Users/Zo%C3%AB/My%20Novel", vscodeChapter,
			"file:///c%3A/Users/Zo%C3%AB/My%20Novel/codex/characters/mara-vell.md", vscodeChapter},
		{"Neovim", "file:///C:/Users/Zo%C3%AB/My%20Novel", nvimChapter,
			"file:///C:/Users/Zo%C3%AB/My%20Novel/codex/characters/mara-vell.md", nvimChapter},
		{"a lower-case drive, colon plain", "file:///c:/Users/Zo%C3%AB/My%20Novel", "file:///c:/Users/Zo%C3%AB/My%20Novel/manuscript/01-harbor.md",
			"file:///c:/Users/Zo%C3%AB/My%20Novel/codex/characters/mara-vell.md", "file:///c:/Users/Zo%C3%AB/My%20Novel/manuscript/01-harbor.md"},
		{"Unix paths", "file:///home/zoe/book", "file:///home/zoe/book/manuscript/01.md",
			"file:///C:/Users/Zo%C3%AB/My%20Novel/codex/characters/mara-vell.md", "file:///C:/Users/Zo%C3%AB/My%20Novel/manuscript/01-harbor.md"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := &Names{}
			n.Note(tt.root)
			n.Note(tt.opened)
			assert.Equal(t, tt.wantEntry, n.URI(entry))
			assert.Equal(t, tt.wantDoc, n.URI(chapter))
		})
	}
	var none *Names
	assert.Equal(t, protocol.DocumentURI(nvimChapter), none.URI(chapter), "no client yet: pathURI's form")
}
