package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"sync"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/proposal"
	"github.com/quire-ink/quire/llm/mcp"
	"github.com/quire-ink/quire/llm/toolloop"
	"github.com/quire-ink/quire/llm/tools"
	"github.com/quire-ink/quire/manuscript/continuity"
)

// mcpOptions configure `quire mcp`.
type mcpOptions struct {
	*globalOptions
	// MaxProposals bounds the proposals kept for the session.
	MaxProposals int
}

func newMCPCommand(g *globalOptions) *cobra.Command {
	o := &mcpOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "mcp [--project DIR]",
		Short: "Serve the book's advisor tools to other agents (MCP over stdin and stdout)",
		Long: `Run quire as a Model Context Protocol server on stdin and stdout, offering
the advisor's tools (get_manuscript_context, get_<type>_context,
list_codex_entries, search_codex, get_dialogue and the propose_* tools) to
any MCP client.
Every tool answers with the envelope {ok, data, warnings, errors}.

Proposals are review-only: each comes back with its unified diff and nothing
is ever written to the book. stdout carries only MCP JSON-RPC; logs go to
stderr, with -v.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return o.run(cmd) },
	}
	cmd.Flags().IntVar(&o.MaxProposals, "max-proposals", proposal.DefaultMax, "most proposals kept for the session")
	return cmd
}

func (o *mcpOptions) run(cmd *cobra.Command) error {
	ctx := cmd.Context()
	if ctx == nil {
		ctx = context.Background()
	}
	dir, err := o.projectDir()
	if err != nil {
		return err
	}
	if info, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("project folder %s does not exist", dir)
	} else if err != nil {
		return fmt.Errorf("project: %w", err)
	} else if !info.IsDir() {
		return fmt.Errorf("project: %s is not a folder", dir)
	}
	b, err := o.openBook(ctx)
	if err != nil {
		return err
	}
	defer b.Close()
	// The book follows its files for as long as the client stays: the
	// codex's watcher updates the canon, and chapters are read again.
	cont, _ := continuity.OptionsFrom(b.Settings)
	src := &tools.Sources{Store: b.store, Canon: b.View, Snapshots: b.ms.Snapshot, Continuity: cont, Outline: readOutlineSettings(b.Settings, io.Discard)}
	watchCtx, stopWatching := context.WithCancel(ctx)
	watching := make(chan struct{})
	var caughtUp sync.WaitGroup
	// The watcher and the catch-up end before the book closes, and
	// before run returns.
	defer func() {
		stopWatching()
		<-watching
		caughtUp.Wait()
	}()
	// Chapters written between the book's opening and the watch's start
	// raise no event: they are read again once the watch is armed.
	caughtUp.Go(func() {
		select {
		case <-b.store.Watching():
			if _, err := b.ms.CatchUp(watchCtx); err != nil && o.Verbose {
				o.logger().Warn("mcp: manuscript not caught up", "err", err)
			}
		case <-watchCtx.Done():
		}
	})
	go func() {
		defer close(watching)
		err := b.store.Watch(watchCtx, func(ch codex.Change) {
			if len(ch.Updated)+len(ch.Removed) > 0 {
				b.ms.SetCatalog(ch.Catalog)
			}
			var err error
			if ch.Resynced || slices.ContainsFunc(ch.Paths, func(p string) bool { return !codex.IsMarkdown(p) }) {
				err = b.ms.Reload(watchCtx)
			} else {
				_, err = b.ms.Refresh(watchCtx, ch.Paths)
			}
			if err != nil && o.Verbose {
				o.logger().Warn("mcp: manuscript not updated", "err", err)
			}
		})
		if err != nil && watchCtx.Err() == nil && o.Verbose {
			o.logger().Warn("mcp: the book's files are not followed", "err", err)
		}
	}()
	proposals := proposal.NewStore(o.MaxProposals)
	reg, err := toolloop.NewRegistry(append(tools.Read(src), tools.Propose(src, proposals)...)...)
	if err != nil {
		return fmt.Errorf("mcp: %w", err)
	}
	// Without -v the server logs nothing of its own (opening the book
	// still warns on stderr, as in every command): an MCP client shows
	// stderr to its user, and a quiet server is the expected one.
	var logger *slog.Logger
	if o.Verbose {
		logger = o.logger()
		logger.Info("mcp: serving", "entries", b.store.Catalog().Len(), "tools", len(reg.Names()))
	}
	srv := mcp.NewServer(reg, toolloop.Limits{}, mcp.ServerOptions{Logger: logger, ProposalDiff: func(id string) (string, bool) {
		p, ok := proposals.Get(id)
		if !ok {
			return "", false
		}
		return p.Diff, true
	}})
	// Requests still in flight when the client closes stdin are answered
	// before the session ends (for at most mcp.DefaultDrainWait).
	err = srv.Run(ctx, mcp.DrainingTransport(o.transport(), mcp.DefaultDrainWait))
	switch {
	case err == nil, errors.Is(err, io.EOF):
		// The client closed stdin: the session is over.
		return nil
	case ctx.Err() != nil:
		// Interrupted or cancelled: a normal way to stop a server.
		return nil
	}
	return fmt.Errorf("mcp: %w", err)
}

// transport is stdin and stdout: the process's own through
// mcpsdk.StdioTransport, or the command's streams when they were replaced
// (in tests).
func (o *mcpOptions) transport() mcpsdk.Transport {
	if o.stdin == os.Stdin && o.stdout == os.Stdout {
		return &mcpsdk.StdioTransport{}
	}
	return &mcpsdk.IOTransport{Reader: io.NopCloser(o.stdin), Writer: nopWriteCloser{o.stdout}}
}

// nopWriteCloser leaves closing stdout to whoever opened it.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
