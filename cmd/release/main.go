// Command release builds quire's release files: the binary for each
// system a writer uses, packed with the README and LICENSE into archives
// named as goreleaser names them (quire_<version>_<os>_<arch>.tar.gz, a
// .zip for Windows), and checksums.txt over every file a writer may
// download. The same commit gives the same bytes: builds are static
// (CGO_ENABLED=0), path-free (-trimpath), and every time stamp in an
// archive is the commit's.
//
// It is plain `go build` and the standard library rather than goreleaser:
// the whole job is a dozen builds and two archive formats, and a tool of a
// few hundred lines that any contributor can read keeps the release
// reproducible without a second, much larger toolchain to build and pin.
//
//	go run ./cmd/release build -o dist [-targets linux/amd64,windows/arm64]
//	go run ./cmd/release checksums dist
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "release:", err)
		os.Exit(1)
	}
}

const usage = `usage:
  release build -o DIR [-targets os/arch,...] [-src DIR]
  release checksums DIR`

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return errors.New(usage)
	}
	switch args[0] {
	case "build":
		fs := flag.NewFlagSet("build", flag.ContinueOnError)
		fs.SetOutput(stderr)
		out := fs.String("o", "dist", "folder for the builds and archives")
		targets := fs.String("targets", "", "comma-separated os/arch pairs (default: every release target)")
		src := fs.String("src", ".", "the quire repository to build")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		list, err := parseTargets(*targets)
		if err != nil {
			return err
		}
		files, err := build(ctx, buildOptions{Src: *src, Out: *out, Targets: list, Log: stderr})
		if err != nil {
			return err
		}
		for _, f := range files {
			fmt.Fprintln(stdout, f)
		}
		return nil
	case "checksums":
		if len(args) != 2 {
			return errors.New(usage)
		}
		path, err := writeChecksums(args[1])
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, path)
		return nil
	default:
		return fmt.Errorf("unknown command %q\n%s", args[0], usage)
	}
}
