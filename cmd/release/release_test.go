package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestArchivesAreDeterministic packs the same files twice, at different
// wall-clock moments, and gets the same bytes, with every file at the
// archive's root, its mode kept and the given time stamp.
func TestArchivesAreDeterministic(t *testing.T) {
	stamp := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	files := []archiveFile{
		{Name: "quire", Data: bytes.Repeat([]byte("binary"), 1000), Mode: 0o755},
		{Name: "README.md", Data: []byte("# quire\n"), Mode: 0o644},
		{Name: "LICENSE", Data: []byte("Apache\n"), Mode: 0o644},
	}
	for _, ext := range []string{".tar.gz", ".zip"} {
		t.Run(ext, func(t *testing.T) {
			dir := t.TempDir()
			a, b := filepath.Join(dir, "a"+ext), filepath.Join(dir, "b"+ext)
			require.NoError(t, writeArchive(a, files, stamp))
			time.Sleep(1100 * time.Millisecond) // a clock that leaks in would differ now
			require.NoError(t, writeArchive(b, files, stamp))
			da, err := os.ReadFile(a)
			require.NoError(t, err)
			db, err := os.ReadFile(b)
			require.NoError(t, err)
			assert.Equal(t, da, db, "two builds of the same files differ")

			got := readArchive(t, a)
			require.Len(t, got, 3)
			for i, f := range files {
				assert.Equal(t, f.Name, got[i].Name)
				assert.Equal(t, f.Mode, got[i].Mode, f.Name)
				assert.Equal(t, f.Data, got[i].Data, f.Name)
				assert.True(t, stamp.Equal(got[i].Time), "%s: %v", f.Name, got[i].Time)
			}
		})
	}
}

func TestWriteArchiveRefusesAnUnknownKind(t *testing.T) {
	err := writeArchive(filepath.Join(t.TempDir(), "quire.rar"), nil, time.Now())
	require.ErrorContains(t, err, "unknown archive kind")
}

func TestChecksumsListEveryDownloadSorted(t *testing.T) {
	dir := t.TempDir()
	for name, data := range map[string]string{
		"quire_0.3.0_windows_amd64.zip":     "z",
		"quire_0.3.0_linux_amd64.tar.gz":    "t",
		"quire-vscode-linux-x64-0.3.0.vsix": "v",
		"notes.txt":                         "not a download",
	} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644))
	}
	require.NoError(t, os.Mkdir(filepath.Join(dir, "build"), 0o755))
	path, err := writeChecksums(dir)
	require.NoError(t, err)
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	// sha256 of "v", "t" and "z".
	assert.Equal(t, ""+
		"4c94485e0c21ae6c41ce1dfe7b6bfaceea5ab68e40a2476f50208e526f506080  quire-vscode-linux-x64-0.3.0.vsix\n"+
		"e3b98a4da31a127d4bde6e43033f66ba274cab0eb7eb1c70ec41402bf6273dd8  quire_0.3.0_linux_amd64.tar.gz\n"+
		"594e519ae499312b29433b7dd8a97ff068defcba9755b6d5d00e84c524d67b06  quire_0.3.0_windows_amd64.zip\n",
		string(got))

	_, err = writeChecksums(t.TempDir())
	require.ErrorContains(t, err, "no archive")
}

func TestParseTargets(t *testing.T) {
	all, err := parseTargets("")
	require.NoError(t, err)
	assert.Len(t, all, 6)
	got, err := parseTargets("linux/amd64, windows/arm64")
	require.NoError(t, err)
	assert.Equal(t, []target{{"linux", "amd64"}, {"windows", "arm64"}}, got)
	_, err = parseTargets("linux")
	require.ErrorContains(t, err, "want os/arch")
	assert.Equal(t, "quire_1.2.3_windows_arm64.zip", target{"windows", "arm64"}.archiveName("1.2.3"))
	assert.Equal(t, "quire_1.2.3_darwin_arm64.tar.gz", target{"darwin", "arm64"}.archiveName("1.2.3"))
}

// TestReleaseIsReproducible builds the release of the checked-in commit
// twice, from two clones at different paths, and gets byte-identical
// archives; the binary for this machine names that commit and the
// release number, and each archive holds the binary, the README with
// every page and file it leads to, and LICENSE.
func TestReleaseIsReproducible(t *testing.T) {
	root := moduleRoot(t)
	head := gitOut(t, root, "rev-parse", "HEAD")
	// This machine's target only: a cross build of every system would
	// cost make test minutes, and what could make two builds differ (the
	// paths, the clock, the archive writer, whose zip form the test above
	// covers) is the same for every target.
	host := target{runtime.GOOS, runtime.GOARCH}
	targets := host.String()
	sums := make([]string, 2)
	var dist string
	for i := range sums {
		clone := filepath.Join(t.TempDir(), []string{"one", "second clone"}[i])
		gitOut(t, root, "clone", "-q", root, clone)
		dist = filepath.Join(t.TempDir(), "dist")
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		cmd := exec.CommandContext(ctx, goCommand(), "run", "./cmd/release", "build", "-o", dist, "-targets", targets)
		cmd.Dir = clone
		out, err := cmd.CombinedOutput()
		cancel()
		require.NoError(t, err, "%s", out)
		_, err = writeChecksums(dist)
		require.NoError(t, err)
		sum, err := os.ReadFile(filepath.Join(dist, "checksums.txt"))
		require.NoError(t, err)
		sums[i] = string(sum)
	}
	assert.Equal(t, sums[0], sums[1], "two builds of commit %s differ", head)
	assert.Len(t, strings.Split(strings.TrimSpace(sums[0]), "\n"), 1, sums[0])

	version, err := readVersion(filepath.Join(root, "cmd", "quire", "version.go"))
	require.NoError(t, err)
	files := readArchive(t, filepath.Join(dist, host.archiveName(version)))
	var names []string
	for _, f := range files {
		names = append(names, f.Name)
	}
	require.GreaterOrEqual(t, len(names), 4)
	// One folder named after the archive holds everything: unpacking
	// scatters nothing into the writer's folder.
	folder := strings.TrimSuffix(strings.TrimSuffix(host.archiveName(version), ".tar.gz"), ".zip") + "/"
	for i, name := range names {
		require.True(t, strings.HasPrefix(name, folder), "%s is outside %s", name, folder)
		names[i] = strings.TrimPrefix(name, folder)
		files[i].Name = names[i]
	}
	assert.Equal(t, []string{host.exe(), "README.md"}, names[:2])
	assert.Equal(t, "LICENSE", names[len(names)-1])
	assert.Contains(t, names, "docs/advisor.md", "the docs the README leads to")
	assert.Contains(t, names, "editors/emacs/quire.el", "and the files the editors' pages name")
	// The Neovim plugin, whole: its page's "without a plugin manager"
	// works from the unpacked folder.
	for _, name := range []string{"editors/nvim/plugin/quire.lua", "editors/nvim/lua/quire/init.lua", "editors/nvim/lua/quire/install.lua",
		"editors/nvim/lsp/quire.lua", "editors/nvim/doc/quire.txt", "editors/nvim/doc/tags"} {
		assert.Contains(t, names, name)
	}
	for _, name := range names {
		assert.NotContains(t, name, "editors/nvim/test/", "the plugin's tests stay behind")
	}
	assert.Equal(t, len(names), len(slices.Compact(slices.Sorted(slices.Values(names)))), "no file is packed twice")
	// Every relative link of a packed page opens a packed file.
	for _, f := range files {
		if !strings.HasSuffix(f.Name, ".md") {
			continue
		}
		for _, m := range markdownLink.FindAllStringSubmatch(string(f.Data), -1) {
			if target := relativeTarget(f.Name, m[1]); target != "" && !strings.HasSuffix(m[1], "/") {
				assert.Contains(t, names, target, "%s links to %s", f.Name, m[1])
			}
		}
	}
	assert.Equal(t, os.FileMode(0o755), files[0].Mode)
	out, err := exec.Command(filepath.Join(dist, "build", host.OS+"_"+host.Arch, host.exe()), "--version").Output()
	require.NoError(t, err)
	assert.Equal(t, "quire "+version+" (commit "+head[:12]+", "+runtime.Version()+", "+host.String()+")\n", string(out))
}

type unpacked struct {
	Name string
	Mode os.FileMode
	Data []byte
	Time time.Time
}

func readArchive(t *testing.T, path string) []unpacked {
	t.Helper()
	var out []unpacked
	if strings.HasSuffix(path, ".zip") {
		zr, err := zip.OpenReader(path)
		require.NoError(t, err)
		defer zr.Close()
		for _, f := range zr.File {
			rc, err := f.Open()
			require.NoError(t, err)
			data, err := io.ReadAll(rc)
			rc.Close()
			require.NoError(t, err)
			out = append(out, unpacked{f.Name, f.Mode().Perm(), data, f.Modified})
		}
		return out
	}
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	gz, err := gzip.NewReader(f)
	require.NoError(t, err)
	tr := tar.NewReader(gz)
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		data, err := io.ReadAll(tr)
		require.NoError(t, err)
		out = append(out, unpacked{hdr.Name, hdr.FileInfo().Mode().Perm(), data, hdr.ModTime})
	}
	return out
}

func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	_, err = os.Stat(filepath.Join(dir, "go.mod"))
	require.NoError(t, err, "the quire repository's root")
	return dir
}

func gitOut(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "git %s: %s", strings.Join(args, " "), out)
	return strings.TrimSpace(string(out))
}

func goCommand() string {
	if g := os.Getenv("GO"); g != "" {
		return g
	}
	return "go"
}
