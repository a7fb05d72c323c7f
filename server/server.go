package server

import (
	"context"
	"encoding/json"
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
	"github.com/quire-ink/quire/server/textdoc"
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
	// Started, when set, is called once the books the editor opened the
	// session with have loaded and found their names (or failed to), or
	// when it opened none: the start is over. quire serve lets the
	// collector wait until then (memory_limit.go).
	Started func()
	// Settled, when set, is called once those books' background work
	// after the start is over too: the search index a cold start
	// builds behind the first answers is built (or failed). quire serve
	// holds the heap tighter from then on (memory_limit.go).
	Settled func()
	// ParsingAll, when set, is called when a book opens with no saved
	// state of its codex and parses every entry (a cold start). quire
	// serve holds the heap tighter through such a start
	// (memory_limit.go).
	ParsingAll func()

	// extraRequests adds request methods; tests use it for requests that
	// block or panic on demand.
	extraRequests map[string]requestHandler
	// synced is called each time a document's text is handed to its
	// book (edit_queue.go), which scans it whole; tests count the calls.
	synced func(rel string, version int32)
	// diagnosed is called with the time each publication of the
	// debounce took to compute, before it waits to be sent; benchmarks
	// report the work, which the debounce now hides.
	diagnosed func(took time.Duration)
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
	// published orders the diagnostics publishDiagnosticsAt sends.
	published publishOrder

	// mu guards the session state below; features read documents and
	// projects through snapshots taken under it.
	mu       sync.Mutex
	state    lifecycle
	inflight map[jsonrpc2.ID]context.CancelFunc
	// admit caps the requests in flight (admission.go).
	admit *admission
	// gate tells background work when requests are in flight (yield.go).
	gate   requestGate
	client protocol.ClientCapabilities
	// names writes file URIs as the client does (textdoc.Names).
	names *textdoc.Names
	// sess is the workspace: its books and open documents (session.go),
	// under a lock of its own.
	sess *session
	// queued orders didChange's recording of an editor text and its
	// queueing for the book against diagnosticsFor's reading of it:
	// a text read under it is queued already, so the edits applied after
	// hold it (or a newer one, which the publication then drops).
	queued sync.Mutex
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
	// semantic keeps each document's last semantic tokens for the delta
	// of the next request (semantic_tokens.go).
	semantic tokenResults
	// hintsOn, when set, is the writer's choice from the command that
	// turns speaker hints on and off, over the editor's setting
	// (inlay_hints.go).
	hintsOn atomic.Pointer[bool]
	// redrawing says a request to draw the chapters' colours and hints
	// again is on its way (redrawDialogue); tokensRefresh that the
	// client said it takes such a request for its semantic tokens.
	redrawing     atomic.Bool
	tokensRefresh atomic.Bool
	// trust is the record of trusted books; nil trusts none.
	trust *trust.Store
	// diagTimers and diagRuns are keyed by textdoc.DocKey, as the session's
	// documents are. diagTimers debounce each document's diagnostics.
	diagTimers map[protocol.DocumentURI]*diagTimer
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
		admit:      newAdmission(maxRequestsInFlight),
		sess:       newSession(),
		diagTimers: map[protocol.DocumentURI]*diagTimer{},
		diagRuns:   map[protocol.DocumentURI]*diagRun{},
		done:       make(chan struct{}),
		names:      &textdoc.Names{},
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

// requestHandler answers a request's params as they came on the wire;
// notificationHandler takes a notification's.
type requestHandler func(ctx context.Context, params json.RawMessage) (any, error)
type notificationHandler func(ctx context.Context, params json.RawMessage) error
