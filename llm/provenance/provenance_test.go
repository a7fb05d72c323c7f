package provenance

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/llm/provider"
	"github.com/quire-ink/quire/llm/provider/providertest"
)

func TestProvenanceRecordsFailedCalls(t *testing.T) {
	plog, err := Open(t.TempDir())
	require.NoError(t, err)
	s := providertest.New(t, providertest.ErrorStep(400, "bad", "your prompt "+secretProse+" is bad", nil))
	p := scriptedProvider(t, s, func(c *provider.Config) {
		c.HTTPClient = &http.Client{Transport: plog.Transport(nil, "", nil)}
	})
	_, err = p.Complete(context.Background(), provider.CompletionRequest{Messages: []provider.Message{{Role: provider.RoleUser, Content: secretProse}}})
	require.Error(t, err)
	raw, err := os.ReadFile(plog.Path())
	require.NoError(t, err)
	assert.NotContains(t, string(raw), secretProse)
	var r Record
	require.NoError(t, json.Unmarshal(raw, &r))
	assert.Equal(t, 400, r.Status)
}

func TestProvenanceKeepsTheNewestHalfWhenFull(t *testing.T) {
	plog, err := Open(t.TempDir())
	require.NoError(t, err)
	plog.MaxBytes = 2000
	for i := range 100 {
		require.NoError(t, plog.Record(Record{Round: i + 1, Model: "m"}))
	}
	raw, err := os.ReadFile(plog.Path())
	require.NoError(t, err)
	assert.LessOrEqual(t, len(raw), 2000)
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	var last Record
	for _, l := range lines {
		require.NoError(t, json.Unmarshal([]byte(l), &last), "every line is whole")
	}
	assert.Equal(t, 100, last.Round)
	assert.Greater(t, len(lines), 3)
}

func TestOpenProvenanceNeedsAFolder(t *testing.T) {
	_, err := Open("")
	assert.Error(t, err)
}

// TestProvenanceHandsAHugeReplyOnToBeRefused: a reply past what the
// client reads is not held in memory to be recorded, and not cut short
// either: the client meets it whole and refuses it as too large.
func TestProvenanceHandsAHugeReplyOnToBeRefused(t *testing.T) {
	plog, err := Open(t.TempDir())
	require.NoError(t, err)
	huge := providertest.CompletionBody(map[string]any{"role": "assistant", "content": strings.Repeat("a", maxRecordedResponse+1)}, "stop")
	s := providertest.New(t, providertest.Step{Body: huge})
	p := scriptedProvider(t, s, func(c *provider.Config) {
		c.HTTPClient = &http.Client{Transport: plog.Transport(nil, "", nil)}
	})
	_, err = p.Complete(context.Background(), provider.CompletionRequest{Messages: providerTestMessages()})
	var big *provider.ReplyTooLargeError
	require.ErrorAs(t, err, &big)
	raw, err := os.ReadFile(plog.Path())
	require.NoError(t, err)
	var r Record
	require.NoError(t, json.Unmarshal(raw, &r))
	assert.Equal(t, "too large", r.Error)
}
