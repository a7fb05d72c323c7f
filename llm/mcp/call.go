package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quire-ink/quire/llm/toolloop"
)

// One call of an MCP tool: run through the Dispatcher like a built-in tool,
// bounded by the server's timeout, its failures told apart (the server's
// own error for the model, a dead or unreachable server for the writer).

// runner is the Run of one MCP tool.
func (r *mcpRemote) runner(name, remoteName string) func(context.Context, json.RawMessage) (any, []string, error) {
	return func(ctx context.Context, args json.RawMessage) (any, []string, error) {
		start := time.Now()
		data, warnings, err := r.call(ctx, remoteName, args)
		code := ""
		var te *toolloop.ToolError
		if errors.As(err, &te) {
			code = te.Code
		}
		r.pool.logger.Debug("mcp tool call", "server", r.cfg.Name, "tool", name, "ok", err == nil, "code", code,
			"ms", time.Since(start).Milliseconds(), "argBytes", len(args))
		return data, warnings, err
	}
}

// mcpResult is the data of a successful MCP call.
type mcpResult struct {
	// Content is the result's text contents, joined by newlines.
	Content string `json:"content"`
	// Structured is the result's structured content, when it has one.
	Structured any `json:"structured,omitempty"`
}

// call runs one tools/call, connecting first if need be.
func (r *mcpRemote) call(parent context.Context, tool string, args json.RawMessage) (any, []string, error) {
	timeout := r.cfg.timeout()
	ctx, cancel := context.WithTimeout(parent, timeout)
	defer cancel()
	c, err := r.session(ctx)
	if err != nil {
		if perr := parent.Err(); perr != nil {
			return nil, nil, perr
		}
		return nil, nil, toolloop.Errorf(CodeFailed, "%v", err)
	}
	if len(bytes.TrimSpace(args)) == 0 {
		args = json.RawMessage("{}")
	}
	res, err := c.session.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		if perr := parent.Err(); perr != nil {
			return nil, nil, perr
		}
		return nil, nil, toolloop.Errorf(CodeFailed, "%v", r.callError(ctx, c, "tools/call "+tool, err))
	}
	r.recovered()
	text, warnings := mcpContentText(res.Content)
	if res.IsError {
		if strings.TrimSpace(text) == "" {
			text = "the tool reported an error without saying why"
		}
		return nil, warnings, toolloop.Errorf(toolloop.CodeToolFailed, "MCP server %s, tool %s: %s", r.cfg.Name, tool, toolloop.ClipRunes(text, maxMCPErrorRunes))
	}
	return mcpResult{Content: text, Structured: res.StructuredContent}, warnings, nil
}

// callError explains a failed request on connection c. A server that
// answered with an error stays connected; a timeout leaves the connection
// as it is (a slow tool is not a dead server); anything else means the
// connection is gone, so it is dropped, reported, and the next use
// reconnects.
func (r *mcpRemote) callError(ctx context.Context, c *mcpConn, what string, err error) error {
	var werr *jsonrpc.Error
	switch {
	case errors.As(err, &werr) && !isLocalRPCError(werr):
		return fmt.Errorf("MCP server %s refused %s: %s", r.cfg.Name, what, toolloop.ClipRunes(werr.Message, maxMCPErrorRunes))
	case errors.Is(ctx.Err(), context.DeadlineExceeded) && !c.ended():
		r.pool.logger.Warn("mcp server did not answer in time", "server", r.cfg.Name, "request", what, "timeout", r.cfg.timeout())
		return fmt.Errorf("MCP server %s did not answer %s within %s", r.cfg.Name, what, r.cfg.timeout())
	}
	reason := c.reason(err)
	failure := r.notRunning("%s", reason)
	r.drop(c, failure)
	return failure
}

// isLocalRPCError reports whether werr was made on quire's side of the
// connection (a request the transport could not deliver, a connection that
// is closing) rather than sent by the server.
func isLocalRPCError(werr *jsonrpc.Error) bool {
	switch werr.Code {
	case -32003, -32004, -32005: // client closing, server closing, rejected by transport
		return true
	}
	return false
}

// mcpContentText joins the text of a result's contents. What cannot be
// shown as text (images, audio, binary resources) is named in its place,
// with a warning.
func mcpContentText(contents []mcp.Content) (string, []string) {
	var parts, warnings []string
	for _, content := range contents {
		switch c := content.(type) {
		case *mcp.TextContent:
			parts = append(parts, c.Text)
		case *mcp.ImageContent:
			parts = append(parts, fmt.Sprintf("[image %s, %d bytes, not shown]", c.MIMEType, len(c.Data)))
			warnings = append(warnings, "an image in the result was left out: only text is passed on")
		case *mcp.AudioContent:
			parts = append(parts, fmt.Sprintf("[audio %s, %d bytes, not shown]", c.MIMEType, len(c.Data)))
			warnings = append(warnings, "audio in the result was left out: only text is passed on")
		case *mcp.ResourceLink:
			parts = append(parts, fmt.Sprintf("[resource %s: %s]", c.Name, c.URI))
		case *mcp.EmbeddedResource:
			if c.Resource == nil {
				continue
			}
			if c.Resource.Text != "" {
				parts = append(parts, c.Resource.Text)
			} else {
				parts = append(parts, fmt.Sprintf("[resource %s, %d bytes, not shown]", c.Resource.URI, len(c.Resource.Blob)))
				warnings = append(warnings, "a binary resource in the result was left out: only text is passed on")
			}
		default:
			warnings = append(warnings, fmt.Sprintf("a %T in the result was left out", content))
		}
	}
	return strings.Join(parts, "\n"), warnings
}
