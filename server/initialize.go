package server

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/count"
	"github.com/quire-ink/quire/server/textdoc"
)

// initializeParams keep initializationOptions as JSON: settings.go reads
// the client's settings leniently, dropping what does not decode.
type initializeParams struct {
	protocol.InitializeParams
	InitializationOptions json.RawMessage `json:"initializationOptions,omitempty"`
}

// initializeResult is LSP's, with the capabilities go.lsp.dev/protocol
// v0.12.0 predates (LSP 3.17's inlay hints).
type initializeResult struct {
	Capabilities serverCapabilities   `json:"capabilities"`
	ServerInfo   *protocol.ServerInfo `json:"serverInfo,omitempty"`
}

type serverCapabilities struct {
	protocol.ServerCapabilities
	// InlayHintProvider: the speaker hints (inlay_hints.go).
	InlayHintProvider bool `json:"inlayHintProvider,omitempty"`
}

func (s *Server) initialize(_ context.Context, p initializeParams) (*initializeResult, error) {
	s.log.Debug("initialize")
	var roots []string
	// The roots' URIs tell how the client writes a drive letter (textdoc.Names).
	for _, f := range p.WorkspaceFolders {
		s.names.Note(protocol.DocumentURI(f.URI))
		if dir, ok := textdoc.URIPath(protocol.DocumentURI(f.URI)); ok {
			roots = append(roots, dir)
		}
	}
	s.names.Note(p.RootURI)
	if len(roots) == 0 {
		if dir, ok := textdoc.URIPath(p.RootURI); ok {
			roots = append(roots, dir)
		} else if p.RootPath != "" {
			roots = append(roots, p.RootPath)
		}
	}
	if raw := p.InitializationOptions; len(raw) > 0 && string(raw) != "null" {
		s.clientCfg.setInitial(parseClientSettings(raw))
	}
	s.sess.setRoots(roots)
	s.mu.Lock()
	s.state = stateInitialized
	s.client = p.Capabilities
	s.mu.Unlock()
	ws := p.Capabilities.Workspace
	s.tokensRefresh.Store(ws != nil && ws.SemanticTokens != nil && ws.SemanticTokens.RefreshSupport)
	return &initializeResult{
		Capabilities: serverCapabilities{InlayHintProvider: true, ServerCapabilities: protocol.ServerCapabilities{
			TextDocumentSync: &protocol.TextDocumentSyncOptions{
				OpenClose: true,
				Change:    protocol.TextDocumentSyncKindIncremental,
			},
			HoverProvider:           true,
			DefinitionProvider:      true,
			CompletionProvider:      &protocol.CompletionOptions{TriggerCharacters: []string{"["}},
			DocumentSymbolProvider:  true,
			WorkspaceSymbolProvider: true,
			ReferencesProvider:      true,
			RenameProvider:          &protocol.RenameOptions{PrepareProvider: true},
			CodeLensProvider:        &protocol.CodeLensOptions{}, // a chapter's word count (code_lens.go)
			CodeActionProvider:      true,                        // quick fixes and the advisor's actions, which carry no kind so every client lists them
			ExecuteCommandProvider:  &protocol.ExecuteCommandOptions{Commands: s.commandNames()},
			Workspace:               workspaceCapabilities(),
			// Dialogue and characters' names (semantic_tokens.go).
			SemanticTokensProvider: semanticTokensCapability(),
		}},
		ServerInfo: s.serverInfo(),
	}, nil
}

// initialized opens the workspace's projects in the background; features
// answer as soon as their project is ready. Each is the book that holds
// a workspace root (book_root.go).
func (s *Server) initialized(context.Context) error {
	// A client that says initialized twice gets its projects once.
	roots := s.sess.startLoading()
	// A root in no book still opens as it did; the writer is told when a
	// chapter opened there has no book either (discoverBook): the book may
	// lie below the root, and open with its first chapter.
	books, lost := bookRoots(roots)
	for _, root := range books {
		s.openProject(root, !slices.Contains(lost, root))
	}
	s.whenStarted()
	if len(roots) > 0 {
		s.work.Add(1)
		go func() {
			defer s.work.Done()
			s.followUserConfig(s.ctx)
		}()
	}
	return nil
}

// startedWaitMax bounds how long the requests in flight as the start
// ends hold back Options.Started: a stream of hovers from the first
// millisecond held the collector off for yieldMax, and a book of 1,000
// entries then peaked at 119 MB rather than 80.
const startedWaitMax = 100 * time.Millisecond

// whenStarted calls Options.Started once the session's first books have
// started: loaded and found their names, or failed; then
// Options.Settled once their search indexes are built, or failed.
func (s *Server) whenStarted() {
	if s.opts.Started == nil && s.opts.Settled == nil {
		return
	}
	books := s.sess.books()
	wait := func(ch func(*openBook) chan struct{}) bool {
		for _, p := range books {
			select {
			case <-ch(p):
			case <-s.ctx.Done():
				return false
			}
		}
		return true
	}
	s.work.Add(1)
	go func() {
		defer s.work.Done()
		started := wait(func(p *openBook) chan struct{} { return p.startedCh })
		if s.opts.Started != nil {
			// The requests that waited for the start (the writer's
			// first hover) are answered before the caller's own work:
			// the collector that Started lets run took their CPU as
			// they were computed. Not long: the heap grows until it
			// runs.
			s.gate.answered(s.ctx, startedWaitMax)
			s.opts.Started()
		}
		if started && wait(func(p *openBook) chan struct{} { return p.settledCh }) && s.opts.Settled != nil {
			s.opts.Settled()
		}
	}()
}

// loadProject loads p, tells the client how it went and then watches it.
func (s *Server) loadProject(p *openBook) {
	p.onCacheFailure = func(why string) {
		s.showMessage(s.ctx, protocol.MessageTypeWarning, "quire: "+why)
		s.publishStatus(s.ctx, p)
	}
	p.onWatchFallback = func(why string) {
		s.showMessage(s.ctx, protocol.MessageTypeWarning, "quire: "+filepath.Base(p.root)+": "+why)
	}
	// A chapter's vote for the book's narrator changed: who says "I"
	// in the other chapters may have too.
	p.narrators.OnChange(func() { s.redrawDialogue(s.ctx) })
	s.publishStatus(s.ctx, p)
	// No "quire:" in the title: editors (Helix) put the server's name first.
	prog := s.startProgress(s.ctx, "load", nil, "Reading "+filepath.Base(p.root), false)
	p.load(s.ctx, s.opts, s.log, func(done, total int) { prog.count(s.ctx, done, total) }, func() {
		// Documents opened while the project loaded reach it before any
		// request can see it ready; one opened from now on finds it
		// ready and goes to it directly.
		s.sess.mu.Lock()
		defer s.sess.mu.Unlock()
		s.overlayAllLocked(p)
		close(p.ready)
		s.log.Debug("the book answers", "root", p.real)
	})
	if !p.loaded() {
		p.markStarted()
		p.markSettled()
		prog.end(s.ctx, "failed")
		s.log.Error("project not opened", "root", p.root, "err", p.err)
		s.showMessage(s.ctx, protocol.MessageTypeError, fmt.Sprintf("quire could not open %s: %v", p.root, p.err))
		s.publishStatus(s.ctx, p)
		return
	}
	// The chapter counts need the mention index, which a warm start takes
	// from the chapter cache in a few milliseconds: build it beside the
	// continuity canon and the status, not after them.
	go p.index(s.log)
	// A warm start's status waits for the check behind its first answers
	// (below), a cold start's for the chapters' counts: the status checks
	// the whole codex for problems (26 ms of CPU at 10,000 entries),
	// which would share the cores with the counting the first hover
	// waits for. Until then the book's status says it is loading.
	checking := p.uncheckedSince()
	<-p.indexed
	p.markStarted()
	// What a file change brings the writer: the watcher's, and the check
	// of the codex behind a warm start's first answers.
	changed := func() {
		s.republishOpen()
		s.redrawDialogue(s.ctx)
		// Chapters read or scanned again are kept once changes settle.
		p.chapterSaves.soon()
		// A quire.yaml that now asks something new is a new question.
		s.offerTrust(p)
		s.publishCodexProblems(s.ctx, p)
		s.publishDiagnostics(s.ctx, p.uri(configFile))
		s.publishStatus(s.ctx, p)
	}
	// The book as the last session left it answered first; what changed
	// on disk since is followed now, before anything else, once the
	// start's first requests are answered (the status's checks of the
	// codex wait for them too).
	if checking {
		// The open documents' diagnostics are scheduled as soon as
		// each part of the check has followed a change; the rest once.
		p.checkBehind(s.ctx, s.log, s.republishOpen, changed)
		// The status's checks of the codex (tens of milliseconds at
		// 10,000 entries) wait for a pause in the requests too.
		_ = p.gate.yield(s.ctx)
		s.publishStatus(s.ctx, p)
	}
	// What the cold start learned is kept now, before the search index
	// starts to build: a session killed from here on leaves the next
	// start warm. Requests do not wait for it.
	p.keepLearned(s.log)
	s.publishStatus(s.ctx, p)
	s.buildIndex(p, prog)
	if msg := p.userConfigProblem(); msg != "" {
		s.showMessage(s.ctx, protocol.MessageTypeWarning, "quire: "+msg)
	}
	if p.locked {
		s.showMessage(s.ctx, protocol.MessageTypeWarning, "quire: another quire process is using this book's index; this session keeps its own in memory")
	}
	s.offerTrust(p)
	if off := p.ms.Snapshot().NotDownloaded(); len(off) > 0 {
		// iCloud keeps only a placeholder of these on this Mac: say so,
		// rather than let the chapters be silently missing.
		them := "them"
		if len(off) == 1 {
			them = "it"
		}
		s.showMessage(s.ctx, protocol.MessageTypeWarning, fmt.Sprintf(
			"quire: %s: %s in iCloud Drive but not downloaded to this Mac (%s), so quire cannot read %s. Download %s in Finder (Download Now).",
			filepath.Base(p.root), count.Of(len(off), "chapter"), codex.PrintableName(strings.Join(off, ", ")), them, them))
	}
	if un := p.ms.Snapshot().Unreadable(); len(un) > 0 {
		// Said once at the start as well as on each file, for editors
		// that show only the open files' diagnostics.
		names := make([]string, 0, min(len(un), 5))
		for _, u := range un[:min(len(un), 5)] {
			names = append(names, codex.PrintableName(u.Path))
		}
		if len(un) > 5 {
			names = append(names, fmt.Sprintf("and %d more", len(un)-5))
		}
		s.showMessage(s.ctx, protocol.MessageTypeWarning, fmt.Sprintf(
			"quire: %s: %s cannot be read and %s left out of the manuscript (%s); each file's problem says why and what to do.",
			filepath.Base(p.root), count.Of(len(un), "chapter"), map[bool]string{true: "is", false: "are"}[len(un) == 1], strings.Join(names, ", ")))
	}
	s.publishCodexProblems(s.ctx, p)
	s.publishDiagnostics(s.ctx, p.uri(configFile))
	s.republishOpen()
	p.sendSeriesProblemsFirst(func() { s.publishCodexProblems(s.ctx, p) })
	if s.opts.beforeWatch != nil {
		s.opts.beforeWatch(p.root)
	}
	p.watch(s.ctx, s.log, changed)
}

// workspaceCapabilities says that one quire serves several folders: it
// reads every workspace folder of initialize, and opens the book of any
// document opened in no open book (discoverBook), or answers for it as
// a series file of an open book (seriesBookFor). So a client that starts
// one server per root (Helix) sends the files of another root, such as
// an open book's series folder, to this server rather than starting a
// second quire that would take the series for a book of its own. quire
// needs no notice of folders added later: it finds their books from
// their documents, so it asks for none.
func workspaceCapabilities() *protocol.ServerCapabilitiesWorkspace {
	return &protocol.ServerCapabilitiesWorkspace{
		WorkspaceFolders: &protocol.ServerCapabilitiesWorkspaceFolders{Supported: true, ChangeNotifications: false},
	}
}

// serverInfo names quire and its build to the client; the VS Code
// extension compares the leading release number with its own.
func (s *Server) serverInfo() *protocol.ServerInfo {
	v := s.opts.Version
	if v == "" {
		v = "devel"
	}
	return &protocol.ServerInfo{Name: "quire", Version: v}
}
