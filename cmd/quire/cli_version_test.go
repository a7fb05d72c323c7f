package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestVersionLine(t *testing.T) {
	out, _, err := run(t, "--version")
	require.NoError(t, err)
	// The test binary carries no VCS stamp; a built quire names its commit
	// (server/stdio_test.go checks the built binary's serverInfo).
	assert.Regexp(t, regexp.MustCompile(`^quire `+regexp.QuoteMeta(version)+` \(commit [^,]+, `+
		regexp.QuoteMeta(runtime.Version())+`, `+runtime.GOOS+`/`+runtime.GOARCH+`\)\n$`), out)
}

// TestExtensionCarriesTheServerVersion holds the VS Code extension's
// version to the server's: the extension warns when they differ, so a
// release must move both.
func TestExtensionCarriesTheServerVersion(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "editors", "vscode", "package.json"))
	require.NoError(t, err)
	var pkg struct {
		Version string `json:"version"`
	}
	require.NoError(t, json.Unmarshal(raw, &pkg))
	assert.Equal(t, version, pkg.Version)
}
