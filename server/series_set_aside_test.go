package server

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"
)

// A trusted book whose quire.yaml has errors opens with the defaults, and
// without the series canon the file names: the book opener weighs the
// trust itself (manuscript/book), and is told the file is set aside.
func TestATrustedBookWithABadQuireYAMLReadsNoSeries(t *testing.T) {
	base := seriesWorkspace(t)
	one := filepath.Join(base, "one")
	trustFile := filepath.Join(t.TempDir(), "trust.json")
	grantTrust(t, trustFile, one)
	// An unknown provider key: the file is set aside, while what it asks
	// beyond the book (the series alone) is what the writer trusted.
	require.NoError(t, os.WriteFile(filepath.Join(one, "quire.yaml"), []byte("series: ../tideward\nprovider: {colour: blue}\n"), 0o644))

	c := startServer(t, Options{TrustFile: trustFile, CacheDir: t.TempDir()})
	c.initialize(one)
	c.waitDiagnostics(c.uri("quire.yaml"), "the unknown provider key", func(ds []protocol.Diagnostic) bool { return len(ds) > 0 })
	assert.Nil(t, c.hoverAt("manuscript/01-harbor.md", 2, 12), "Ilse Dorn is the series' alone")

	// Fixed, the file is in force: the series it names, trusted, is read.
	require.NoError(t, os.WriteFile(filepath.Join(one, "quire.yaml"), []byte("series: ../tideward\n"), 0o644))
	require.Eventually(t, func() bool { return c.hoverAt("manuscript/01-harbor.md", 2, 12) != nil }, 20*time.Second, 50*time.Millisecond)
}
