package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex/settings"
	"github.com/quire-ink/quire/codex/trust"
	"github.com/quire-ink/quire/llm/keys"
	"github.com/quire-ink/quire/llm/localmodel"
	mbook "github.com/quire-ink/quire/manuscript/book"
	"github.com/quire-ink/quire/server/wire"
)

// Options configure a Server. The zero value is ready to use.
type Options struct {
	// CacheDir overrides where project indexes live (tests use it).
	CacheDir string
	// TrustFile overrides where the record of trusted books is kept
	// (tests use it); empty is the user config folder's trust.json.
	TrustFile string
	// Logger receives methods, paths, counts and timings, never prose.
	// The default discards everything.
	Logger *slog.Logger
	// Version is the serverInfo.version the client is told: the release
	// number first, then how the binary was built. Empty is "devel".
	Version string
	// Keys is where the writer's stored API keys are looked up (the
	// system keychain, the key file); nil looks in neither, and keys come
	// from the editor or the environment only.
	Keys *keys.Store
	// LocalModels say which local model servers quire/models asks; the
	// zero value asks the usual ports (localmodel.DefaultServers).
	LocalModels localmodel.Options

	// extraRequests adds request methods; tests use it for requests that
	// block or panic on demand.
	extraRequests map[string]requestHandler
	// synced is called each time a document's text is handed to its
	// book (edit_queue.go), which scans it whole; tests count the calls.
	synced func(rel string, version int32)
	// settingsSources replaces where a book's settings files are read
	// from; tests count the reads through it.
	settingsSources func(root string) settings.Sources
	// shelf holds the series stores the session's books share (New
	// makes it).
	shelf *mbook.Shelf
	// beforeWatch, when set, runs once a book has loaded and before its
	// watcher starts: tests change files in that gap, which no event
	// reports.
	beforeWatch func(root string)
	// now is the clock of the books' writing history; nil is time.Now.
	// Tests turn it past midnight.
	now func() time.Time
	// holdIndex, when set, holds every book's search index back until it
	// closes; tests see the book answer before its index.
	holdIndex <-chan struct{}
}

// lifecycle is where the session stands, as the LSP spec orders it.
type lifecycle int

const (
	stateNew lifecycle = iota
	stateInitialized
	stateShutDown
)

// Server is one LSP session over one connection.
type Server struct {
	opts Options
	log  *slog.Logger
	conn jsonrpc2.Conn

	// mu guards the session state below; features read documents and
	// projects through snapshots taken under it.
	mu       sync.Mutex
	state    lifecycle
	inflight map[jsonrpc2.ID]context.CancelFunc
	client   protocol.ClientCapabilities
	// names writes file URIs as the client does (uri.go).
	names *uriNames
	// sess is the workspace: its books and open documents (session.go),
	// under a lock of its own.
	sess *session
	// clientCfg is the advisor settings the editor sent.
	clientCfg clientConfig
	// localSeen is what the local model servers offered lately, for the
	// code actions that choose one (models.go).
	localSeen localModelCache
	// convs are the conversations with the advisors.
	convs conversations
	// running is the work the writer can cancel from its progress.
	running cancellable
	// tokens numbers the work-done progress tokens the server creates.
	tokens atomic.Uint64
	// trust is the record of trusted books; nil trusts none.
	trust *trust.Store
	// diagTimers and diagRuns are keyed by docKey, as the session's
	// documents are. diagTimers debounce each document's diagnostics.
	diagTimers map[protocol.DocumentURI]*time.Timer
	// diagRuns cancel each document's publication under way.
	diagRuns map[protocol.DocumentURI]*diagRun

	// exitCode is set by the exit notification; done closes then.
	exitOnce sync.Once
	exitCode int
	done     chan struct{}
	// work tracks request goroutines and background loads, so Serve
	// returns only when they are over.
	work sync.WaitGroup
	// requests, notifications and cmds route methods and commands to
	// their handlers; built once in New.
	requests      map[string]requestHandler
	notifications map[string]notificationHandler
	cmds          map[string]requestHandler
	// cancel ends background work (project loading, watchers).
	ctx    context.Context
	cancel context.CancelFunc
	// hmu is held while a message is handled; Serve sets stopped under it
	// so that no message starts work once Serve waits for the work.
	hmu     sync.Mutex
	stopped bool
}

// New returns a server ready to Serve one connection.
func New(opts Options) *Server {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if opts.shelf == nil {
		opts.shelf = mbook.NewShelf()
	}
	s := &Server{
		opts:       opts,
		log:        log,
		inflight:   map[jsonrpc2.ID]context.CancelFunc{},
		sess:       newSession(),
		diagTimers: map[protocol.DocumentURI]*time.Timer{},
		diagRuns:   map[protocol.DocumentURI]*diagRun{},
		done:       make(chan struct{}),
		names:      &uriNames{},
	}
	s.requests, s.notifications, s.cmds = s.handlers()
	s.trust = openTrust(opts.TrustFile, log)
	return s
}

// Serve speaks LSP on rwc until the client sends exit or the connection
// ends. The exit code follows the spec: 0 after an orderly shutdown,
// 1 otherwise.
func (s *Server) Serve(ctx context.Context, rwc io.ReadWriteCloser) int {
	s.ctx, s.cancel = context.WithCancel(ctx)
	defer s.cancel()
	s.conn = jsonrpc2.NewConn(newStream(rwc))
	s.conn.Go(s.ctx, s.handle)
	select {
	case <-s.done:
	case <-s.conn.Done():
		s.log.Debug("connection closed", "err", s.conn.Err())
	case <-ctx.Done():
	}
	s.cancel()
	_ = s.conn.Close()
	// Stop handling messages instead of waiting for the read loop to end:
	// closing os.Stdin does not interrupt a pending read from a blocking
	// pipe, and editors wait for the process to end after exit with its
	// stdin still open. Once stopped, no message starts work, so waiting
	// for the work is safe; the read loop ends when its read does.
	s.hmu.Lock()
	s.stopped = true
	s.hmu.Unlock()
	s.work.Wait()
	s.closeProjects()
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case <-s.done:
		return s.exitCode
	default:
		if s.state == stateShutDown {
			return 0
		}
		return 1
	}
}

// handle receives every message in the order the client sent it. It
// never returns an error: the library closes the connection on one.
// Notifications run here, in order; requests run on their own
// goroutines, so a slow one never holds up hover.
func (s *Server) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	s.hmu.Lock()
	defer s.hmu.Unlock()
	if s.stopped {
		return nil
	}
	switch r := req.(type) {
	case *jsonrpc2.Notification:
		s.protect(r.Method(), func() { s.notification(ctx, r) })
	case *jsonrpc2.Call:
		s.call(ctx, reply, r)
	}
	return nil
}

// protect runs f, turning a panic into a log line: one bad message must
// not end the session.
func (s *Server) protect(method string, f func()) (panicked bool) {
	defer func() {
		if r := recover(); r != nil {
			s.log.Error("handler panicked", "method", method, "panic", fmt.Sprint(r))
			panicked = true
		}
	}()
	f()
	return false
}

func (s *Server) call(ctx context.Context, reply jsonrpc2.Replier, call *jsonrpc2.Call) {
	method := call.Method()
	s.mu.Lock()
	state := s.state
	s.mu.Unlock()
	switch {
	// Shut down comes first: an initialize after shutdown must not bring
	// the session back.
	case state == stateShutDown:
		_ = reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "the server is shut down"))
		return
	case method == protocol.MethodInitialize && state == stateInitialized:
		_ = reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "initialize was already received"))
		return
	case method == protocol.MethodInitialize:
		s.protectedReply(ctx, reply, method, func() (any, error) { return s.requests[method](ctx, call.Params()) })
		return
	case state == stateNew:
		_ = reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.ServerNotInitialized, "the server is not initialized yet"))
		return
	case method == protocol.MethodShutdown:
		s.mu.Lock()
		s.state = stateShutDown
		s.mu.Unlock()
		_ = reply(ctx, nil, nil)
		return
	}
	h, ok := s.requests[method]
	if !ok {
		_ = reply(ctx, nil, fmt.Errorf("%q: %w", method, jsonrpc2.ErrMethodNotFound))
		return
	}
	reqCtx, cancel := context.WithCancel(s.ctx)
	id := call.ID()
	s.mu.Lock()
	s.inflight[id] = cancel
	s.mu.Unlock()
	s.work.Add(1)
	go func() {
		defer s.work.Done()
		defer func() {
			s.mu.Lock()
			delete(s.inflight, id)
			s.mu.Unlock()
			cancel()
		}()
		s.protectedReply(reqCtx, reply, method, func() (any, error) { return h(reqCtx, call.Params()) })
	}()
}

// protectedReply runs a request handler and replies exactly once: with
// its result, its error, RequestCancelled when the request was cancelled,
// or InternalError when it panicked.
func (s *Server) protectedReply(ctx context.Context, reply jsonrpc2.Replier, method string, f func() (any, error)) {
	var result any
	var err error
	if s.protect(method, func() { result, err = f() }) {
		result, err = nil, jsonrpc2.NewError(jsonrpc2.InternalError, fmt.Sprintf("%s failed inside quire; the server keeps running", method))
	}
	if ctx.Err() != nil && s.ctx.Err() == nil {
		result, err = nil, protocol.ErrRequestCancelled
	}
	var jerr *jsonrpc2.Error
	if err != nil {
		if errors.As(err, &jerr) {
			// A wrapped one (toldError) goes out as itself.
			err = jerr
		} else {
			err = jsonrpc2.NewError(jsonrpc2.InternalError, err.Error())
		}
	}
	// The reply goes out on a context of its own: the request's may be
	// cancelled, and a cancelled request still gets its answer.
	if rerr := reply(context.WithoutCancel(ctx), result, err); rerr != nil {
		s.log.Debug("reply not sent", "method", method, "err", rerr)
	}
}

func (s *Server) notification(ctx context.Context, n *jsonrpc2.Notification) {
	method := n.Method()
	if method == protocol.MethodExit {
		s.exit()
		return
	}
	if method == protocol.MethodCancelRequest {
		s.cancelRequest(n.Params())
		return
	}
	s.mu.Lock()
	state := s.state
	s.mu.Unlock()
	if state != stateInitialized {
		// Before initialize and after shutdown, notifications other than
		// exit are dropped, as the spec says.
		return
	}
	if h, ok := s.notifications[method]; ok {
		if err := h(ctx, n.Params()); err != nil {
			s.log.Warn("notification failed", "method", method, "err", err)
		}
	}
}

// exit ends Serve: 0 after shutdown, 1 otherwise.
func (s *Server) exit() {
	s.exitOnce.Do(func() {
		s.mu.Lock()
		if s.state == stateShutDown {
			s.exitCode = 0
		} else {
			s.exitCode = 1
		}
		s.mu.Unlock()
		close(s.done)
	})
}

// cancelRequest cancels an in-flight request. Clients send numeric ids
// (VS Code, Neovim) as often as string ones; both are read.
func (s *Server) cancelRequest(params json.RawMessage) {
	var p struct {
		ID json.RawMessage `json:"id"`
	}
	// validID first: null unmarshals into num without an error, and
	// would cancel request 0.
	if err := json.Unmarshal(params, &p); err != nil || !validID(p.ID) {
		return
	}
	var id jsonrpc2.ID
	var num int32
	var str string
	switch {
	case json.Unmarshal(p.ID, &num) == nil:
		id = jsonrpc2.NewNumberID(num)
	case json.Unmarshal(p.ID, &str) == nil:
		id = jsonrpc2.NewStringID(str)
	default:
		return
	}
	s.mu.Lock()
	cancel := s.inflight[id]
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// requestHandler answers a request's params as they came on the wire;
// notificationHandler takes a notification's.
type requestHandler func(ctx context.Context, params json.RawMessage) (any, error)
type notificationHandler func(ctx context.Context, params json.RawMessage) error

// handlers is the one table of everything quire answers: the LSP
// requests and notifications, quire's custom quire/* requests, and the
// workspace/executeCommand commands (the custom requests again, for
// clients such as Helix that cannot send custom methods; a command takes
// one argument, the request's params object). Each entry decodes the
// params once, into the Go type its method takes; from there handlers
// call each other with Go values. Built once in New.
func (s *Server) handlers() (requests map[string]requestHandler, notifications map[string]notificationHandler, commands map[string]requestHandler) {
	requests = map[string]requestHandler{
		protocol.MethodInitialize:                 typed(s.initialize),
		protocol.MethodTextDocumentHover:          typed(s.hover),
		protocol.MethodTextDocumentDefinition:     typed(s.definition),
		protocol.MethodTextDocumentCompletion:     typed(s.completion),
		protocol.MethodTextDocumentDocumentSymbol: typed(s.documentSymbol),
		protocol.MethodWorkspaceSymbol:            typed(s.workspaceSymbol),
		protocol.MethodTextDocumentReferences:     typed(s.references),
		protocol.MethodTextDocumentPrepareRename:  typed(s.prepareRename),
		protocol.MethodTextDocumentRename:         typed(s.rename),
		protocol.MethodTextDocumentCodeAction:     typed(s.codeAction),
		protocol.MethodWorkspaceExecuteCommand:    typed(s.executeCommand),

		wire.MethodLookup:                   typed(s.quireLookup),
		wire.MethodSearch:                   typed(s.quireSearch),
		wire.MethodList:                     optional(s.quireList),
		wire.MethodManuscriptContext:        typed(s.quireManuscriptContext),
		wire.MethodCaptureSelection:         typed(s.quireCaptureSelection),
		wire.MethodStatus:                   bare(s.quireStatus),
		wire.MethodReindex:                  optional(s.quireReindex),
		wire.MethodActions:                  optional(s.quireActions),
		wire.MethodPersonas:                 bare(s.quirePersonas),
		wire.MethodAsk:                      typed(s.quireAsk),
		wire.MethodPeekPrompt:               typed(s.quirePeekPrompt),
		wire.MethodProposals:                optional(s.quireProposals),
		wire.MethodApplyProposal:            typed(s.quireApplyProposal),
		wire.MethodDiscardProposal:          typed(s.quireDiscardProposal),
		wire.MethodPropose:                  typed(s.quirePropose),
		wire.MethodExplicate:                typed(s.quireExplicate),
		wire.MethodDoctor:                   optional(s.quireDoctor),
		wire.MethodModels:                   bare(s.quireModels),
		wire.MethodStats:                    optional(s.quireStats),
		protocol.MethodTextDocumentCodeLens: typed(s.codeLens),
	}
	for m, h := range s.opts.extraRequests {
		requests[m] = h
	}
	notifications = map[string]notificationHandler{
		protocol.MethodInitialized:                     bareNote(s.initialized),
		protocol.MethodTextDocumentDidOpen:             note(decode[protocol.DidOpenTextDocumentParams], s.didOpen),
		protocol.MethodTextDocumentDidChange:           note(decodeDidChange, s.didChange),
		protocol.MethodTextDocumentDidClose:            note(decode[protocol.DidCloseTextDocumentParams], s.didClose),
		protocol.MethodWorkspaceDidChangeConfiguration: note(unmarshal[didChangeConfigurationParams], s.didChangeConfiguration),
		protocol.MethodWorkDoneProgressCancel:          note(unmarshal[workDoneProgressCancelParams], s.workDoneProgressCancel),
	}
	// Commands that show their outcome to the writer (canon.go, explicate.go,
	// ask.go, peek_prompt.go, proposals.go) differ from their requests;
	// the others are the requests themselves.
	commands = map[string]requestHandler{
		wire.CommandLookup:            typed(s.quireLookupCommand),
		wire.CommandSearch:            typed(s.quireSearch),
		wire.CommandList:              optional(s.quireList),
		wire.CommandManuscriptContext: typed(s.quireManuscriptContext),
		wire.CommandCaptureSelection:  typed(s.quireCaptureSelection),
		wire.CommandStatus:            bare(s.quireStatus),
		wire.CommandReindex:           optional(s.quireReindex),
		wire.CommandActions:           optional(s.quireActions),
		wire.CommandPersonas:          bare(s.quirePersonas),
		wire.CommandAsk:               typed(s.quireAskCommand),
		wire.CommandPeekPrompt:        typed(s.quirePeekPromptCommand),
		wire.CommandProposals:         optional(s.quireProposals),
		wire.CommandApplyProposal:     typed(s.quireApplyProposalCommand),
		wire.CommandDiscardProposal:   typed(s.quireDiscardProposal),
		wire.CommandPropose:           typed(s.quirePropose),
		wire.CommandExplicate:         typed(s.quireExplicateCommand),
		wire.CommandCreateEntry:       typed(s.quireCreateEntry),
		wire.CommandBookMap:           optional(s.quireBookMap),
		wire.CommandDoctor:            optional(s.quireDoctorCommand),
		wire.CommandModels:            bare(s.quireModels),
		wire.CommandUseModel:          typed(s.quireUseModel),
		wire.CommandWordCounts:        optional(s.quireWordCounts),
	}
	return requests, notifications, commands
}

// typed adapts a handler of params P: they are required.
func typed[P, R any](h func(context.Context, P) (R, error)) requestHandler {
	return func(ctx context.Context, params json.RawMessage) (any, error) {
		p, err := decode[P](params)
		if err != nil {
			return nil, err
		}
		return h(ctx, p)
	}
}

// optional adapts a handler whose params may be left out (or null): it
// then gets P's zero value.
func optional[P, R any](h func(context.Context, P) (R, error)) requestHandler {
	return func(ctx context.Context, params json.RawMessage) (any, error) {
		var p P
		if len(params) > 0 && string(params) != "null" {
			var err error
			if p, err = decode[P](params); err != nil {
				return nil, err
			}
		}
		return h(ctx, p)
	}
}

// bare adapts a handler that takes no params; any sent are ignored.
func bare[R any](h func(context.Context) (R, error)) requestHandler {
	return func(ctx context.Context, _ json.RawMessage) (any, error) { return h(ctx) }
}

// note adapts a notification handler, its params read by dec.
func note[P any](dec func(json.RawMessage) (P, error), h func(context.Context, P) error) notificationHandler {
	return func(ctx context.Context, params json.RawMessage) error {
		p, err := dec(params)
		if err != nil {
			return err
		}
		return h(ctx, p)
	}
}

// bareNote adapts a notification handler that takes no params.
func bareNote(h func(context.Context) error) notificationHandler {
	return func(ctx context.Context, _ json.RawMessage) error { return h(ctx) }
}

// unmarshal reads params into T as json.Unmarshal does, missing params
// an error; notifications that tolerate more than decode does use it.
func unmarshal[T any](params json.RawMessage) (T, error) {
	var v T
	err := json.Unmarshal(params, &v)
	return v, err
}

// decode reads params into T, or fails with InvalidParams.
func decode[T any](params json.RawMessage) (T, error) {
	var v T
	if len(params) == 0 {
		return v, jsonrpc2.NewError(jsonrpc2.InvalidParams, "params are missing")
	}
	if err := json.Unmarshal(params, &v); err != nil {
		return v, jsonrpc2.NewError(jsonrpc2.InvalidParams, "invalid params: "+err.Error())
	}
	return v, nil
}
