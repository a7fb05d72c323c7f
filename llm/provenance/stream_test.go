package provenance

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/llm/provider"
)

func TestStreamDeltasArriveBeforeTheReplyEnds(t *testing.T) {
	for _, withProvenance := range []bool{false, true} {
		t.Run(fmt.Sprintf("provenance=%v", withProvenance), func(t *testing.T) {
			release := make(chan struct{})
			srv := gatedStream(t, release)
			dir := t.TempDir()
			cfg := provider.Config{BaseURL: srv.URL + "/v1", Model: "m", APIKey: "k", Retries: -1, Stream: true}
			if withProvenance {
				plog, err := Open(dir)
				require.NoError(t, err)
				cfg.HTTPClient = &http.Client{Transport: plog.Transport(nil, "writing-coach", nil)}
			}
			p, err := provider.New(cfg)
			require.NoError(t, err)
			var early []string
			released := false
			c, err := p.Complete(t.Context(), provider.CompletionRequest{Messages: providerTestMessages()[:2], OnDelta: func(s string) {
				if !released {
					early = append(early, s)
					released = true
					close(release)
				}
			}})
			require.NoError(t, err)
			assert.Equal(t, []string{"First "}, early, "the first piece came while the reply was held open")
			assert.Equal(t, "First and last.", c.Message.Content)
			assert.Equal(t, provider.Usage{PromptTokens: 3, CompletionTokens: 4}, c.Usage)
			if withProvenance {
				f, err := os.Open(filepath.Join(dir, FileName))
				require.NoError(t, err)
				defer f.Close()
				sc := bufio.NewScanner(f)
				require.True(t, sc.Scan(), "one line for the streamed call")
				var rec Record
				require.NoError(t, json.Unmarshal(sc.Bytes(), &rec))
				assert.Equal(t, 200, rec.Status)
				assert.Equal(t, "m", rec.Model)
				assert.Equal(t, "stop", rec.Finish)
				assert.Equal(t, int64(3), rec.PromptTokens)
				assert.Equal(t, int64(4), rec.CompletionTokens)
				assert.Empty(t, rec.Error)
				assert.NotContains(t, sc.Text(), "First", "no prose in provenance")
				assert.False(t, sc.Scan(), "exactly one line")
			}
		})
	}
}
