package eval

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/llm"
	"github.com/quire-ink/quire/llm/eval/evalserver"
	"github.com/quire-ink/quire/llm/provider"
)

func TestEvalScenariosPassOffline(t *testing.T) {
	for _, name := range ScenarioNames() {
		t.Run(name, func(t *testing.T) {
			res, err := Run(context.Background(), Options{Scenarios: []string{name}, Trials: 2})
			require.NoError(t, err)
			require.Len(t, res, 1)
			r := res[0]
			assert.Equal(t, name, r.Name)
			assert.Equal(t, 2, r.Trials)
			assert.Equal(t, 2, r.Passed, "failures: %s", strings.Join(r.Failures, "\n"))
			assert.Empty(t, r.Failures)
			assert.True(t, r.OK())
			assert.Positive(t, r.P50)
			assert.GreaterOrEqual(t, r.P95, r.P50)
		})
	}
}

func TestEvalCoversEveryQuirk(t *testing.T) {
	names := ScenarioNames()
	for _, q := range provider.AllQuirks {
		assert.Contains(t, names, "quirk-"+strings.ReplaceAll(string(q), "_", "-"))
	}
	for _, s := range evalScenarios() {
		if strings.HasPrefix(s.name, "quirk-") {
			require.Len(t, s.quirks, 1, s.name)
		}
	}
}

func TestEvalRunsAllByDefault(t *testing.T) {
	res, err := Run(context.Background(), Options{})
	require.NoError(t, err)
	require.Len(t, res, len(ScenarioNames()))
	for i, r := range res {
		assert.Equal(t, ScenarioNames()[i], r.Name)
		assert.True(t, r.OK(), "%s: %v", r.Name, r.Failures)
	}
}

// A script that does not recover: the scenario fails, and says why.
func TestEvalBrokenScriptFailsReadably(t *testing.T) {
	srv, err := evalserver.New()
	require.NoError(t, err)
	defer srv.Close()
	b, cleanup, err := openEvalBook(context.Background())
	require.NoError(t, err)
	defer cleanup()

	sc := evalScenarios()[1] // missing-argument
	require.Equal(t, "missing-argument", sc.name)
	sc.steps = []evalserver.Step{
		evalserver.Calls(evalserver.Call{ID: "call_1", Name: "get_character_context", Args: `{}`}),
		evalserver.Text("I could not find her."),
	}
	_, failures := runScriptedTrial(context.Background(), srv, b, llm.ResolvePersona(""), sc)
	require.Len(t, failures, 2, "%v", failures)
	assert.Equal(t, "tool calls: want [get_character_context:INVALID_ARGUMENTS get_character_context:ok], got [get_character_context:INVALID_ARGUMENTS]", failures[0])
	assert.Equal(t, `answer "I could not find her." does not contain "smuggler"`, failures[1])

	// A script that runs out: the turn fails with the server's reason.
	sc.steps = sc.steps[:1]
	_, failures = runScriptedTrial(context.Background(), srv, b, llm.ResolvePersona(""), sc)
	require.Len(t, failures, 1)
	assert.Contains(t, failures[0], "turn failed")
	assert.Contains(t, failures[0], "no reply left for request 2")

	// Unused replies are a failure too.
	sc = evalScenarios()[0]
	sc.steps = append(sc.steps, evalserver.Text("extra"))
	_, failures = runScriptedTrial(context.Background(), srv, b, llm.ResolvePersona(""), sc)
	assert.Equal(t, []string{"1 scripted replies were never requested"}, failures)
}

func TestEvalUnknownScenario(t *testing.T) {
	_, err := Run(context.Background(), Options{Scenarios: []string{"happy-path", "nope"}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `unknown scenario nope`)
	for _, n := range ScenarioNames() {
		assert.Contains(t, err.Error(), n)
	}
}

func TestEvalLiveConfigValidated(t *testing.T) {
	_, err := Run(context.Background(), Options{Live: &provider.Config{BaseURL: "http://127.0.0.1:1/v1", Tools: true}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "model is required")

	_, err = Run(context.Background(), Options{Live: &provider.Config{BaseURL: "http://127.0.0.1:1/v1", Model: "m"}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "tool calling")

	_, err = Run(context.Background(), Options{Trials: -1})
	require.Error(t, err)
}

func TestEvalMode(t *testing.T) {
	assert.Equal(t, "offline (scripted model)", Mode(nil))
	assert.Equal(t, "live: openrouter.ai some/model", Mode(&provider.Config{BaseURL: "https://openrouter.ai/api/v1", Model: "some/model"}))
	assert.Equal(t, "live: api.openai.com gpt-4.1-mini", Mode(&provider.Config{Model: "gpt-4.1-mini"}))
}

func TestEvalBookIsRemoved(t *testing.T) {
	b, cleanup, err := openEvalBook(context.Background())
	require.NoError(t, err)
	root := b.Store.Root()
	_, err = os.Stat(filepath.Join(root, "codex"))
	require.NoError(t, err)
	cleanup()
	_, err = os.Stat(root)
	assert.True(t, os.IsNotExist(err))
}

func TestPercentile(t *testing.T) {
	ms := func(n ...int) []time.Duration {
		out := make([]time.Duration, len(n))
		for i, v := range n {
			out[i] = time.Duration(v) * time.Millisecond
		}
		return out
	}
	assert.Zero(t, percentile(nil, 0.5))
	assert.Equal(t, 3*time.Millisecond, percentile(ms(5, 1, 3, 2, 4), 0.5))
	assert.Equal(t, 5*time.Millisecond, percentile(ms(5, 1, 3, 2, 4), 0.95))
	assert.Equal(t, 7*time.Millisecond, percentile(ms(7), 0.95))
}

// Each quirk scenario depends on its quirk: without it, the scripted
// model's malformed reply is not read as intended.
func TestEvalQuirkScenariosNeedTheirQuirk(t *testing.T) {
	srv, err := evalserver.New()
	require.NoError(t, err)
	defer srv.Close()
	b, cleanup, err := openEvalBook(context.Background())
	require.NoError(t, err)
	defer cleanup()
	for _, sc := range evalScenarios() {
		if len(sc.quirks) == 0 {
			continue
		}
		sc.quirks = nil
		_, failures := runScriptedTrial(context.Background(), srv, b, llm.ResolvePersona(""), sc)
		assert.NotEmpty(t, failures, sc.name)
	}
}
