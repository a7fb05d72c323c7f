package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quire-ink/quire/llm/provider"
	"github.com/quire-ink/quire/llm/toolloop"
)

// ImplementationName is the implementation name quire gives MCP clients.
const ImplementationName = "quire"

// mcpInstructions tell an MCP client what the tools are for and what they
// never do.
const mcpInstructions = "quire serves one novel's canon (the codex: characters, locations, organizations, " +
	"items, concepts, events, style rules) and its manuscript. Every tool returns a JSON envelope " +
	"{ok, data, warnings, errors}; when ok is false, errors carry a stable code and a message saying " +
	"how to call again. The propose_* tools are review-only: they return a proposal with its unified " +
	"diff for the writer to review, and nothing is ever written to the book."

// reviewOnlyNote is appended to a propose tool's description that does not
// already say that nothing is written.
const reviewOnlyNote = " Review-only: the proposal comes back with its diff and nothing is written."

// ServerOptions configure NewServer. The zero value is usable.
type ServerOptions struct {
	// Version is the implementation version sent to clients; empty takes
	// the binary's module version, or "devel".
	Version string
	// Logger receives the SDK's session events and one line per tool
	// call (tool, ok, error code, duration, argument size: never
	// arguments or results, which carry prose). Nil logs nothing.
	Logger *slog.Logger
	// ProposalDiff finds, by id, the unified diff of a proposal in the
	// store the registry's propose tools keep their proposals in. When
	// set, a proposal a tool returns comes back with its diff (data.diff),
	// which an MCP client, having no editor to show the edit in, needs to
	// review it. ok is false for an unknown proposal.
	ProposalDiff func(id string) (diff string, ok bool)
}

// NewServer returns an MCP server offering every tool of reg under the
// same name, description and JSON schema. Calls go through a Dispatcher
// with lim, so an MCP client meets the same argument validation, size
// guards and envelope as the advisor's model: the result is the envelope's
// JSON as one text content, with IsError set when the envelope is not ok.
// Run it with (*mcp.Server).Run on a transport.
func NewServer(reg *toolloop.Registry, lim toolloop.Limits, opts ServerOptions) *mcp.Server {
	version := opts.Version
	if version == "" {
		version = binaryVersion()
	}
	sopts := &mcp.ServerOptions{Instructions: mcpInstructions}
	if opts.Logger != nil {
		sopts.Logger = opts.Logger
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: ImplementationName, Version: version}, sopts)
	d := toolloop.NewDispatcher(reg, lim)
	for _, t := range reg.Tools() {
		srv.AddTool(mcpTool(t), mcpHandler(d, t.Name, opts))
	}
	return srv
}

// IsProposeTool reports whether the tool called name proposes a canon
// change (review-only) rather than reading the book.
func IsProposeTool(name string) bool { return strings.HasPrefix(name, "propose_") }

// mcpTool describes t to MCP clients. The schema goes through as raw JSON,
// exactly as the model sees it.
func mcpTool(t provider.Tool) *mcp.Tool {
	schema, err := json.Marshal(t.Parameters)
	if err != nil {
		// NewRegistry has checked the schema; it is plain JSON data.
		panic(fmt.Sprintf("tool %s: schema: %v", t.Name, err))
	}
	closed := false
	tool := &mcp.Tool{
		Name:        t.Name,
		Description: t.Description,
		InputSchema: json.RawMessage(schema),
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &closed},
	}
	if IsProposeTool(t.Name) {
		// A proposal is kept for the session (so not read-only in the
		// strict sense), but it only adds and never touches the book.
		tool.Annotations = &mcp.ToolAnnotations{DestructiveHint: &closed, OpenWorldHint: &closed}
		if !strings.Contains(strings.ToLower(tool.Description), "nothing is") {
			tool.Description += reviewOnlyNote
		}
	}
	return tool
}

// mcpHandler runs one tools/call through the dispatcher.
func mcpHandler(d *toolloop.Dispatcher, name string, opts ServerOptions) mcp.ToolHandler {
	logger := opts.Logger
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var args []byte
		if req != nil && req.Params != nil {
			args = req.Params.Arguments
		}
		if bytes.Equal(bytes.TrimSpace(args), []byte("null")) {
			// "arguments": null is a tool without arguments, as absent is.
			args = nil
		}
		res := d.Call(ctx, name, string(args))
		if res.Envelope.OK && opts.ProposalDiff != nil && IsProposeTool(name) {
			res.JSON = WithProposalDiff(res.JSON, opts.ProposalDiff, d.Limits().MaxOutputBytes)
		}
		if logger != nil {
			code := ""
			if len(res.Envelope.Errors) > 0 {
				code = res.Envelope.Errors[0].Code
			}
			logger.Debug("mcp tool call", "tool", name, "ok", res.Envelope.OK, "code", code,
				"ms", res.Duration.Milliseconds(), "argBytes", len(args), "outBytes", len(res.JSON))
		}
		return &mcp.CallToolResult{
			Content: []mcp.Content{&mcp.TextContent{Text: res.JSON}},
			IsError: !res.Envelope.OK,
		}, nil
	}
}

// WithProposalDiff adds the unified diff of the proposal an envelope names
// (data.proposalId) to its data. When the diff would take the envelope over
// maxBytes, it is left out with a warning: the proposal itself stands.
func WithProposalDiff(envJSON string, proposalDiff func(id string) (string, bool), maxBytes int) string {
	var env map[string]json.RawMessage
	if err := json.Unmarshal([]byte(envJSON), &env); err != nil {
		return envJSON
	}
	var data map[string]json.RawMessage
	if err := json.Unmarshal(env["data"], &data); err != nil {
		return envJSON
	}
	var id string
	if err := json.Unmarshal(data["proposalId"], &id); err != nil || id == "" {
		return envJSON
	}
	pdiff, ok := proposalDiff(id)
	if !ok || pdiff == "" {
		return envJSON
	}
	diff, err := marshalNoEscape(pdiff)
	if err != nil {
		return envJSON
	}
	data["diff"] = diff
	out, err := reencodeEnvelope(env, data)
	if err != nil {
		return envJSON
	}
	if len(out) <= maxBytes {
		return out
	}
	var warnings []string
	_ = json.Unmarshal(env["warnings"], &warnings)
	warnings = append(warnings, fmt.Sprintf("the diff of proposal %s (%d bytes) is too large to include; the proposal is kept for the writer to review", id, len(pdiff)))
	w, err := marshalNoEscape(warnings)
	if err != nil {
		return envJSON
	}
	env["warnings"] = w
	delete(data, "diff")
	if out, err := reencodeEnvelope(env, data); err == nil && len(out) <= maxBytes {
		return out
	}
	return envJSON
}

func reencodeEnvelope(env, data map[string]json.RawMessage) (string, error) {
	d, err := marshalNoEscape(data)
	if err != nil {
		return "", err
	}
	env["data"] = d
	// Keep the envelope's field order: ok, data, warnings, errors.
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, key := range []string{"ok", "data", "warnings", "errors"} {
		if i > 0 {
			buf.WriteByte(',')
		}
		v, ok := env[key]
		if !ok {
			return "", fmt.Errorf("envelope has no %s", key)
		}
		fmt.Fprintf(&buf, "%q:", key)
		buf.Write(v)
	}
	buf.WriteByte('}')
	return buf.String(), nil
}

// marshalNoEscape encodes v without HTML escaping, as envelopes are.
func marshalNoEscape(v any) (json.RawMessage, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// binaryVersion is the main module's version as the go tool stamped it.
func binaryVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		if v := info.Main.Version; v != "" && v != "(devel)" {
			return v
		}
	}
	return "devel"
}
