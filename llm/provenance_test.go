package llm

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/llm/provider/providertest"

	"github.com/quire-ink/quire/llm/provider"
)

func TestProvenanceRecordsEveryCallWithoutProseOrKey(t *testing.T) {
	b, _ := openBook(t, bookFiles())
	dir := filepath.Join(t.TempDir(), "cache")
	plog, err := OpenProvenance(dir)
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(dir, ProvenanceFile), plog.Path())

	s := providertest.New(t,
		providertest.CallsStep(providertest.Call{ID: "c1", Name: "get_manuscript_context", Args: `{"ref":"current"}`}),
		providertest.TextStep("Anne Marsh stands still with the tide."),
	)
	const key = "sk-provenance-secret-key"
	p := scriptedProvider(t, s, func(c *provider.ProviderConfig) {
		c.APIKey = key
		c.HTTPClient = &http.Client{Transport: plog.Transport(nil, "continuity-editor", nil)}
	})
	res, err := Ask(context.Background(), AskInput{Book: b, PersonaID: "continuity-editor", Message: "Is the tide still?", Provider: p})
	require.NoError(t, err)
	require.Equal(t, "Anne Marsh stands still with the tide.", res.Answer, "the reply reaches the loop unchanged")

	raw, err := os.ReadFile(plog.Path())
	require.NoError(t, err)
	for _, secret := range []string{key, "Is the tide still", "The tide stood still", "Anne Marsh stands", "/v1", "chat/completions"} {
		assert.NotContains(t, string(raw), secret)
	}
	var recs []ProvenanceRecord
	sc := bufio.NewScanner(strings.NewReader(string(raw)))
	for sc.Scan() {
		var r ProvenanceRecord
		require.NoError(t, json.Unmarshal(sc.Bytes(), &r), "line %q", sc.Text())
		recs = append(recs, r)
	}
	require.Len(t, recs, 2)
	reqs := s.Requests()
	for i, r := range recs {
		assert.Equal(t, i+1, r.Round)
		assert.Equal(t, "test-model", r.Model)
		assert.Equal(t, "continuity-editor", r.Persona)
		assert.Equal(t, 200, r.Status)
		assert.Equal(t, int64(10), r.PromptTokens)
		assert.Equal(t, int64(5), r.CompletionTokens)
		assert.NotContains(t, r.Host, "/")
		assert.True(t, strings.HasPrefix(s.BaseURL(), "http://"+r.Host))
		assert.Equal(t, sha256Hex(reqs[i].Body), r.Request)
	}
	assert.Equal(t, []string{"get_manuscript_context"}, recs[0].Tools)
	assert.Equal(t, "tool_calls", recs[0].Finish)
	assert.Empty(t, recs[1].Tools)
	assert.Equal(t, "stop", recs[1].Finish)
}

func TestProvenanceRecordsFailedCalls(t *testing.T) {
	plog, err := OpenProvenance(t.TempDir())
	require.NoError(t, err)
	s := providertest.New(t, providertest.ErrorStep(400, "bad", "your prompt "+secretProse+" is bad", nil))
	p := scriptedProvider(t, s, func(c *provider.ProviderConfig) {
		c.HTTPClient = &http.Client{Transport: plog.Transport(nil, "", nil)}
	})
	_, err = p.Complete(context.Background(), provider.CompletionRequest{Messages: []provider.Message{{Role: provider.RoleUser, Content: secretProse}}})
	require.Error(t, err)
	raw, err := os.ReadFile(plog.Path())
	require.NoError(t, err)
	assert.NotContains(t, string(raw), secretProse)
	var r ProvenanceRecord
	require.NoError(t, json.Unmarshal(raw, &r))
	assert.Equal(t, 400, r.Status)
}

func TestProvenanceKeepsTheNewestHalfWhenFull(t *testing.T) {
	plog, err := OpenProvenance(t.TempDir())
	require.NoError(t, err)
	plog.MaxBytes = 2000
	for i := range 100 {
		require.NoError(t, plog.Record(ProvenanceRecord{Round: i + 1, Model: "m"}))
	}
	raw, err := os.ReadFile(plog.Path())
	require.NoError(t, err)
	assert.LessOrEqual(t, len(raw), 2000)
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	var last ProvenanceRecord
	for _, l := range lines {
		require.NoError(t, json.Unmarshal([]byte(l), &last), "every line is whole")
	}
	assert.Equal(t, 100, last.Round)
	assert.Greater(t, len(lines), 3)
}

func TestOpenProvenanceNeedsAFolder(t *testing.T) {
	_, err := OpenProvenance("")
	assert.Error(t, err)
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}
