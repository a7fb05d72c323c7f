package server

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"
)

// TestApplyEditReadsTheClientsAnswer drives workspace/applyEdit through a
// real pipe: both fields of the client's answer arrive.
func TestApplyEditReadsTheClientsAnswer(t *testing.T) {
	for _, tt := range []struct {
		name   string
		answer map[string]any
		want   applyEditResult
	}{
		{"applied", map[string]any{"applied": true}, applyEditResult{Applied: true}},
		{"refused with a reason", map[string]any{"applied": false, "failureReason": "the file changed"}, applyEditResult{FailureReason: "the file changed"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := New(Options{CacheDir: t.TempDir()})
			c := startServerWith(t, srv)
			c.mu.Lock()
			c.answers = map[string]any{protocol.MethodWorkspaceApplyEdit: tt.answer}
			c.mu.Unlock()
			c.initialize(writeProject(t, bookFiles))
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			got, err := srv.applyEdit(ctx, "quire test", protocol.WorkspaceEdit{})
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			assert.Len(t, c.sent(protocol.MethodWorkspaceApplyEdit), 1)
		})
	}
}
