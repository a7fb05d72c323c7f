package evalserver

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestModelListTakesNoScriptedReply: a health report's GET /models is
// answered with the scripted model's name, and the script's replies and
// recorded requests are left for the chat.
func TestModelListTakesNoScriptedReply(t *testing.T) {
	s, err := New()
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	s.Load([]Step{Text("the one reply")})

	res, err := http.Get(s.BaseURL() + "/models")
	require.NoError(t, err)
	defer res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)
	var list struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	require.NoError(t, json.NewDecoder(res.Body).Decode(&list))
	require.Len(t, list.Data, 1)
	assert.Equal(t, ScriptedModel, list.Data[0].ID)
	assert.Equal(t, 1, s.Remaining())
	assert.Empty(t, s.Requests())
}
