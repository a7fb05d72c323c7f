package main

import (
	"fmt"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/quire-ink/quire/llm/eval"
	"github.com/quire-ink/quire/llm/provider"
)

// Environment variables that switch `quire eval` to a live model.
const (
	evalEnvBaseURL   = "QUIRE_EVAL_BASE_URL"
	evalEnvModel     = "QUIRE_EVAL_MODEL"
	evalEnvAPIKeyEnv = "QUIRE_EVAL_API_KEY_ENV"
)

type evalOptions struct {
	*globalOptions
	Scenarios []string
	Trials    int
	// getenv reads the environment (tests replace it).
	getenv func(string) string
}

func newEvalCommand(g *globalOptions) *cobra.Command {
	o := &evalOptions{globalOptions: g, getenv: os.Getenv}
	cmd := &cobra.Command{
		Use:   "eval [--scenario NAME ...] [--trials N]",
		Short: "Check the advisor's tool loop against scripted or live models",
		Long: `Run the tool-loop scenarios (` + strings.Join(eval.ScenarioNames(), ", ") + `)
and report, for each, how many trials passed and how long a trial took.

By default the model is scripted: every reply is fixed, nothing goes over the
network, no project is needed (a small built-in book is written to a temporary
folder and removed afterwards), and the checks assert the exact tool calls,
their error codes and the answer.

Set ` + evalEnvModel + ` (and ` + evalEnvBaseURL + `, default OpenAI; ` + evalEnvAPIKeyEnv + `
naming the variable that holds the key) to send the same messages to a live
model instead. Live checks are relaxed: an answer came back and every tool call
that failed was followed by one that succeeded.

The exit status is 1 when any scenario failed.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return o.run(cmd) },
	}
	f := cmd.Flags()
	f.StringArrayVar(&o.Scenarios, "scenario", nil, "run only this scenario (repeatable)")
	f.IntVar(&o.Trials, "trials", 1, "how often to run each scenario")
	return cmd
}

// liveConfig reads the live endpoint from the environment; nil when none
// is asked for.
func (o *evalOptions) liveConfig() (*provider.Config, error) {
	base := strings.TrimSpace(o.getenv(evalEnvBaseURL))
	model := strings.TrimSpace(o.getenv(evalEnvModel))
	keyEnv := strings.TrimSpace(o.getenv(evalEnvAPIKeyEnv))
	if base == "" && model == "" && keyEnv == "" {
		return nil, nil
	}
	if model == "" {
		return nil, fmt.Errorf("live eval: set %s to the model to test", evalEnvModel)
	}
	cfg := &provider.Config{BaseURL: base, Model: model, Tools: true}
	if keyEnv != "" {
		cfg.APIKey = o.getenv(keyEnv)
		if cfg.APIKey == "" {
			return nil, fmt.Errorf("live eval: %s names %s, which is not set", evalEnvAPIKeyEnv, keyEnv)
		}
	} else if base == "" {
		return nil, fmt.Errorf("live eval: set %s to the variable holding the OpenAI key, or %s for a local server", evalEnvAPIKeyEnv, evalEnvBaseURL)
	}
	return cfg, nil
}

func (o *evalOptions) run(cmd *cobra.Command) error {
	if o.Trials < 1 {
		return fmt.Errorf("--trials must be at least 1, not %d", o.Trials)
	}
	live, err := o.liveConfig()
	if err != nil {
		return err
	}
	mode := eval.Mode(live)
	results, err := eval.Run(cmd.Context(), eval.Options{Scenarios: o.Scenarios, Trials: o.Trials, Live: live})
	if err != nil {
		return err
	}
	failed := 0
	for _, r := range results {
		if !r.OK() {
			failed++
		}
	}
	if o.JSON {
		type row struct {
			Name     string   `json:"name"`
			Trials   int      `json:"trials"`
			Passed   int      `json:"passed"`
			P50Ms    float64  `json:"p50Ms"`
			P95Ms    float64  `json:"p95Ms"`
			Failures []string `json:"failures"`
		}
		rows := make([]row, len(results))
		for i, r := range results {
			rows[i] = row{r.Name, r.Trials, r.Passed, evalMs(r.P50), evalMs(r.P95), r.Failures}
			if rows[i].Failures == nil {
				rows[i].Failures = []string{}
			}
		}
		if err := writeJSON(o.stdout, struct {
			Mode      string `json:"mode"`
			Live      bool   `json:"live"`
			Trials    int    `json:"trials"`
			Scenarios []row  `json:"scenarios"`
			Failed    int    `json:"failed"`
		}{mode, live != nil, o.Trials, rows, failed}); err != nil {
			return err
		}
	} else {
		o.printTable(mode, results, failed)
	}
	if failed > 0 {
		return exitError{code: 1}
	}
	return nil
}

func (o *evalOptions) printTable(mode string, results []eval.ScenarioResult, failed int) {
	trials := "trial"
	if o.Trials != 1 {
		trials = "trials"
	}
	fmt.Fprintf(o.stdout, "quire eval: %s, %d %s per scenario\n\n", mode, o.Trials, trials)
	tw := tabwriter.NewWriter(o.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SCENARIO\tPASSED\tP50\tP95\tFAILURES")
	for _, r := range results {
		first := "-"
		if len(r.Failures) > 0 {
			first = r.Failures[0]
			if more := len(r.Failures) - 1; more > 0 {
				first += fmt.Sprintf(" (+%d more)", more)
			}
		}
		fmt.Fprintf(tw, "%s\t%d/%d\t%s\t%s\t%s\n", r.Name, r.Passed, r.Trials, evalDuration(r.P50), evalDuration(r.P95), first)
	}
	_ = tw.Flush()
	for _, r := range results {
		if len(r.Failures) < 2 {
			continue
		}
		fmt.Fprintf(o.stdout, "\n%s:\n", r.Name)
		for _, f := range r.Failures {
			fmt.Fprintf(o.stdout, "  %s\n", f)
		}
	}
	fmt.Fprintf(o.stdout, "\n%d/%d scenarios passed\n", len(results)-failed, len(results))
}

func evalMs(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// evalDuration shortens a duration for the table.
func evalDuration(d time.Duration) string {
	switch {
	case d >= time.Second:
		return d.Round(10 * time.Millisecond).String()
	case d >= time.Millisecond:
		return d.Round(100 * time.Microsecond).String()
	default:
		return d.Round(time.Microsecond).String()
	}
}
