package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// version is quire's release number. The VS Code extension's package.json
// carries the same number (a test holds them together), so the extension
// can tell the writer when the server it runs is another release.
const version = "0.3.0"

// buildInfo is what `quire --version` prints and the LSP serverInfo
// carries after the version: the commit the binary was built from (with
// "+dirty" when the tree had changes) and the Go release, read from what
// the Go toolchain stamps into every binary, so no linker flag is needed
// and a plain `go build` reports the same as a release build.
type buildInfo struct {
	Version string
	Commit  string
	Go      string
	OS      string
	Arch    string
}

func readBuildInfo() buildInfo {
	b := buildInfo{Version: version, Commit: "unknown", Go: runtime.Version(), OS: runtime.GOOS, Arch: runtime.GOARCH}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return b
	}
	dirty := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			b.Commit = s.Value
			if len(b.Commit) > 12 {
				b.Commit = b.Commit[:12]
			}
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if dirty && b.Commit != "unknown" {
		b.Commit += "+dirty"
	}
	return b
}

// serverVersion is the LSP serverInfo.version: the release number first,
// so a client can compare it, then the commit and Go release.
func (b buildInfo) serverVersion() string {
	return fmt.Sprintf("%s (commit %s, %s)", b.Version, b.Commit, b.Go)
}

// String is the line `quire --version` prints.
func (b buildInfo) String() string {
	return fmt.Sprintf("quire %s (commit %s, %s, %s/%s)", b.Version, b.Commit, b.Go, b.OS, b.Arch)
}
