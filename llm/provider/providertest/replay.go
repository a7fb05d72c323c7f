package providertest

import (
	"bytes"
	"embed"
	"encoding/json"
	"path"
	"strings"
	"testing"
)

// Replays are provider replies kept as files, as a provider sends them
// (testdata/replays; each test that plays one says where its shape is
// documented): a .json file is a response body, an .sse file an event
// stream. They live here, not in one package's testdata, because the
// provider's tests and the tool loop's play the same ones.
//
//go:embed testdata/replays
var replays embed.FS

// Replay is the step that plays the recorded reply name (a file of
// testdata/replays): its body, or its events for an .sse file.
func Replay(t testing.TB, name string) Step {
	t.Helper()
	if strings.HasSuffix(name, ".sse") {
		return Step{SSE: ReplayText(t, name)}
	}
	return Step{Body: ReplayText(t, name)}
}

// ReplayStream is the step that plays the recorded Responses API
// response name as a stream ends it: one response.completed event that
// carries the response whole.
// https://platform.openai.com/docs/api-reference/responses-streaming/response/completed
func ReplayStream(t testing.TB, name string) Step {
	t.Helper()
	var body bytes.Buffer
	if err := json.Compact(&body, []byte(ReplayText(t, name))); err != nil {
		t.Fatalf("replay %s is not JSON: %v", name, err)
	}
	return Step{SSE: "event: response.completed\ndata: {\"type\":\"response.completed\",\"sequence_number\":0,\"response\":" + body.String() + "}\n\n"}
}

// ReplayText is the recorded reply name as it is kept.
func ReplayText(t testing.TB, name string) string {
	t.Helper()
	b, err := replays.ReadFile(path.Join("testdata/replays", name))
	if err != nil {
		t.Fatalf("replay %s: %v", name, err)
	}
	return string(b)
}
