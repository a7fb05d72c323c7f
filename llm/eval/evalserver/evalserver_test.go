package evalserver_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/llm/eval/evalserver"
)

func post(t *testing.T, url, auth string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url+"/chat/completions", strings.NewReader(`{"model":"scripted","messages":[]}`))
	require.NoError(t, err)
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	return do(t, req)
}

func do(t *testing.T, req *http.Request) (int, string) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(b)
}

// The server records the Authorization header each request carried, so a
// test can check which key reached the model.
func TestRecordsAuthorization(t *testing.T) {
	s, err := evalserver.New()
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	s.Load([]evalserver.Step{evalserver.Text("one"), evalserver.Text("two")})
	code, _ := post(t, s.BaseURL(), "Bearer k-1")
	require.Equal(t, http.StatusOK, code)
	code, _ = post(t, s.BaseURL(), "")
	require.Equal(t, http.StatusOK, code)
	reqs := s.Requests()
	require.Len(t, reqs, 2)
	require.Equal(t, "Bearer k-1", reqs[0].Authorization)
	require.Equal(t, "", reqs[1].Authorization)
}

// RequireKey turns away requests without the key, as a hosted provider
// does, without spending a scripted reply; GET /models answers too.
func TestRequireKey(t *testing.T) {
	s, err := evalserver.New()
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	s.Load([]evalserver.Step{evalserver.Text("only")})
	s.RequireKey("k-2")

	code, body := post(t, s.BaseURL(), "Bearer wrong")
	require.Equal(t, http.StatusUnauthorized, code, body)
	req, err := http.NewRequest(http.MethodGet, s.BaseURL()+"/models", nil)
	require.NoError(t, err)
	code, _ = do(t, req)
	require.Equal(t, http.StatusUnauthorized, code)
	require.Equal(t, 2, s.Refused())
	require.Empty(t, s.Requests())
	require.Equal(t, 1, s.Remaining())

	req.Header.Set("Authorization", "Bearer k-2")
	code, body = do(t, req)
	require.Equal(t, http.StatusOK, code)
	require.Contains(t, body, `"id":"scripted"`)
	code, body = post(t, s.BaseURL(), "Bearer k-2")
	require.Equal(t, http.StatusOK, code, body)
	require.Contains(t, body, "only")
	require.Equal(t, "Bearer k-2", s.Requests()[0].Authorization)
}
