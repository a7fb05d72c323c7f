package server

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"

	mbook "github.com/quire-ink/quire/manuscript/book"
)

// hoverSays waits until the hover at line, char of rel says want (or,
// with want "", until there is none).
func (c *testClient) hoverSays(rel string, line, char uint32, want string) {
	c.t.Helper()
	require.Eventually(c.t, func() bool {
		h := c.hoverAt(rel, line, char)
		if want == "" {
			return h == nil
		}
		return h != nil && strings.Contains(h.Contents.Value, want)
	}, 10*time.Second, 20*time.Millisecond, "hover in %s says %q", rel, want)
}

// A book trusted from the editor after it opened reads its series at
// once: the series' canon shows in hover, and quire.yaml no longer says
// the series is ignored.
func TestSeriesReadOnceTheBookIsTrustedFromTheEditor(t *testing.T) {
	base := seriesWorkspace(t)
	one := filepath.Join(base, "one")
	trustFile := filepath.Join(t.TempDir(), "trust.json")
	shelf := mbook.NewShelf()
	c := startServer(t, Options{TrustFile: trustFile, shelf: shelf})
	c.initializeCaps(one, protocol.ClientCapabilities{Window: &protocol.WindowClientCapabilities{ShowMessage: &protocol.ShowMessageRequestClientCapabilities{}}},
		map[string]any{protocol.MethodWindowShowMessageRequest: protocol.MessageActionItem{Title: trustAction}})

	c.waitFor(protocol.MethodWindowShowMessageRequest, "read the series canon in the folder ../tideward")
	c.waitFor(protocol.MethodWindowShowMessage, "quire trusts")
	c.hoverSays("manuscript/01-harbor.md", 2, 12, "*Series canon:*")
	assert.Equal(t, 1, shelf.Len())
	require.Eventually(t, func() bool { return len(c.configDiagnosticCodes()) == 0 }, 10*time.Second, 20*time.Millisecond,
		"the trust diagnostic on quire.yaml clears")
	h := c.hoverAt("manuscript/01-harbor.md", 2, 1)
	require.NotNil(t, h)
	assert.Contains(t, h.Contents.Value, "*This book's entry over the series canon*", "the override merges with the series now")
}

// Naming a series in quire.yaml while the book is open reads it; taking
// the name out lets go of it; neither needs the book opened again.
func TestSeriesFollowsQuireYAML(t *testing.T) {
	base := seriesWorkspace(t)
	one := filepath.Join(base, "one")
	trustFile := filepath.Join(t.TempDir(), "trust.json")
	// The writer trusted the series setting before (quire trust), then
	// took it out of quire.yaml.
	grantTrust(t, trustFile, one)
	yaml := filepath.Join(one, "quire.yaml")
	require.NoError(t, os.WriteFile(yaml, []byte("title: One\n"), 0o644))

	shelf := mbook.NewShelf()
	c := startServer(t, Options{TrustFile: trustFile, shelf: shelf})
	c.initialize(one)
	c.hoverSays("manuscript/01-harbor.md", 2, 12, "") // no series yet: Ilse Dorn is nobody
	assert.Equal(t, 0, shelf.Len())

	require.NoError(t, os.WriteFile(yaml, []byte("series: ../tideward\n"), 0o644))
	c.hoverSays("manuscript/01-harbor.md", 2, 12, "*Series canon:*")
	assert.Equal(t, 1, shelf.Len())
	h := c.hoverAt("manuscript/01-harbor.md", 2, 1)
	require.NotNil(t, h, "Mara is the series' alias of the book's Mara Vell")
	assert.Contains(t, h.Contents.Value, "Older now")
	assert.Contains(t, h.Contents.Value, "salt flats", "the override takes the body from the series")

	// A series change reaches the book through the new follow.
	require.NoError(t, os.WriteFile(filepath.Join(base, "tideward", "codex", "characters", "ilse.md"),
		[]byte("---\ntype: character\nname: Ilse Dorn\nsummary: Harbor master, now of the new port.\n---\n# Ilse Dorn\n"), 0o644))
	c.hoverSays("manuscript/01-harbor.md", 2, 12, "now of the new port")

	require.NoError(t, os.WriteFile(yaml, []byte("title: One\n"), 0o644))
	c.hoverSays("manuscript/01-harbor.md", 2, 12, "")
	require.Eventually(t, func() bool { return shelf.Len() == 0 }, 10*time.Second, 20*time.Millisecond, "the series store is let go of")
	// Mara is the given name of the book's own Mara Vell still
	// (manuscript.GivenName): her card is the book's alone now.
	h = c.hoverAt("manuscript/01-harbor.md", 2, 1)
	require.NotNil(t, h)
	assert.Contains(t, h.Contents.Value, "Older now")
	assert.NotContains(t, h.Contents.Value, "salt flats", "the series' body is let go of")
	assert.NotContains(t, h.Contents.Value, "*This book's entry over the series canon*")
}
