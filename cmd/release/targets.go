package main

import (
	"fmt"
	"strings"
)

// target is one system a release binary runs on.
type target struct{ OS, Arch string }

func (t target) String() string { return t.OS + "/" + t.Arch }

// exe is the binary's file name on that system.
func (t target) exe() string {
	if t.OS == "windows" {
		return "quire.exe"
	}
	return "quire"
}

// archiveName follows goreleaser's default: name_version_os_arch, zip on
// Windows (where a writer's file manager opens it), tar.gz elsewhere.
func (t target) archiveName(version string) string {
	ext := ".tar.gz"
	if t.OS == "windows" {
		ext = ".zip"
	}
	return t.folderName(version) + ext
}

// folderName is the one folder an archive unpacks into: its own name
// without the extension, so unpacking never scatters files into the
// folder the writer unpacks in.
func (t target) folderName(version string) string {
	return fmt.Sprintf("quire_%s_%s_%s", version, t.OS, t.Arch)
}

// releaseTargets are the systems writers use: Linux (static, so also
// Alpine), macOS and Windows, each on Intel/AMD and ARM.
var releaseTargets = []target{
	{"linux", "amd64"}, {"linux", "arm64"},
	{"darwin", "amd64"}, {"darwin", "arm64"},
	{"windows", "amd64"}, {"windows", "arm64"},
}

// parseTargets reads "linux/amd64,windows/arm64"; empty is every target.
func parseTargets(s string) ([]target, error) {
	if strings.TrimSpace(s) == "" {
		return releaseTargets, nil
	}
	var out []target
	for _, part := range strings.Split(s, ",") {
		osName, arch, ok := strings.Cut(strings.TrimSpace(part), "/")
		if !ok || osName == "" || arch == "" {
			return nil, fmt.Errorf("target %q: want os/arch, e.g. linux/amd64", part)
		}
		out = append(out, target{osName, arch})
	}
	return out, nil
}
