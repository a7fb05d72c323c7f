package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/quire-ink/quire/server"
)

// serveOptions configure `quire serve`.
type serveOptions struct {
	*globalOptions
	// Stdio is accepted because VS Code's client passes --stdio; stdio is
	// the only transport.
	Stdio bool
}

func newServeCommand(g *globalOptions) *cobra.Command {
	o := &serveOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Run the language server on stdin and stdout (for your editor)",
		Long: `Run quire as a language server speaking LSP over stdin and stdout. Point
your editor's LSP client at "quire serve". stdout carries only JSON-RPC;
logs go to stderr (-v for details).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return o.run(cmd) },
	}
	cmd.Flags().BoolVar(&o.Stdio, "stdio", true, "use stdin and stdout (the default and only transport)")
	return cmd
}

// stdio joins stdin and stdout into the connection the server speaks on.
type stdio struct {
	io.Reader
	io.Writer
}

// Close closes the input without waiting for the close to finish. Go's
// Close of a file waits until no read is pending on it, and a read from
// a pipe is not interrupted on Windows (nor on Unix in blocking mode):
// after exit the editor keeps stdin open until the process has ended,
// so a waiting close would keep quire running for ever. The process
// ends once Serve returns, with the close still under way or not.
func (c stdio) Close() error {
	if closer, ok := c.Reader.(io.Closer); ok {
		go func() { _ = closer.Close() }()
	}
	return nil
}

func (o *serveOptions) run(cmd *cobra.Command) error {
	serveProcs()
	// Before anything else fills the heap (start_heap_linux.go).
	if reserveStartHeap {
		prepareStartHeap()
	}
	started, settled, parsingAll := limitServeMemory(cmd.Context())
	srv := server.New(server.Options{CacheDir: o.CacheDir, Logger: o.logger(), Version: readBuildInfo().serverVersion(), Keys: o.keyStore(), LocalModels: o.localModels(),
		Started: started, Settled: settled, ParsingAll: parsingAll})
	code := srv.Serve(cmd.Context(), stdio{Reader: o.stdin, Writer: o.stdout})
	if code != 0 {
		return exitError{code}
	}
	return nil
}
