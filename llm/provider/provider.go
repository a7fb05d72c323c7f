package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
	"github.com/quire-ink/quire/codex/clip"
)

// Provider defaults.
const (
	DefaultBaseURL = "https://api.openai.com/v1"
	DefaultTimeout = 120 * time.Second
	DefaultRetries = 2
)

// Tool choices a CompletionRequest may ask for. Empty means auto when tools
// are sent.
const (
	ToolChoiceAuto     = "auto"
	ToolChoiceNone     = "none"
	ToolChoiceRequired = "required"
)

// APIs a provider can speak (Config.API).
const (
	// APIChat is the Chat Completions API (POST /chat/completions), which
	// every OpenAI-compatible server offers.
	APIChat = "chat"
	// APIResponses is OpenAI's Responses API (POST /responses): system
	// messages become instructions, and a conversation can be continued
	// from a stored response (CompletionRequest.PreviousResponseID)
	// instead of resending it.
	APIResponses = "responses"
)

// Config describes one OpenAI-compatible endpoint.
type Config struct {
	// API is "chat" (the default when empty) or "responses".
	API string
	// BaseURL is the API root; "" means https://api.openai.com/v1.
	BaseURL string
	Model   string
	// APIKey is sent as a bearer token. It is only ever taken from here:
	// the client never falls back to OPENAI_API_KEY or any other
	// environment variable, so a key meant for OpenAI cannot leak to a
	// local or third-party server.
	APIKey string
	// Timeout bounds each attempt, including any wait before a retry
	// within it; zero means 120 s. An attempt that times out is not
	// retried.
	Timeout time.Duration
	// Retries is how many times a failed attempt (408, 409, 429, 5xx,
	// connection error) is retried; zero means 2, negative means none. A
	// 429 waits as long as Retry-After asks, up to two minutes; a longer
	// wait is returned as the error instead.
	Retries int
	// Tools says the provider supports tool calling. When false, no tools
	// are ever sent (inline mode: the caller puts context in the prompt).
	Tools bool
	// Quirks are response transforms applied to every completion.
	Quirks []Quirk
	// HTTPClient replaces the HTTP client (tests). It should not set a
	// Timeout of its own; Timeout above applies per attempt.
	HTTPClient *http.Client
	// Defaults are request-body fields sent with every completion, such as
	// temperature, top_p, max_tokens or seed. Values must encode as JSON; a
	// nil value is the same as leaving the key out. Keys the client owns
	// (see ReservedOptionKeys) are refused by New.
	Defaults map[string]any
	// ServiceTier is sent as service_tier: "" (not sent), "auto",
	// "default", "flex" or "priority".
	ServiceTier string
	// FlexFallback, with ServiceTier "flex", retries a request once with
	// the "default" tier when the provider refuses flex capacity (see
	// IsFlexRefusal). The flex attempt is then not retried by the client
	// itself: the fallback replaces those retries.
	FlexFallback bool
	// Stream sends requests with stream: true, handing the answer's text
	// to CompletionRequest.OnDelta as it arrives, with either API.
	Stream bool
}

// Service tiers Config.ServiceTier accepts.
const (
	ServiceTierAuto     = "auto"
	ServiceTierDefault  = "default"
	ServiceTierFlex     = "flex"
	ServiceTierPriority = "priority"
)

// Provider sends completions to one endpoint and model, through the Chat
// Completions API or the Responses API (Config.API).
type Provider struct {
	cfg      Config
	defaults map[string]json.RawMessage // cfg.Defaults, encoded once
	service  openai.ChatCompletionService
	// responses is the client of the Responses API (API "responses").
	responses responses.ResponseService
	// keys finds the key (and its pieces) in what the provider sends
	// back, to take it out.
	keys *keyMatcher
}

// New checks cfg and builds the client. The openai-go client is
// assembled from explicit options only (never openai.NewClient, which reads
// OPENAI_* environment variables), so the environment cannot change the
// endpoint, the key or the headers.
func New(cfg Config) (*Provider, error) {
	if strings.TrimSpace(cfg.Model) == "" {
		return nil, errors.New("provider: model is required")
	}
	switch cfg.API {
	case "":
		cfg.API = APIChat
	case APIChat, APIResponses:
	default:
		return nil, fmt.Errorf("provider: unknown API %q (known: %s, %s)", cfg.API, APIChat, APIResponses)
	}
	if cfg.BaseURL == "" {
		cfg.BaseURL = DefaultBaseURL
	}
	u, err := url.Parse(cfg.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("provider: base URL %q must be an http or https URL", cfg.BaseURL)
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	switch {
	case cfg.Retries == 0:
		cfg.Retries = DefaultRetries
	case cfg.Retries < 0:
		cfg.Retries = 0
	}
	for _, q := range cfg.Quirks {
		if !q.Valid() {
			return nil, fmt.Errorf("provider: unknown quirk %q (known: %s)", q, strings.Join(quirkNames(), ", "))
		}
	}
	for _, k := range slices.Sorted(maps.Keys(cfg.Defaults)) {
		if reservedOptionKey(k) {
			if k == "service_tier" {
				return nil, errors.New(`provider: default "service_tier" is reserved; set the service tier instead`)
			}
			return nil, fmt.Errorf("provider: default %q is reserved: the client sets it itself", k)
		}
	}
	defaults, err := encodeOptions("provider: default", cfg.Defaults)
	if err != nil {
		return nil, err
	}
	cfg.Defaults = maps.Clone(cfg.Defaults)
	switch cfg.ServiceTier {
	case "", ServiceTierAuto, ServiceTierDefault, ServiceTierFlex, ServiceTierPriority:
	default:
		return nil, fmt.Errorf("provider: unknown service tier %q (known: auto, default, flex, priority)", cfg.ServiceTier)
	}
	if cfg.FlexFallback && cfg.ServiceTier != ServiceTierFlex {
		return nil, fmt.Errorf("provider: flex fallback needs service tier flex, not %q", cfg.ServiceTier)
	}
	httpClient := cfg.HTTPClient
	if httpClient == nil {
		httpClient = &http.Client{}
	}
	opts := []option.RequestOption{
		option.WithHTTPClient(httpClient),
		option.WithBaseURL(cfg.BaseURL),
		option.WithMaxRetries(cfg.Retries),
		option.WithRequestTimeout(cfg.Timeout),
		option.WithMiddleware(boundReplies),
	}
	if cfg.APIKey != "" {
		opts = append(opts, option.WithAPIKey(cfg.APIKey))
	}
	p := &Provider{cfg: cfg, defaults: defaults, keys: newKeyMatcher([]string{cfg.APIKey})}
	if cfg.API == APIResponses {
		p.responses = responses.NewResponseService(opts...)
	} else {
		p.service = openai.NewChatCompletionService(opts...)
	}
	return p, nil
}

// API is the API the provider speaks: "chat" or "responses".
func (p *Provider) API() string { return p.cfg.API }

// Model is the model the provider asks for.
func (p *Provider) Model() string { return p.cfg.Model }

// SupportsTools reports whether tools are sent to this provider.
func (p *Provider) SupportsTools() bool { return p.cfg.Tools }

// offered are the tools req sends: none when the provider takes none.
func (p *Provider) offered(req CompletionRequest) []Tool {
	if !p.cfg.Tools {
		return nil
	}
	return req.Tools
}

// CompletionRequest is one chat completion to send.
type CompletionRequest struct {
	Messages []Message
	// Tools are sent only when the provider supports tool calling.
	Tools []Tool
	// ToolChoice is "", "auto", "none" or "required"; only sent with tools.
	ToolChoice string
	// Quirks are response transforms for this request, added to the
	// provider's own.
	Quirks []Quirk
	// Overrides are request-body fields for this request, merged over the
	// provider's Defaults (an override wins; a nil override removes the
	// default). Reserved keys (ReservedOptionKeys) are dropped and named in
	// Completion.Warnings; a value that does not encode as JSON is an
	// error.
	Overrides map[string]any
	// PreviousResponseID continues the conversation of a stored response
	// (Responses API only; ignored by a chat provider). Messages must then
	// hold only what that response has not seen: system messages, which
	// are always sent (as instructions, since a response does not inherit
	// them), and the messages that follow the previous response's output,
	// such as the tool results it asked for or the writer's next message.
	// Earlier history is not resent.
	PreviousResponseID string
	// OnDelta receives the reply's text piece by piece when the provider
	// streams (Config.Stream); the Completion still holds it all.
	OnDelta func(text string)
	// OnInterim, when set, receives each piece of interim text of a
	// streamed reply (Completion.Interim) as soon as it is whole, so it
	// can be shown before the answer that streams after it. It is in
	// Completion.Interim all the same.
	OnInterim func(text string)
	// MaxAnswerBytes bounds the reply's text (0: no bound). A longer
	// reply is cut there and the Completion says Truncated; a stream is
	// not read past it.
	MaxAnswerBytes int
}

// Usage counts tokens as the provider reported them.
type Usage struct {
	PromptTokens     int64
	CompletionTokens int64
}

func (u *Usage) Add(o Usage) {
	u.PromptTokens += o.PromptTokens
	u.CompletionTokens += o.CompletionTokens
}

// Completion is the provider's answer to one request.
type Completion struct {
	// Message is the assistant message: content and tool calls.
	Message      Message
	FinishReason string
	Usage        Usage
	// Model is the model that answered, as the provider named it.
	Model string
	// ServiceTier is the tier that served the request: the response's
	// service_tier when the provider reports one, else the tier sent on
	// the attempt that succeeded ("" when none was sent).
	ServiceTier string
	// Warnings are things the writer may want to know that did not stop
	// the request: dropped reserved overrides, a flex fallback.
	Warnings []string
	// ResponseID is the id of the response (Responses API only), to pass
	// as the next request's PreviousResponseID, unless NotStored.
	ResponseID string
	// NotStored says the response reports "store": false: the provider
	// kept nothing of it (asked not to, or keeping nothing at all, as
	// DeepSeek's Responses API), so no later request can continue from
	// it and the conversation must be sent whole.
	NotStored bool
	// Truncated says the reply's text was cut at the request's
	// MaxAnswerBytes.
	Truncated bool
	// Interim is text of the reply that is not its answer: the Responses
	// API's messages of phase "commentary", said on the way to the
	// final answer. It is not in Message.Content.
	Interim []string
}

// PeekRequest returns the JSON body Complete would send for req, without
// sending anything.
func (p *Provider) PeekRequest(req CompletionRequest) ([]byte, error) {
	if p.cfg.API == APIResponses {
		params, _, err := p.responsesParams(req, p.cfg.ServiceTier)
		if err != nil {
			return nil, err
		}
		body, err := json.Marshal(params)
		if err != nil || !p.cfg.Stream {
			return body, err
		}
		// The SDK adds stream after the body is built, at its end.
		body = bytes.TrimSpace(body)
		return append(body[:len(body)-1], `,"stream":true}`...), nil
	}
	params, _, err := p.params(req, p.cfg.ServiceTier)
	if err != nil {
		return nil, err
	}
	body, err := json.Marshal(params)
	if err != nil || !p.cfg.Stream {
		return body, err
	}
	// The SDK adds the streaming fields after the body is built, at its
	// end: stream_options (ours, first) then stream.
	opts, err := json.Marshal(streamOptions)
	if err != nil {
		return nil, err
	}
	body = bytes.TrimSpace(body)
	body = body[:len(body)-1] // the object's closing brace
	body = append(body, `,"stream_options":`...)
	body = append(body, opts...)
	return append(body, `,"stream":true}`...), nil
}

// Complete sends one completion request. Tools are sent only when the provider
// supports them, and then always with parallel_tool_calls false so calls run
// one at a time in a stable order.
//
// With ServiceTier "flex" and FlexFallback, a flex refusal (IsFlexRefusal)
// is answered by sending the same request once more with the "default"
// tier; the completion then carries a warning saying so.
func (p *Provider) Complete(ctx context.Context, req CompletionRequest) (*Completion, error) {
	if on := req.OnDelta; on != nil {
		red := newStreamRedactor(p.keys, on)
		req.OnDelta = red.write
		// Held-back text goes out when the reply ends, whole or cut.
		defer red.flush()
	}
	tier := p.cfg.ServiceTier
	fallback := tier == ServiceTierFlex && p.cfg.FlexFallback
	var extra []option.RequestOption
	if fallback {
		extra = append(extra, option.WithMaxRetries(0))
	}
	c, warnings, err := p.attempt(ctx, req, tier, extra...)
	if err != nil && fallback && ctx.Err() == nil {
		var pe *Error
		if errors.As(err, &pe) && IsFlexRefusal(pe) {
			tier = ServiceTierDefault
			c, warnings, err = p.attempt(ctx, req, tier)
			if err == nil {
				warnings = append(warnings, fmt.Sprintf("flex tier refused (%s); answered on the default tier", pe.Error()))
			} else {
				err = fmt.Errorf("flex tier refused (%s), then the default tier failed: %w", pe.Error(), err)
			}
		}
	}
	if err != nil {
		var cut *CutOffError
		if errors.As(err, &cut) {
			cut.Partial = p.keys.redact(cut.Partial)
		}
		// Whatever the provider or the transport said, the key it was
		// given (or a piece of it, echoed back) never goes further.
		return nil, redactError(err, p.cfg.APIKey)
	}
	redactMessage(&c.Message, p.keys)
	for i := range c.Interim {
		c.Interim[i] = p.keys.redact(c.Interim[i])
	}
	if c.ServiceTier == "" {
		c.ServiceTier = tier
	}
	if m := req.MaxAnswerBytes; m > 0 && len(c.Message.Content) > m {
		c.Message.Content = clip.Bytes(c.Message.Content, m)
		c.Truncated = true
	}
	c.Warnings = append(warnings, c.Warnings...)
	return c, nil
}

// rawReply makes the SDK hand back the body raw (quirks must see shapes
// its types would not accept) and keep the HTTP response, for statuses it
// cannot parse.
func rawReply(raw *[]byte, resp **http.Response, extra []option.RequestOption) []option.RequestOption {
	return append([]option.RequestOption{option.WithResponseBodyInto(raw), option.WithResponseInto(resp)}, extra...)
}

// attempt sends req once (with the client's own retries unless extra
// turns them off) on the given service tier.
func (p *Provider) attempt(ctx context.Context, req CompletionRequest, tier string, extra ...option.RequestOption) (*Completion, []string, error) {
	if p.cfg.API == APIResponses {
		if p.cfg.Stream {
			return p.attemptResponsesStream(ctx, req, tier, extra...)
		}
		return p.attemptResponses(ctx, req, tier, extra...)
	}
	if p.cfg.Stream {
		return p.attemptStream(ctx, req, tier, extra...)
	}
	params, warnings, err := p.params(req, tier)
	if err != nil {
		return nil, nil, err
	}
	var raw []byte
	var httpResp *http.Response
	if _, err := p.service.New(ctx, params, rawReply(&raw, &httpResp, extra)...); err != nil {
		return nil, warnings, p.readableError(ctx, err, httpResp)
	}
	quirks := slices.Concat(p.cfg.Quirks, req.Quirks)
	c, err := decodeCompletion(raw, quirks, p.offered(req))
	return c, warnings, err
}
