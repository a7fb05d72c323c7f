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

	"github.com/quire-ink/quire/llm/provenance"
	"github.com/quire-ink/quire/llm/provider"
	"github.com/quire-ink/quire/llm/provider/providertest"
)

func TestProvenanceRecordsEveryCallWithoutProseOrKey(t *testing.T) {
	b, _ := openBook(t, bookFiles())
	dir := filepath.Join(t.TempDir(), "cache")
	plog, err := provenance.Open(dir)
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(dir, provenance.FileName), plog.Path())

	s := providertest.New(t,
		providertest.CallsStep(providertest.Call{ID: "c1", Name: "get_manuscript_context", Args: `{"ref":"current"}`}),
		providertest.TextStep("Anne Marsh stands still with the tide."),
	)
	const key = "sk-provenance-secret-key"
	p := scriptedProvider(t, s, func(c *provider.Config) {
		c.APIKey = key
		c.HTTPClient = &http.Client{Transport: plog.Transport(nil, "continuity-editor", nil)}
	})
	res, err := Ask(context.Background(), AskInput{Request: Request{Persona: ResolvePersona("continuity-editor"), Message: "Is the tide still?"}, Sources: b, Provider: p})
	require.NoError(t, err)
	require.Equal(t, "Anne Marsh stands still with the tide.", res.Answer, "the reply reaches the loop unchanged")

	raw, err := os.ReadFile(plog.Path())
	require.NoError(t, err)
	for _, secret := range []string{key, "Is the tide still", "The tide stood still", "Anne Marsh stands", "/v1", "chat/completions"} {
		assert.NotContains(t, string(raw), secret)
	}
	var recs []provenance.Record
	sc := bufio.NewScanner(strings.NewReader(string(raw)))
	for sc.Scan() {
		var r provenance.Record
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

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}
