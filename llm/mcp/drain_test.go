package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/llm/provider"
	"github.com/quire-ink/quire/llm/toolloop"
)

type nopWriter struct{ io.Writer }

func (nopWriter) Close() error { return nil }

// serveMCPInput serves a registry with one tool, run, to the whole input
// and returns what was written and how long the session lasted.
func serveMCPInput(t *testing.T, run func(ctx context.Context) (any, []string, error), wait time.Duration) (string, time.Duration) {
	t.Helper()
	reg, err := toolloop.NewRegistry(provider.Tool{Name: "slow_tool", Description: "Takes its time.",
		Parameters: map[string]any{"type": "object", "properties": map[string]any{}},
		Run:        func(ctx context.Context, _ json.RawMessage) (any, []string, error) { return run(ctx) }})
	require.NoError(t, err)
	srv := NewServer(reg, toolloop.Limits{}, ServerOptions{Version: "test"})
	in := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}` + "\n" +
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow_tool","arguments":{}}}` + "\n"
	var out bytes.Buffer
	start := time.Now()
	err = srv.Run(t.Context(), DrainingTransport(&mcp.IOTransport{Reader: io.NopCloser(strings.NewReader(in)), Writer: nopWriter{&out}}, wait))
	_ = err // the session ends with the input: io.EOF or a closed connection
	return out.String(), time.Since(start)
}

func TestDrainingTransportAnswersASlowCall(t *testing.T) {
	out, _ := serveMCPInput(t, func(context.Context) (any, []string, error) {
		time.Sleep(300 * time.Millisecond)
		return map[string]any{"done": true}, nil, nil
	}, 5*time.Second)
	assert.Contains(t, out, `"id":1`, "the call in flight at EOF is answered")
	assert.Contains(t, out, `done`)
}

func TestDrainingTransportWaitIsBounded(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	_, took := serveMCPInput(t, func(ctx context.Context) (any, []string, error) {
		select {
		case <-release:
		case <-ctx.Done():
		}
		return nil, nil, ctx.Err()
	}, 200*time.Millisecond)
	assert.Less(t, took, 3*time.Second, "a call that never ends does not hold the server")
}
