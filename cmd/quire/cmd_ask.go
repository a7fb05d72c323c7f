package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/llm"
	"github.com/quire-ink/quire/manuscript"
	mbook "github.com/quire-ink/quire/manuscript/book"
	"github.com/quire-ink/quire/manuscript/continuity"

	"github.com/quire-ink/quire/codex/clip"
	"github.com/quire-ink/quire/codex/proposal"
	"github.com/quire-ink/quire/codex/trust"
	"github.com/quire-ink/quire/llm/advisor"
	"github.com/quire-ink/quire/llm/endpoint"
	"github.com/quire-ink/quire/llm/keys"
	"github.com/quire-ink/quire/llm/localmodel"
	"github.com/quire-ink/quire/llm/mcp"
	"github.com/quire-ink/quire/llm/provider"
	"github.com/quire-ink/quire/llm/toolloop"
	"github.com/quire-ink/quire/llm/tools"
)

// askOptions configure `quire ask`; the server's quire.ask command will
// decode the same fields.
type askOptions struct {
	*globalOptions `json:"-"`
	Persona        string `json:"persona,omitempty"`
	Message        string `json:"message"`
	Doc            string `json:"-"`
	Selection      string `json:"-"`
	Peek           bool   `json:"-"`
	BaseURL        string `json:"-"`
	Model          string `json:"-"`
	APIKeyEnv      string `json:"-"`
	Tools          string `json:"-"`
	Quirks         string `json:"-"`
	API            string `json:"-"`
	Continue       string `json:"-"`
	ToolCalling    string `json:"-"`
	// file is quire.yaml's provider section, for the settings that have
	// no flag.
	file endpoint.ProviderSettings
	// baseURLFlag says --base-url was given.
	baseURLFlag bool
	Rounds      int `json:"-"`
	Timeout     time.Duration
	Stream      bool `json:"-"`
}

func newAskCommand(g *globalOptions) *cobra.Command {
	o := &askOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "ask [--persona ID] [--doc PATH] [--selection START:END] [--peek] MESSAGE",
		Short: "Ask the advisor board about the book",
		Long: `Ask one of the board (developmental-editor, character-psychologist,
continuity-editor, worldbuilding-auditor, first-time-reader, writing-coach)
a question. The model reads the book only through quire's tools and proposes
canon changes for you to review; nothing is written. --peek prints the exact
request without sending it.

The provider is any OpenAI-compatible endpoint: --base-url (default OpenAI),
--model, and --api-key-env naming the environment variable that holds the key
(OPENAI_API_KEY is used only for OpenAI's own endpoint, never sent elsewhere).
Without one, the key stored for that endpoint with quire key set is used.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Message = strings.Join(args, " ")
			return o.run(cmd)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Persona, "persona", "", "who answers (default "+llm.DefaultPersonaID+")")
	f.StringVar(&o.Doc, "doc", "", "project-relative path of the document you have open (what \"current\" reads)")
	f.StringVar(&o.Selection, "selection", "", "START:END byte offsets of a selection in --doc")
	f.BoolVar(&o.Peek, "peek", false, "print the request that would be sent, and send nothing")
	f.StringVar(&o.BaseURL, "base-url", "", "OpenAI-compatible API root, e.g. http://localhost:11434/v1 for Ollama (default OpenAI)")
	f.StringVar(&o.Model, "model", "", "model name (default gpt-4.1-mini on OpenAI; required elsewhere)")
	f.StringVar(&o.APIKeyEnv, "api-key-env", "", "environment variable holding the API key (default OPENAI_API_KEY for OpenAI only)")
	f.StringVar(&o.Tools, "tools", "auto", "tool calling: on, off (context goes inline), or auto (off for Ollama)")
	f.StringVar(&o.Quirks, "quirks", "", "provider quirk transforms, comma-separated, or all; added to the model's own (Qwen's), which none leaves out")
	f.IntVar(&o.Rounds, "rounds", toolloop.DefaultMaxRounds, "most tool rounds before the model must answer")
	f.StringVar(&o.API, "api", "chat", "provider API: chat (Chat Completions, any compatible server) or responses (OpenAI's Responses API)")
	f.StringVar(&o.Continue, "continue", "", "with --api responses: the response id a previous answer printed, to continue that conversation")
	f.StringVar(&o.ToolCalling, "tool-calling", "", "how reliably the model calls tools: reliable (insist it reads the book first), best_effort (default), none (no tools)")
	f.DurationVar(&o.Timeout, "timeout", provider.DefaultTimeout, "per request")
	f.BoolVar(&o.Stream, "stream", false, "print the answer as it arrives (provider.stream in quire.yaml sets the default)")
	return cmd
}

// withFile fills every provider setting the command line left unset from
// the provider section of quire.yaml: flags win, the file comes next,
// built-in defaults last.
func (o *askOptions) withFile(ps endpoint.ProviderSettings, flags *pflag.FlagSet) error {
	str := func(flag string, dst *string, v string) {
		if !flags.Changed(flag) && v != "" {
			*dst = v
		}
	}
	str("base-url", &o.BaseURL, ps.BaseURL)
	str("model", &o.Model, ps.Model)
	str("api-key-env", &o.APIKeyEnv, ps.APIKeyEnv)
	str("api", &o.API, ps.API)
	str("tool-calling", &o.ToolCalling, ps.ToolCalling)
	str("quirks", &o.Quirks, strings.Join(ps.Quirks, ","))
	if !flags.Changed("tools") && ps.Tools != nil {
		o.Tools = map[bool]string{true: "on", false: "off"}[*ps.Tools]
	}
	if !flags.Changed("stream") && ps.Stream != nil {
		o.Stream = *ps.Stream
	}
	if !flags.Changed("rounds") && ps.Rounds > 0 {
		o.Rounds = ps.Rounds
	}
	if d, err := ps.TimeoutDuration(); err != nil {
		return err
	} else if !flags.Changed("timeout") && d > 0 {
		o.Timeout = d
	}
	o.file = ps
	o.baseURLFlag = flags.Changed("base-url")
	return nil
}

// providerSettings are the settings with the command line's flags over
// them, keeping every key with the endpoint it belongs to (see
// llm.ResolveProvider, which llm.NewTurn calls).
func (o *askOptions) providerSettings() (endpoint.ProviderSettings, error) {
	ps := o.file
	ps.BaseURL, ps.Model, ps.APIKeyEnv, ps.API = o.BaseURL, o.Model, o.APIKeyEnv, o.API
	ps.Timeout = o.Timeout.String()
	stream := o.Stream && !o.JSON
	ps.Stream = &stream
	switch o.Tools {
	case "on", "off":
		on := o.Tools == "on"
		ps.Tools = &on
	case "auto":
		ps.Tools = nil
	default:
		return ps, fmt.Errorf("--tools is on, off or auto, not %q", o.Tools)
	}
	ps.Quirks = nil
	if o.Quirks != "" {
		ps.Quirks = []string{o.Quirks}
	}
	if o.baseURLFlag {
		// Typed by the writer: a server the writer chose.
		ps.UntrustedBaseURL = false
	}
	return ps, nil
}

// providerHint adds to a provider that cannot be resolved what to type.
func providerHint(err error) error {
	switch {
	case errors.Is(err, llm.ErrNoProvider):
		return fmt.Errorf("%w (or use --api-key-env, or --base-url for a local server)", err)
	case errors.Is(err, llm.ErrNoModel):
		return fmt.Errorf("%w: use --model or provider.model in quire.yaml", err)
	}
	return err
}

// localHint adds to the error of an ask with no provider configured the
// models the servers on this computer offer, and how to choose one.
func (o *askOptions) localHint(ctx context.Context, ps endpoint.ProviderSettings, err error) error {
	if !errors.Is(err, llm.ErrNoProvider) || ps.Named() {
		return err
	}
	found := localmodel.Find(ctx, o.localModels())
	if len(found) == 0 {
		return err
	}
	return fmt.Errorf("%w\nThese models run on this computer and need no key:\n%sChoose one with: quire models --use N", err, modelList(found))
}

func (o *askOptions) run(cmd *cobra.Command) error {
	ctx := cmd.Context()
	// Who answers is chosen as the server chooses (llm.ChoosePersona),
	// before anything is opened: a name nobody has is refused.
	persona, err := llm.ChoosePersona(o.Persona)
	if err != nil {
		return err
	}
	// The book opens once: its settings are read from disk once, and the
	// provider, the advisor's settings and the MCP servers are decoded
	// from that one reading.
	b, err := o.open(ctx, mbook.Options{})
	if err != nil {
		return err
	}
	defer b.Close()
	store, m := b.Store, b.Manuscript
	trusted := o.trustStore()
	ps, ignored, err := endpoint.ProviderOf(b.Settings, b.Root, trusted)
	if errors.Is(err, trust.ErrRecord) {
		fmt.Fprintf(o.stderr, "quire: %v\n", err)
	} else if err != nil {
		return err
	}
	if len(ignored) > 0 {
		fmt.Fprintf(o.stderr, "quire: %s\n", trust.IgnoredMessage(b.Root, ignored))
	}
	if err := o.withFile(ps, cmd.Flags()); err != nil {
		return err
	}
	ps, err = o.providerSettings()
	if err != nil {
		return err
	}
	settings, err := advisor.SettingsOf(b.Settings, llm.PersonaIDs())
	if err != nil {
		return err
	}
	if !cmd.Flags().Changed("rounds") && o.file.Rounds == 0 && settings.Rounds > 0 {
		o.Rounds = settings.Rounds
	}
	// The book's own servers run only when the writer trusts it; what
	// was set aside was told with the provider settings.
	servers, _, err := endpoint.MCPServersOf(b.Settings, b.Root, trusted)
	if err != nil && !errors.Is(err, trust.ErrRecord) {
		return err
	}
	// A persona whose tools name an MCP server starts it when the turn
	// needs it; it ends with the command.
	mcpPool := mcp.NewClients(servers, mcp.ClientOptions{Logger: o.logger(), Dir: store.Root(),
		OnFailure: func(server string, err error) { fmt.Fprintf(o.stderr, "quire: MCP server %s: %v\n", server, err) }})
	defer mcpPool.Close()
	snap := m.Snapshot()
	place, err := o.place(snap)
	if err != nil {
		return err
	}
	// quire check reports what is wrong in traits: and checks:; the
	// advisor uses what is right.
	cont, _ := continuity.OptionsFrom(b.Settings)
	turn, err := llm.NewTurn(ctx, llm.TurnOptions{
		Request: llm.Request{
			Persona:            persona,
			Message:            o.Message,
			Settings:           settings,
			Proposals:          &proposal.Store{},
			PreviousResponseID: o.Continue,
			MCP:                mcpPool,
			Loop: toolloop.Options{MaxRounds: o.Rounds, ToolCalling: o.ToolCalling, OnTrace: func(r toolloop.TraceRow) {
				if o.Verbose {
					status := "ok"
					if !r.OK {
						status = r.Code
					}
					fmt.Fprintf(o.stderr, "  round %d  %s(%s)  %s  %d ms  %d bytes\n", r.Round, clip.Runes(r.Tool, 200), r.ArgsSummary, status, r.Duration.Milliseconds(), r.OutputBytes)
				}
			}},
		},
		Store:             store,
		Canon:             b.View,
		Manuscript:        snap,
		Place:             place,
		Continuity:        cont,
		Outline:           readOutlineSettings(b.Settings, io.Discard),
		Provider:          ps,
		NeedKey:           !o.Peek,
		Keys:              llm.KeyFinder{Getenv: os.Getenv, Stored: o.keyStore()},
		Provenance:        b.Cache.Provenance(),
		OnProvenanceError: func(err error) { fmt.Fprintf(o.stderr, "quire: provenance not recorded: %v\n", err) },
		Logger:            o.logger(),
	})
	if err != nil {
		return o.localHint(ctx, ps, providerHint(err))
	}
	if w := turn.Key.Withheld; w.Kind != keys.None && !o.Peek {
		fmt.Fprintf(o.stderr, "quire: the key %s is not sent to %s: that server is named by this book's quire.yaml, and a key goes only to a server you set yourself (--base-url, your config.yaml, your editor) or to one that a book you trust names\n", w, ps.BaseURL)
	}
	in, cfg, prov := turn.In, turn.Config, turn.In.Provider
	if o.Peek {
		body, err := llm.Peek(ctx, in)
		if err != nil {
			return err
		}
		// Indented for reading; the content is byte for byte what goes out.
		var pretty bytes.Buffer
		if err := json.Indent(&pretty, body, "", "  "); err != nil {
			return fmt.Errorf("peek: %w", err)
		}
		pretty.WriteByte('\n')
		_, err = o.stdout.Write(pretty.Bytes())
		return err
	}
	// Streamed text goes out as it comes, a round's text before its tool
	// calls too; once that round is known not to be the answer, it is
	// marked as interim, as the plain output marks it (interimLines).
	streamed := false
	if cfg.Stream {
		header := func() {
			if !streamed {
				fmt.Fprintf(o.stdout, "%s:\n\n", persona.Name)
				streamed = true
			}
		}
		roundStreamed := map[int]bool{}
		in.Loop.OnDelta = func(round int, text string) {
			header()
			roundStreamed[round] = true
			_, _ = io.WriteString(o.stdout, text)
		}
		in.Loop.OnInterim = func(round int, text string) {
			header()
			if roundStreamed[round] {
				fmt.Fprintf(o.stdout, "\n%s\n\n", interimNote)
				return
			}
			// Commentary is not streamed: it comes whole with its round.
			_, _ = io.WriteString(o.stdout, interimLines([]string{text}))
		}
	}
	res, err := llm.Ask(ctx, in)
	if streamed {
		fmt.Fprintln(o.stdout)
	}
	if cut := (*provider.CutOffError)(nil); errors.As(err, &cut) && streamed {
		// What arrived is on the terminal already: mark it as partial.
		fmt.Fprintln(o.stdout, "[partial: the model's answer was cut off here]")
	}
	if err != nil {
		return err
	}
	if o.JSON {
		return writeJSON(o.stdout, struct {
			Persona string `json:"persona"`
			Answer  string `json:"answer"`
			// Interim is what the model said on the way, not the answer.
			Interim   []string            `json:"interim,omitempty"`
			Trace     []toolloop.TraceRow `json:"trace"`
			Proposals []proposal.Proposal `json:"proposals"`
			Rounds    int                 `json:"rounds"`
			Stopped   string              `json:"stopped,omitempty"`
			Evidence  []tools.Lookup      `json:"evidence"`
			Warnings  []string            `json:"warnings,omitempty"`
			// ResponseID continues the conversation (--continue) with the
			// Responses API.
			ResponseID string `json:"responseId,omitempty"`
			// ServiceTier is the tier the provider served the turn on.
			ServiceTier string `json:"serviceTier,omitempty"`
		}{res.Persona.ID, res.Answer, res.Interim, res.Trace, res.Proposals, res.Rounds, res.Stopped, nonNil(res.Evidence), res.Warnings, res.ResponseID, res.ServiceTier})
	}
	if !streamed {
		fmt.Fprintf(o.stdout, "%s:\n\n%s%s\n", res.Persona.Name, interimLines(res.Interim), strings.TrimSpace(res.Answer))
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(o.stderr, "quire: %s\n", w)
	}
	if o.Verbose && res.ServiceTier != "" {
		fmt.Fprintf(o.stderr, "  served on the %s tier\n", res.ServiceTier)
	}
	if res.ResponseID != "" && prov.StoresResponses() {
		fmt.Fprintf(o.stderr, "quire: continue this conversation with --api responses --continue %s\n", res.ResponseID)
	}
	if o.Verbose {
		for _, e := range res.Evidence {
			for i, p := range e.Paths {
				asOf := ""
				if e.AsOf != "" {
					asOf = " as of " + e.AsOf
				}
				fmt.Fprintf(o.stderr, "  read %s %s%s\n", codex.PrintableName(p), e.Hashes[i], asOf)
			}
			if !e.OK {
				fmt.Fprintf(o.stderr, "  %s failed: %s\n", clip.Runes(e.Tool, 200), e.Code)
			}
		}
	}
	for _, p := range res.Proposals {
		fmt.Fprintf(o.stdout, "\nProposed (%s, not applied): %s — %s\n%s\n", p.ID, codex.PrintableName(p.Path), p.ChangeSummary, p.Markdown)
	}
	return nil
}

// interimNote follows interim text on the terminal: what the model said
// while it looked things up is shown, but set apart from the answer, the
// same whether the answer streams or not (and --json has it as interim).
const interimNote = "[said while looking things up; not part of the answer]"

// interimLines is interim text as the terminal shows it, each piece
// followed by interimNote and a blank line.
func interimLines(interim []string) string {
	var b strings.Builder
	for _, text := range interim {
		fmt.Fprintf(&b, "%s\n%s\n\n", text, interimNote)
	}
	return b.String()
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// place is where the writer is: the document given with --doc, and the
// selection in it.
func (o *askOptions) place(snap *manuscript.Snapshot) (manuscript.Place, error) {
	var place manuscript.Place
	if o.Doc == "" {
		if o.Selection != "" {
			return place, errors.New("--selection needs --doc")
		}
		return place, nil
	}
	u, err := snap.Document(o.Doc)
	if err != nil {
		return place, err
	}
	place.Current = u.Path
	if o.Selection == "" {
		return place, nil
	}
	start, end, ok := strings.Cut(o.Selection, ":")
	s, err1 := strconv.Atoi(start)
	e, err2 := strconv.Atoi(end)
	if !ok || err1 != nil || err2 != nil {
		return place, fmt.Errorf("--selection is START:END in bytes, not %q", o.Selection)
	}
	sel, err := manuscript.Capture(u, codex.Range{Start: s, End: e})
	if err != nil {
		return place, err
	}
	place.Selection = sel
	return place, nil
}
