package eval

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/clip"
	"github.com/quire-ink/quire/codex/corpus"
	"github.com/quire-ink/quire/codex/proposal"
	"github.com/quire-ink/quire/llm"
	"github.com/quire-ink/quire/llm/eval/evalserver"
	"github.com/quire-ink/quire/llm/provider"
	"github.com/quire-ink/quire/llm/provider/chatwire"
	"github.com/quire-ink/quire/llm/toolloop"
	"github.com/quire-ink/quire/llm/tools"
	"github.com/quire-ink/quire/manuscript"
)

// Options configure Run.
type Options struct {
	// Scenarios names the scenarios to run; empty runs them all.
	Scenarios []string
	// Trials is how often each scenario runs; zero means once.
	Trials int
	// Live, when set, sends the scenarios' messages to this endpoint
	// instead of the scripted model. Tools must be on.
	Live *provider.Config
	// Sources are what the tools read; nil uses a small built-in book
	// written to a temporary folder and removed afterwards. The
	// scripted replies name the built-in book's entries, so offline
	// scenarios may fail against another book.
	Sources *tools.Sources
	// PersonaID answers; "" is the default persona.
	PersonaID string
}

// ScenarioResult is how one scenario fared over its trials.
type ScenarioResult struct {
	Name   string `json:"name"`
	Trials int    `json:"trials"`
	Passed int    `json:"passed"`
	// P50 and P95 are the wall time of a trial, nearest rank.
	P50 time.Duration `json:"p50"`
	P95 time.Duration `json:"p95"`
	// Failures say what went wrong, one per failed check, prefixed with
	// the trial.
	Failures []string `json:"failures,omitempty"`
}

// OK reports whether every trial passed.
func (r ScenarioResult) OK() bool { return r.Trials > 0 && r.Passed == r.Trials }

// Mode names where the answers come from, for the report: the
// scripted model, or the live endpoint and model.
func Mode(live *provider.Config) string {
	if live == nil {
		return "offline (scripted model)"
	}
	base := live.BaseURL
	if base == "" {
		base = provider.DefaultBaseURL
	}
	host := base
	if u, err := url.Parse(base); err == nil && u.Host != "" {
		host = u.Host
	}
	return fmt.Sprintf("live: %s %s", host, live.Model)
}

// wantCall is one tool call a scenario expects, with the error code it
// should end in ("" for success).
type wantCall struct{ Tool, Code string }

func (w wantCall) String() string {
	if w.Code == "" {
		return w.Tool + ":ok"
	}
	return w.Tool + ":" + w.Code
}

// evalScenario is a writer's message, the scripted replies that answer it
// offline, and what the turn must come to.
type evalScenario struct {
	name    string
	message string
	// quirks are switched on for the scripted model only.
	quirks []provider.Quirk
	steps  []evalserver.Step
	// calls are the tool calls the trace must show, in order.
	calls []wantCall
	// answer must appear in the final answer.
	answer string
	// requests, when set, checks what was sent to the scripted model.
	requests func([]evalserver.Request) error
	// book is the book the scenario reads: "" the built-in one,
	// bookPlanned a generated novel of 120,000 words with its outline.
	book string
}

// bookPlanned names the generated novel with an outline: 84 chapters of
// three scenes, about 120,000 words, each scene with a synopsis.
const bookPlanned = "planned-novel"

// ScenarioNames lists the scenarios, in the order they run.
func ScenarioNames() []string {
	scens := evalScenarios()
	names := make([]string, len(scens))
	for i, s := range scens {
		names[i] = s.name
	}
	return names
}

func evalScenarios() []evalScenario {
	mara := `{"name":"Mara Vell"}`
	huge := `{"name":"` + strings.Repeat("Mara Vell ", toolloop.DefaultMaxArgumentBytes/10+64) + `"}`
	return []evalScenario{
		{
			name:    "happy-path",
			message: "What does Mara Vell fear most?",
			steps: []evalserver.Step{
				evalserver.Calls(evalserver.Call{ID: "call_1", Name: "get_character_context", Args: mara}),
				evalserver.Text("Mara fears still water more than any storm."),
			},
			calls:  []wantCall{{"get_character_context", ""}},
			answer: "still water",
		},
		{
			name:    "missing-argument",
			message: "Remind me who Mara Vell is.",
			steps: []evalserver.Step{
				evalserver.Calls(evalserver.Call{ID: "call_1", Name: "get_character_context", Args: `{}`}),
				evalserver.Calls(evalserver.Call{ID: "call_2", Name: "get_character_context", Args: mara}),
				evalserver.Text("Mara Vell is a smuggler who owes the sea a debt."),
			},
			calls:  []wantCall{{"get_character_context", toolloop.CodeInvalidArguments}, {"get_character_context", ""}},
			answer: "smuggler",
		},
		{
			name:    "type-error-recovery",
			message: "What is Mara Vell's role?",
			steps: []evalserver.Step{
				evalserver.Calls(evalserver.Call{ID: "call_1", Name: "get_character_context", Args: `{"name":["Mara Vell"]}`}),
				evalserver.Calls(evalserver.Call{ID: "call_2", Name: "get_character_context", Args: mara}),
				evalserver.Text("She is the protagonist, a smuggler."),
			},
			calls:  []wantCall{{"get_character_context", toolloop.CodeInvalidArguments}, {"get_character_context", ""}},
			answer: "protagonist",
		},
		{
			name:    "oversized-arguments",
			message: "Tell me about Mara Vell.",
			steps: []evalserver.Step{
				evalserver.Calls(evalserver.Call{ID: "call_1", Name: "get_character_context", Args: huge}),
				evalserver.Calls(evalserver.Call{ID: "call_2", Name: "get_character_context", Args: mara}),
				evalserver.Text("Mara Vell runs contraband through the fog."),
			},
			calls:  []wantCall{{"get_character_context", toolloop.CodeArgumentsTooLarge}, {"get_character_context", ""}},
			answer: "contraband",
		},
		{
			name:    "unknown-tool",
			message: "Where is the Quay of Lanterns?",
			steps: []evalserver.Step{
				evalserver.Calls(evalserver.Call{ID: "call_1", Name: "get_place_details", Args: `{"place":"Quay of Lanterns"}`}),
				evalserver.Calls(evalserver.Call{ID: "call_2", Name: "get_location_context", Args: `{"name":"Quay of Lanterns"}`}),
				evalserver.Text("The Quay of Lanterns is the old harbor front."),
			},
			calls:  []wantCall{{"get_place_details", toolloop.CodeUnknownTool}, {"get_location_context", ""}},
			answer: "harbor front",
		},
		{
			name:    "chat-only",
			message: "In one sentence, what is a developmental editor for?",
			steps: []evalserver.Step{
				evalserver.Text("A developmental editor reads for the shape of the story rather than its sentences."),
			},
			answer: "shape of the story",
		},
		{
			name:    "multi-step",
			message: "Is Anne Marsh in the chapter I have open consistent with her canon entry?",
			steps: []evalserver.Step{
				evalserver.Calls(evalserver.Call{ID: "call_1", Name: "get_manuscript_context", Args: `{"ref":"current"}`}),
				evalserver.Calls(evalserver.Call{ID: "call_2", Name: "get_character_context", Args: `{"name":"Anne Marsh"}`}),
				evalserver.Text("Yes: she keeps the lighthouse in the canon and stands by the water in the chapter."),
			},
			calls:  []wantCall{{"get_manuscript_context", ""}, {"get_character_context", ""}},
			answer: "lighthouse",
			requests: func(reqs []evalserver.Request) error {
				if len(reqs) < 2 || !strings.Contains(string(reqs[1].Body), "slack water") {
					return errors.New("the chapter's prose did not reach the model after get_manuscript_context")
				}
				return nil
			},
		},
		{
			// A question about the whole book is answered from the outline
			// and two chapters, within the default budget of rounds: read
			// eight chapters a call, the 84 of this novel would take more
			// calls than the budget has rounds.
			name:    "whole-book-outline-first",
			book:    bookPlanned,
			message: "Does the midpoint of my novel land? Tell me where the story turns.",
			steps: []evalserver.Step{
				evalserver.Calls(evalserver.Call{ID: "call_1", Name: tools.OutlineName, Args: `{}`}),
				evalserver.Calls(evalserver.Call{ID: "call_2", Name: tools.ManuscriptName, Args: `{"refs":["42","43"]}`}),
				evalserver.Text("The story turns in chapter 42, at the book's midpoint: the synopses before it build toward it, and chapter 43 pays it off."),
			},
			calls:  []wantCall{{tools.OutlineName, ""}, {tools.ManuscriptName, ""}},
			answer: "chapter 42",
			requests: func(reqs []evalserver.Request) error {
				if len(reqs) != 3 {
					return fmt.Errorf("%d requests, want 3: the outline, two chapters, the answer", len(reqs))
				}
				outline, ok := toolResult(reqs[1].Body, "call_1")
				if !ok {
					return errors.New("the outline did not reach the model")
				}
				var env struct {
					OK   bool `json:"ok"`
					Data struct {
						Book struct {
							Chapters, Scenes, Words, WithSynopsis int
						} `json:"book"`
						Acts []struct {
							Chapters []json.RawMessage `json:"chapters"`
						} `json:"acts"`
					} `json:"data"`
					Warnings []string `json:"warnings"`
				}
				if err := json.Unmarshal([]byte(outline), &env); err != nil || !env.OK {
					return fmt.Errorf("the outline is no envelope that worked: %v", err)
				}
				given := 0
				for _, a := range env.Data.Acts {
					given += len(a.Chapters)
				}
				b := env.Data.Book
				if b.Words < 115_000 || given != b.Chapters || b.WithSynopsis < b.Scenes {
					return fmt.Errorf("the outline gave %d of %d chapters of %d words, %d of %d scenes with a synopsis: want the whole novel in one answer", given, b.Chapters, b.Words, b.WithSynopsis, b.Scenes)
				}
				if len(outline) >= toolloop.DefaultMaxOutputBytes {
					return fmt.Errorf("the outline is %d bytes, over the tool output limit", len(outline))
				}
				chapters, ok := toolResult(reqs[2].Body, "call_2")
				if !ok || !strings.Contains(chapters, "Chapter 42") || !strings.Contains(chapters, "Chapter 43") {
					return errors.New("chapters 42 and 43 did not reach the model")
				}
				return nil
			},
		},
		quirkScenario("quirk-content-tool-call-tags", provider.QuirkContentToolCallTags, `{"role":"assistant","content":"Let me look.\n<tool_call>{\"name\":\"get_character_context\",\"arguments\":{\"name\":\"Mara Vell\"}}</tool_call>"}`),
		quirkScenario("quirk-function-call", provider.QuirkFunctionCall, `{"role":"assistant","content":null,"function_call":{"name":"get_character_context","arguments":"{\"name\":\"Mara Vell\"}"}}`),
		quirkScenario("quirk-tool-calls-object", provider.QuirkToolCallsObject, `{"role":"assistant","content":null,"tool_calls":{"id":"call_1","type":"function","function":{"name":"get_character_context","arguments":"{\"name\":\"Mara Vell\"}"}}}`),
		// Qwen3.5 served by vLLM: the call, written inside an unclosed
		// <think>, comes as reasoning (https://github.com/vllm-project/vllm/pull/35687).
		quirkScenario("quirk-reasoning-tool-calls", provider.QuirkReasoningToolCalls, `{"role":"assistant","content":null,"tool_calls":[],"reasoning_content":"I should read her entry.\n\n<tool_call>\n<function=get_character_context>\n<parameter=name>\nMara Vell\n</parameter>\n</function>\n</tool_call>"}`),
		quirkScenario("quirk-arguments-object", provider.QuirkArgumentsObject, `{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"get_character_context","arguments":{"name":"Mara Vell"}}}]}`),
		{
			name:    "quirk-blank-arguments",
			message: "How does the chapter I have open read?",
			quirks:  []provider.Quirk{provider.QuirkBlankArguments},
			steps: []evalserver.Step{
				evalserver.Raw(`{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"get_manuscript_context","arguments":""}}]}`),
				evalserver.Calls(evalserver.Call{ID: "call_2", Name: "get_manuscript_context", Args: `{"ref":"current"}`}),
				evalserver.Text("It reads slowly, as slack water should."),
			},
			calls:  []wantCall{{"get_manuscript_context", toolloop.CodeInvalidArguments}, {"get_manuscript_context", ""}},
			answer: "slack water",
			requests: func(reqs []evalserver.Request) error {
				if len(reqs) < 2 {
					return errors.New("no request followed the blank call")
				}
				args, ok := echoedArguments(reqs[1].Body, "call_1")
				if !ok {
					return errors.New("the blank call was not sent back to the model")
				}
				if args != "{}" {
					return fmt.Errorf("the blank call was sent back with arguments %q, want \"{}\"", args)
				}
				return nil
			},
		},
	}
}

// quirkScenario is a model that asks for Mara Vell's canon in the odd
// shape one quirk repairs, then answers from it.
func quirkScenario(name string, q provider.Quirk, rawReply string) evalScenario {
	return evalScenario{
		name:    name,
		message: "What does Mara Vell fear most?",
		quirks:  []provider.Quirk{q},
		steps:   []evalserver.Step{evalserver.Raw(rawReply), evalserver.Text("Still water, more than storms.")},
		calls:   []wantCall{{"get_character_context", ""}},
		answer:  "Still water",
	}
}

// toolResult is the content of the tool message answering call id in a
// request body.
func toolResult(body []byte, id string) (string, bool) {
	var req struct {
		Messages []struct {
			Role       string          `json:"role"`
			ToolCallID string          `json:"tool_call_id"`
			Content    json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if json.Unmarshal(body, &req) != nil {
		return "", false
	}
	for _, m := range req.Messages {
		if m.Role == "tool" && m.ToolCallID == id {
			var s string
			if json.Unmarshal(m.Content, &s) == nil {
				return s, true
			}
			var parts []struct {
				Text string `json:"text"`
			}
			if json.Unmarshal(m.Content, &parts) == nil && len(parts) > 0 {
				var b strings.Builder
				for _, p := range parts {
					b.WriteString(p.Text)
				}
				return b.String(), true
			}
		}
	}
	return "", false
}

// echoedArguments finds the arguments of the tool call id among the
// assistant messages of a request body.
func echoedArguments(body []byte, id string) (string, bool) {
	var req struct {
		Messages []struct {
			ToolCalls []chatwire.ToolCall `json:"tool_calls"`
		} `json:"messages"`
	}
	if json.Unmarshal(body, &req) != nil {
		return "", false
	}
	for _, m := range req.Messages {
		for _, c := range m.ToolCalls {
			if c.ID == id {
				var s string
				if json.Unmarshal(c.Function.Arguments, &s) != nil {
					return string(c.Function.Arguments), true
				}
				return s, true
			}
		}
	}
	return "", false
}

// selectScenarios picks the named scenarios, in their own order.
func selectScenarios(names []string) ([]evalScenario, error) {
	all := evalScenarios()
	if len(names) == 0 {
		return all, nil
	}
	known := ScenarioNames()
	var unknown []string
	for _, n := range names {
		if !slices.Contains(known, n) {
			unknown = append(unknown, n)
		}
	}
	if len(unknown) > 0 {
		return nil, fmt.Errorf("unknown scenario %s (known: %s)", strings.Join(unknown, ", "), strings.Join(known, ", "))
	}
	var out []evalScenario
	for _, s := range all {
		if slices.Contains(names, s.name) {
			out = append(out, s)
		}
	}
	return out, nil
}

// Run runs the scenarios against the scripted model, or against a
// live one when opt.Live is set, and reports each. The error is for a
// run that could not happen (bad options, no book); a scenario that
// fails is a result, not an error.
func Run(ctx context.Context, opt Options) (_ []ScenarioResult, err error) {
	var cleanups []func()
	defer func() {
		for _, c := range cleanups {
			c()
		}
	}()
	scens, err := selectScenarios(opt.Scenarios)
	if err != nil {
		return nil, err
	}
	if opt.Trials < 0 {
		return nil, fmt.Errorf("eval: trials must be at least 1, not %d", opt.Trials)
	}
	if opt.Trials == 0 {
		opt.Trials = 1
	}
	persona, err := llm.ChoosePersona(opt.PersonaID)
	if err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	var live *provider.Provider
	if opt.Live != nil {
		if !opt.Live.Tools {
			return nil, errors.New("live eval: the provider must have tool calling on")
		}
		live, err = provider.New(*opt.Live)
		if err != nil {
			return nil, fmt.Errorf("live eval: %w", err)
		}
	}
	// Each book is opened once, when a scenario first reads it.
	books := map[string]*tools.Sources{"": opt.Sources}
	sourcesFor := func(book string) (*tools.Sources, error) {
		if src := books[book]; src != nil {
			return src, nil
		}
		open := openEvalBook
		if book == bookPlanned {
			open = openPlannedBook
		}
		src, cleanup, err := open(ctx)
		if err != nil {
			return nil, err
		}
		cleanups = append(cleanups, cleanup)
		books[book] = src
		return src, nil
	}
	var srv *evalserver.Server
	if live == nil {
		srv, err = evalserver.New()
		if err != nil {
			return nil, err
		}
		defer srv.Close()
	}
	results := make([]ScenarioResult, 0, len(scens))
	for _, sc := range scens {
		r := ScenarioResult{Name: sc.name}
		src, err := sourcesFor(sc.book)
		if err != nil {
			return results, err
		}
		var times []time.Duration
		for trial := 1; trial <= opt.Trials; trial++ {
			if err := ctx.Err(); err != nil {
				return results, fmt.Errorf("eval cancelled: %w", err)
			}
			var failures []string
			var took time.Duration
			if live != nil {
				took, failures = runLiveTrial(ctx, live, src, persona, sc)
			} else {
				took, failures = runScriptedTrial(ctx, srv, src, persona, sc)
			}
			r.Trials++
			times = append(times, took)
			if len(failures) == 0 {
				r.Passed++
			}
			for _, f := range failures {
				r.Failures = append(r.Failures, fmt.Sprintf("trial %d: %s", trial, f))
			}
		}
		r.P50 = percentile(times, 0.50)
		r.P95 = percentile(times, 0.95)
		results = append(results, r)
	}
	return results, nil
}

// runScriptedTrial plays one scenario against the scripted model and
// checks the trace, the answer and what was sent.
func runScriptedTrial(ctx context.Context, srv *evalserver.Server, src *tools.Sources, persona llm.Persona, sc evalScenario) (time.Duration, []string) {
	srv.Load(sc.steps)
	p, err := provider.New(provider.Config{
		BaseURL: srv.BaseURL(), Model: "scripted", Tools: true, Retries: -1,
		Timeout: 30 * time.Second, Quirks: sc.quirks,
	})
	if err != nil {
		return 0, []string{err.Error()}
	}
	start := time.Now()
	res, err := llm.Ask(ctx, llm.AskInput{Request: llm.Request{Proposals: &proposal.Store{}, Persona: persona, Message: sc.message}, Sources: src, Provider: p})
	took := time.Since(start)
	if err != nil {
		return took, []string{"turn failed: " + err.Error()}
	}
	var failures []string
	got := make([]wantCall, len(res.Trace))
	for i, row := range res.Trace {
		got[i] = wantCall{Tool: row.Tool, Code: row.Code}
	}
	if !slices.Equal(got, sc.calls) {
		failures = append(failures, fmt.Sprintf("tool calls: want %s, got %s", callList(sc.calls), callList(got)))
	}
	if !strings.Contains(res.Answer, sc.answer) {
		failures = append(failures, fmt.Sprintf("answer %q does not contain %q", clip.Runes(res.Answer, 121), sc.answer))
	}
	if n := srv.Remaining(); n > 0 {
		failures = append(failures, fmt.Sprintf("%d scripted replies were never requested", n))
	}
	if sc.requests != nil {
		if err := sc.requests(srv.Requests()); err != nil {
			failures = append(failures, err.Error())
		}
	}
	return took, failures
}

// runLiveTrial sends one scenario's message to the live model. The checks
// are relaxed: an answer came, and every tool call that failed was
// followed by one that succeeded.
func runLiveTrial(ctx context.Context, p *provider.Provider, src *tools.Sources, persona llm.Persona, sc evalScenario) (time.Duration, []string) {
	start := time.Now()
	res, err := llm.Ask(ctx, llm.AskInput{Request: llm.Request{Proposals: &proposal.Store{}, Persona: persona, Message: sc.message}, Sources: src, Provider: p})
	took := time.Since(start)
	if err != nil {
		return took, []string{"turn failed: " + err.Error()}
	}
	var failures []string
	if strings.TrimSpace(res.Answer) == "" {
		failures = append(failures, "no answer")
	}
	for i, row := range res.Trace {
		if row.OK {
			continue
		}
		recovered := slices.ContainsFunc(res.Trace[i+1:], func(later toolloop.TraceRow) bool {
			return later.OK && (later.Tool == row.Tool || row.Code == toolloop.CodeUnknownTool || row.Code == toolloop.CodeToolDenied)
		})
		if !recovered {
			failures = append(failures, fmt.Sprintf("tool call %s(%s) failed with %s and never succeeded", row.Tool, row.ArgsSummary, row.Code))
		}
	}
	return took, failures
}

func callList(calls []wantCall) string {
	if len(calls) == 0 {
		return "none"
	}
	parts := make([]string, len(calls))
	for i, c := range calls {
		parts[i] = c.String()
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// percentile is the nearest-rank percentile of ds; zero for none.
func percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	sorted := slices.Clone(ds)
	slices.Sort(sorted)
	i := int(math.Ceil(p*float64(len(sorted)))) - 1
	i = max(0, min(i, len(sorted)-1))
	return sorted[i]
}

// evalBookFiles is the built-in book: a handful of canon entries and two
// chapters, enough for every scenario's tool calls to land.
func evalBookFiles() map[string]string {
	entry := func(front, body string) string { return "---\n" + front + "\n---\n" + body }
	return map[string]string{
		"codex/characters/mara-vell.md": entry(
			"type: character\nname: Mara Vell\naliases: [Mara]\nsummary: A smuggler who owes the sea a debt.\nrole: protagonist\nstatus: confirmed",
			"# Mara Vell\n\nMara runs contraband through the fog off the harbor.\n\n## Fears\n\nShe fears still water more than any storm.\n"),
		"codex/characters/anne-marsh.md": entry(
			"type: character\nname: Anne Marsh\nsummary: Keeper of the lighthouse.\nstatus: tentative",
			"# Anne Marsh\n\nAnne has kept the lighthouse since her husband drowned.\n"),
		"codex/locations/quay-of-lanterns.md": entry(
			"type: location\nname: Quay of Lanterns\nsummary: The old harbor front.",
			"# Quay of Lanterns\n\nLanterns hang the length of the quay; smugglers land below them.\n"),
		"codex/concepts/tide-debt.md": entry(
			"type: concept\nname: Tide Debt\nsummary: What the sea lends, it takes back.",
			"# Tide Debt\n\nEvery harbor family owes the tide something.\n"),
		"manuscript/01-the-quay.md":    "# The Quay\n\nMara Vell came up the Quay of Lanterns at dusk, her boots wet to the knee.\n",
		"manuscript/02-slack-water.md": "# Slack Water\n\nAt slack water the harbor held its breath, and Anne Marsh stood by the lighthouse door watching it.\n",
	}
}

// openEvalBook writes the built-in book to a temporary folder and opens
// it with an in-memory index; cleanup closes it and removes the folder.
func openEvalBook(ctx context.Context) (*tools.Sources, func(), error) {
	dir, err := os.MkdirTemp("", "quire-eval-")
	if err != nil {
		return nil, nil, fmt.Errorf("eval book: %w", err)
	}
	remove := func() { _ = os.RemoveAll(dir) }
	for rel, text := range evalBookFiles() {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			remove()
			return nil, nil, fmt.Errorf("eval book: %w", err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			remove()
			return nil, nil, fmt.Errorf("eval book: %w", err)
		}
	}
	root, err := codex.ProjectRoot(dir)
	if err != nil {
		remove()
		return nil, nil, fmt.Errorf("eval book: %w", err)
	}
	store, err := codex.Open(ctx, root, codex.Options{InMemory: true})
	if err != nil {
		remove()
		return nil, nil, fmt.Errorf("eval book: %w", err)
	}
	m, err := manuscript.Open(ctx, root, manuscript.Options{Catalog: store.Catalog()})
	if err != nil {
		_ = store.Close()
		remove()
		return nil, nil, fmt.Errorf("eval book: %w", err)
	}
	b := &tools.Sources{Store: store, Manuscript: m.Snapshot(), Place: manuscript.Place{Current: "manuscript/02-slack-water.md"}}
	return b, func() { _ = store.Close(); remove() }, nil
}

// openPlannedBook generates a novel of about 120,000 words whose
// chapters and scenes carry an outline (corpus.Options.Outline) and opens
// it with an in-memory index; cleanup closes it and removes the folder.
func openPlannedBook(ctx context.Context) (*tools.Sources, func(), error) {
	dir, err := os.MkdirTemp("", "quire-eval-novel-")
	if err != nil {
		return nil, nil, fmt.Errorf("eval novel: %w", err)
	}
	remove := func() { _ = os.RemoveAll(dir) }
	if _, err := corpus.Generate(ctx, dir, corpus.Options{Entries: 120, Chapters: 84, ChapterWords: 1440, Seed: 40, Outline: true}); err != nil {
		remove()
		return nil, nil, fmt.Errorf("eval novel: %w", err)
	}
	root, err := codex.ProjectRoot(dir)
	if err != nil {
		remove()
		return nil, nil, fmt.Errorf("eval novel: %w", err)
	}
	store, err := codex.Open(ctx, root, codex.Options{InMemory: true})
	if err != nil {
		remove()
		return nil, nil, fmt.Errorf("eval novel: %w", err)
	}
	m, err := manuscript.Open(ctx, root, manuscript.Options{Catalog: store.Catalog()})
	if err != nil {
		_ = store.Close()
		remove()
		return nil, nil, fmt.Errorf("eval novel: %w", err)
	}
	b := &tools.Sources{Store: store, Manuscript: m.Snapshot()}
	return b, func() { _ = store.Close(); remove() }, nil
}
