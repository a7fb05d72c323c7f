package main

import (
	"bytes"
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

type buildOptions struct {
	Src     string // the repository root
	Out     string // where builds and archives go
	Targets []target
	Log     io.Writer
}

// build cross-builds quire for each target into Out/build/<os>_<arch>/
// and packs each binary with README.md, the pages and files it leads to
// (docFiles), the Neovim plugin (pluginFiles) and LICENSE into an
// archive in Out, all in one folder named after the archive. It returns the
// archives' paths.
func build(ctx context.Context, o buildOptions) ([]string, error) {
	src, err := filepath.Abs(o.Src)
	if err != nil {
		return nil, fmt.Errorf("source folder: %w", err)
	}
	version, err := readVersion(filepath.Join(src, "cmd", "quire", "version.go"))
	if err != nil {
		return nil, err
	}
	stamp, err := sourceTime(ctx, src)
	if err != nil {
		return nil, err
	}
	vcs := inGit(ctx, src)
	pages, err := docFiles(src)
	if err != nil {
		return nil, err
	}
	plugin, err := pluginFiles(src)
	if err != nil {
		return nil, err
	}
	// A plugin file a page links to is packed once, as the page's.
	plugin = slices.DeleteFunc(plugin, func(name string) bool { return slices.Contains(pages, name) })
	var docs []archiveFile
	for _, name := range slices.Concat(pages, plugin, []string{"LICENSE"}) {
		data, err := os.ReadFile(filepath.Join(src, filepath.FromSlash(name)))
		if err != nil {
			return nil, fmt.Errorf("read %s for the archives: %w", name, err)
		}
		docs = append(docs, archiveFile{Name: name, Data: data, Mode: 0o644})
	}
	var archives []string
	for _, t := range o.Targets {
		binDir := filepath.Join(o.Out, "build", t.OS+"_"+t.Arch)
		if err := os.MkdirAll(binDir, 0o755); err != nil {
			return nil, fmt.Errorf("build folder: %w", err)
		}
		bin, err := filepath.Abs(filepath.Join(binDir, t.exe()))
		if err != nil {
			return nil, err
		}
		if o.Log != nil {
			fmt.Fprintf(o.Log, "building quire %s for %s\n", version, t)
		}
		if err := goBuild(ctx, src, t, bin, vcs); err != nil {
			return nil, err
		}
		data, err := os.ReadFile(bin)
		if err != nil {
			return nil, fmt.Errorf("read the %s build: %w", t, err)
		}
		// Every file in one folder named after the archive.
		folder := t.folderName(version) + "/"
		files := []archiveFile{{Name: folder + t.exe(), Data: data, Mode: 0o755}}
		for _, d := range docs {
			files = append(files, archiveFile{Name: folder + d.Name, Data: d.Data, Mode: d.Mode})
		}
		path := filepath.Join(o.Out, t.archiveName(version))
		if err := writeArchive(path, files, stamp); err != nil {
			return nil, fmt.Errorf("archive for %s: %w", t, err)
		}
		archives = append(archives, path)
	}
	return archives, nil
}

// goBuild runs `go build` for one target with everything that could make
// two builds differ pinned: no cgo, no paths, the baseline instruction
// sets, and the machine's GOFLAGS ignored (they may turn VCS stamping off,
// and `quire --version` names the commit from that stamp).
func goBuild(ctx context.Context, src string, t target, out string, vcs bool) error {
	args := []string{"build", "-trimpath", "-ldflags=-s -w", "-o", out}
	if vcs {
		args = append(args, "-buildvcs=true")
	} else {
		args = append(args, "-buildvcs=false")
	}
	args = append(args, "./cmd/quire")
	cmd := exec.CommandContext(ctx, goTool(), args...)
	cmd.Dir = src
	cmd.Env = append(os.Environ(),
		"CGO_ENABLED=0", "GOOS="+t.OS, "GOARCH="+t.Arch,
		"GOFLAGS=", "GOAMD64=v1", "GOARM64=v8.0", "GOEXPERIMENT=",
	)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build for %s: %w\n%s", t, err, stderr.String())
	}
	return nil
}

// goTool is the go command: $GO (the Makefile passes its own), else the
// one on PATH.
func goTool() string {
	if g := os.Getenv("GO"); g != "" {
		return g
	}
	return "go"
}

// readVersion reads the release number from cmd/quire's version constant,
// the one place it is written.
func readVersion(path string) (string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		return "", fmt.Errorf("read quire's version: %w", err)
	}
	for _, decl := range f.Decls {
		gen, ok := decl.(*ast.GenDecl)
		if !ok || gen.Tok != token.CONST {
			continue
		}
		for _, spec := range gen.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, name := range vs.Names {
				if name.Name != "version" || i >= len(vs.Values) {
					continue
				}
				if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
					return strconv.Unquote(lit.Value)
				}
			}
		}
	}
	return "", fmt.Errorf("read quire's version: no const version in %s", path)
}

// sourceTime is the time stamped on every file in the archives:
// SOURCE_DATE_EPOCH when set (the reproducible-builds convention), else
// the commit's time, so two builds of one commit agree.
func sourceTime(ctx context.Context, src string) (time.Time, error) {
	if s := os.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return time.Time{}, fmt.Errorf("SOURCE_DATE_EPOCH %q is not a number of seconds", s)
		}
		return time.Unix(n, 0).UTC(), nil
	}
	cmd := exec.CommandContext(ctx, "git", "log", "-1", "--format=%ct")
	cmd.Dir = src
	out, err := cmd.Output()
	if err != nil {
		return time.Time{}, fmt.Errorf("the commit's time (set SOURCE_DATE_EPOCH outside a git checkout): %w", err)
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("the commit's time: %q", out)
	}
	return time.Unix(n, 0).UTC(), nil
}

// inGit reports whether src is a git checkout, where the binary is
// stamped with its commit.
func inGit(ctx context.Context, src string) bool {
	cmd := exec.CommandContext(ctx, "git", "rev-parse", "--is-inside-work-tree")
	cmd.Dir = src
	out, err := cmd.Output()
	return err == nil && strings.TrimSpace(string(out)) == "true"
}
