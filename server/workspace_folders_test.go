package server

import (
	"testing"

	"github.com/quire-ink/quire/server/textdoc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"
)

// TestOneQuireServesSeveralFolders: quire says it serves several
// workspace folders and wants no notice of folders added later (it finds
// their books from their documents), so Helix sends a file of another
// root, such as an open book's series folder, to the quire already
// running rather than starting a second one on that folder
// (editors/helix/series_test.go).
func TestOneQuireServesSeveralFolders(t *testing.T) {
	c := startServer(t, Options{CacheDir: t.TempDir()})
	root := writeProject(t, bookFiles)
	c.root = root
	var init protocol.InitializeResult
	c.call(protocol.MethodInitialize, map[string]any{"rootUri": textdoc.PathURI(root)}, &init)
	require.NotNil(t, init.Capabilities.Workspace)
	require.NotNil(t, init.Capabilities.Workspace.WorkspaceFolders)
	assert.True(t, init.Capabilities.Workspace.WorkspaceFolders.Supported)
	assert.Equal(t, false, init.Capabilities.Workspace.WorkspaceFolders.ChangeNotifications,
		"quire asks for no notice of folders added later")
}
