package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/llm/eval"
	"github.com/quire-ink/quire/llm/provider"
)

// offlineEnv clears the variables that would make eval go live.
func offlineEnv(t *testing.T) {
	t.Setenv(evalEnvBaseURL, "")
	t.Setenv(evalEnvModel, "")
	t.Setenv(evalEnvAPIKeyEnv, "")
}

func TestEvalOfflineRunsEveryScenario(t *testing.T) {
	offlineEnv(t)
	// No project: eval runs wherever it is started.
	t.Chdir(t.TempDir())
	out, _, err := run(t, "eval")
	require.NoError(t, err, out)
	assert.Contains(t, out, "offline (scripted model)")
	assert.NotContains(t, out, "live:")
	for _, name := range eval.ScenarioNames() {
		assert.Regexp(t, `(?m)^`+name+`\s+1/1\s`, out)
	}
	assert.Contains(t, out, "14/14 scenarios passed")
}

func TestEvalScenarioFilter(t *testing.T) {
	offlineEnv(t)
	out, _, err := run(t, "eval", "--scenario", "happy-path", "--scenario", "quirk-function-call", "--trials", "3")
	require.NoError(t, err, out)
	assert.Regexp(t, `(?m)^happy-path\s+3/3\s`, out)
	assert.Regexp(t, `(?m)^quirk-function-call\s+3/3\s`, out)
	assert.NotContains(t, out, "missing-argument")
	assert.Contains(t, out, "2/2 scenarios passed")
}

func TestEvalJSON(t *testing.T) {
	offlineEnv(t)
	out, _, err := run(t, "eval", "--scenario", "chat-only", "--json")
	require.NoError(t, err, out)
	var got struct {
		Mode      string `json:"mode"`
		Live      bool   `json:"live"`
		Failed    int    `json:"failed"`
		Scenarios []struct {
			Name     string   `json:"name"`
			Trials   int      `json:"trials"`
			Passed   int      `json:"passed"`
			Failures []string `json:"failures"`
		} `json:"scenarios"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &got), out)
	assert.Equal(t, "offline (scripted model)", got.Mode)
	assert.False(t, got.Live)
	assert.Zero(t, got.Failed)
	require.Len(t, got.Scenarios, 1)
	assert.Equal(t, "chat-only", got.Scenarios[0].Name)
	assert.Equal(t, 1, got.Scenarios[0].Passed)
	assert.Empty(t, got.Scenarios[0].Failures)
}

func TestEvalUnknownScenarioListsNames(t *testing.T) {
	offlineEnv(t)
	_, _, err := run(t, "eval", "--scenario", "no-such-thing")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "unknown scenario no-such-thing")
	for _, name := range eval.ScenarioNames() {
		assert.Contains(t, err.Error(), name)
	}
}

func TestEvalBadTrials(t *testing.T) {
	offlineEnv(t)
	_, _, err := run(t, "eval", "--trials", "0")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "--trials")
}

func TestEvalLiveConfig(t *testing.T) {
	env := func(m map[string]string) func(string) string {
		return func(k string) string { return m[k] }
	}
	o := &evalOptions{getenv: env(nil)}
	cfg, err := o.liveConfig()
	require.NoError(t, err)
	assert.Nil(t, cfg, "no variables: offline")

	o.getenv = env(map[string]string{evalEnvBaseURL: "http://localhost:11434/v1"})
	_, err = o.liveConfig()
	require.Error(t, err)
	assert.Contains(t, err.Error(), evalEnvModel)

	o.getenv = env(map[string]string{evalEnvModel: "gpt-4.1-mini"})
	_, err = o.liveConfig()
	require.Error(t, err, "OpenAI without a key")
	assert.Contains(t, err.Error(), evalEnvAPIKeyEnv)

	o.getenv = env(map[string]string{evalEnvBaseURL: "https://openrouter.ai/api/v1", evalEnvModel: "m", evalEnvAPIKeyEnv: "MY_KEY"})
	_, err = o.liveConfig()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "MY_KEY")

	o.getenv = env(map[string]string{evalEnvBaseURL: "https://openrouter.ai/api/v1", evalEnvModel: "m", evalEnvAPIKeyEnv: "MY_KEY", "MY_KEY": "sk-x"})
	cfg, err = o.liveConfig()
	require.NoError(t, err)
	assert.Equal(t, &provider.Config{BaseURL: "https://openrouter.ai/api/v1", Model: "m", APIKey: "sk-x", Tools: true}, cfg)
	assert.Equal(t, "live: openrouter.ai m", eval.Mode(cfg))
}

// A live run with a missing model is refused before anything is sent.
func TestEvalLiveMissingModel(t *testing.T) {
	t.Setenv(evalEnvBaseURL, "http://127.0.0.1:1/v1")
	t.Setenv(evalEnvModel, "")
	t.Setenv(evalEnvAPIKeyEnv, "")
	out, _, err := run(t, "eval")
	require.Error(t, err)
	assert.Contains(t, err.Error(), evalEnvModel)
	assert.False(t, strings.Contains(out, "offline"), "never claims a run that did not happen")
}

func TestEvalTableShowsFailures(t *testing.T) {
	var out strings.Builder
	o := &evalOptions{globalOptions: &globalOptions{stdout: &out}, Trials: 2}
	o.printTable("offline (scripted model)", []eval.ScenarioResult{
		{Name: "happy-path", Trials: 2, Passed: 2},
		{Name: "unknown-tool", Trials: 2, Passed: 0, Failures: []string{"trial 1: tool calls: want a, got b", "trial 2: tool calls: want a, got b"}},
	}, 1)
	text := out.String()
	assert.Regexp(t, `(?m)^unknown-tool\s+0/2\s.*trial 1: tool calls: want a, got b \(\+1 more\)$`, text)
	assert.Contains(t, text, "\nunknown-tool:\n  trial 1: tool calls: want a, got b\n  trial 2: tool calls: want a, got b\n")
	assert.Contains(t, text, "1/2 scenarios passed")
}
