package server

import (
	"context"
	"encoding/json"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/server/wire"
)

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

		wire.MethodLookup:                      typed(s.quireLookup),
		wire.MethodSearch:                      typed(s.quireSearch),
		wire.MethodList:                        optional(s.quireList),
		wire.MethodManuscriptContext:           typed(s.quireManuscriptContext),
		wire.MethodCaptureSelection:            typed(s.quireCaptureSelection),
		wire.MethodStatus:                      bare(s.quireStatus),
		wire.MethodReindex:                     optional(s.quireReindex),
		wire.MethodActions:                     optional(s.quireActions),
		wire.MethodPersonas:                    bare(s.quirePersonas),
		wire.MethodAsk:                         typed(s.quireAsk),
		wire.MethodPeekPrompt:                  typed(s.quirePeekPrompt),
		wire.MethodProposals:                   optional(s.quireProposals),
		wire.MethodApplyProposal:               typed(s.quireApplyProposal),
		wire.MethodDiscardProposal:             typed(s.quireDiscardProposal),
		wire.MethodPropose:                     typed(s.quirePropose),
		wire.MethodExplicate:                   typed(s.quireExplicate),
		wire.MethodDoctor:                      optional(s.quireDoctor),
		wire.MethodModels:                      bare(s.quireModels),
		wire.MethodStats:                       optional(s.quireStats),
		wire.MethodDialogue:                    typed(s.quireDialogue),
		wire.MethodLinesOf:                     typed(s.linesOf),
		wire.MethodOutline:                     optional(s.quireOutline),
		protocol.MethodSemanticTokensFull:      typed(s.semanticTokensFull),
		protocol.MethodSemanticTokensFullDelta: typed(s.semanticTokensDelta),
		methodInlayHint:                        typed(s.inlayHint),
		protocol.MethodTextDocumentCodeLens:    typed(s.codeLens),
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
		wire.CommandLookup:             typed(s.quireLookupCommand),
		wire.CommandSearch:             typed(s.quireSearch),
		wire.CommandList:               optional(s.quireList),
		wire.CommandManuscriptContext:  typed(s.quireManuscriptContext),
		wire.CommandCaptureSelection:   typed(s.quireCaptureSelection),
		wire.CommandStatus:             bare(s.quireStatus),
		wire.CommandDialogue:           typed(s.quireDialogue),
		wire.CommandLinesOf:            typed(s.linesOfCommand),
		wire.CommandToggleSpeakerHints: bare(s.toggleSpeakerHints),
		wire.CommandReindex:            optional(s.quireReindex),
		wire.CommandActions:            optional(s.quireActions),
		wire.CommandPersonas:           bare(s.quirePersonas),
		wire.CommandAsk:                typed(s.quireAskCommand),
		wire.CommandPeekPrompt:         typed(s.quirePeekPromptCommand),
		wire.CommandProposals:          optional(s.quireProposals),
		wire.CommandApplyProposal:      typed(s.quireApplyProposalCommand),
		wire.CommandDiscardProposal:    typed(s.quireDiscardProposal),
		wire.CommandPropose:            typed(s.quirePropose),
		wire.CommandExplicate:          typed(s.quireExplicateCommand),
		wire.CommandCreateEntry:        typed(s.quireCreateEntry),
		wire.CommandBookMap:            optional(s.quireBookMap),
		wire.CommandDoctor:             optional(s.quireDoctorCommand),
		wire.CommandBuild:              optional(s.quireBuild),
		wire.CommandModels:             bare(s.quireModels),
		wire.CommandUseModel:           typed(s.quireUseModel),
		wire.CommandAddAlias:           typed(s.quireAddAlias),
		wire.CommandAcceptSpelling:     typed(s.quireAcceptSpelling),
		wire.CommandWordCounts:         optional(s.quireWordCounts),
		wire.CommandOutline:            optional(s.quireOutline),
		wire.CommandSetOutline:         typed(s.setOutline),
		wire.CommandProposeSynopsis:    typed(s.proposeSynopsis),
		wire.CommandSnapshotSave:       optional(s.quireSnapshotSave),
		wire.CommandSnapshotList:       optional(s.quireSnapshotList),
		wire.CommandSnapshotText:       typed(s.quireSnapshotText),
		wire.CommandSnapshotRestore:    typed(s.quireSnapshotRestore),
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
