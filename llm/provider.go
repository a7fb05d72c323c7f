package llm

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
	"strconv"
	"strings"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
	"github.com/openai/openai-go/v3/shared"
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

// APIs a provider can speak (ProviderConfig.API).
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

// ProviderConfig describes one OpenAI-compatible endpoint.
type ProviderConfig struct {
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
	// (see ReservedOptionKeys) are refused by NewProvider.
	Defaults map[string]any
	// ServiceTier is sent as service_tier: "" (not sent), "auto",
	// "default", "flex" or "priority".
	ServiceTier string
	// FlexFallback, with ServiceTier "flex", retries a request once with
	// the "default" tier when the provider refuses flex capacity (see
	// IsFlexRefusal). The flex attempt is then not retried by the client
	// itself: the fallback replaces those retries.
	FlexFallback bool
	// Stream sends Chat Completions requests with stream: true, handing
	// the answer's text to CompletionRequest.OnDelta as it arrives. The
	// Responses API is never streamed.
	Stream bool
}

// Service tiers ProviderConfig.ServiceTier accepts.
const (
	ServiceTierAuto     = "auto"
	ServiceTierDefault  = "default"
	ServiceTierFlex     = "flex"
	ServiceTierPriority = "priority"
)

// ReservedOptionKeys are request-body fields that ProviderConfig.Defaults
// and CompletionRequest.Overrides can never set: the client builds them
// itself (service_tier comes from ProviderConfig.ServiceTier, so that flex
// fallback stays in control of it).
var ReservedOptionKeys = []string{
	"model", "messages", "tools", "tool_choice", "response_format",
	"parallel_tool_calls", "stream", "stream_options", "service_tier",
	"input", "instructions", "previous_response_id",
}

func reservedOptionKey(k string) bool { return slices.Contains(ReservedOptionKeys, k) }

// encodeOptions checks that every value encodes as JSON and returns the
// encoded values; nil values are left out. what names the map in errors.
func encodeOptions(what string, opts map[string]any) (map[string]json.RawMessage, error) {
	out := make(map[string]json.RawMessage, len(opts))
	for _, k := range slices.Sorted(maps.Keys(opts)) {
		v := opts[k]
		if v == nil {
			continue
		}
		b, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("%s %q: value is not JSON-encodable: %v", what, k, err)
		}
		out[k] = b
	}
	return out, nil
}

// Provider sends completions to one endpoint and model, through the Chat
// Completions API or the Responses API (ProviderConfig.API).
type Provider struct {
	cfg      ProviderConfig
	defaults map[string]json.RawMessage // cfg.Defaults, encoded once
	service  openai.ChatCompletionService
	// responses is the client of the Responses API (API "responses").
	responses responses.ResponseService
}

// NewProvider checks cfg and builds the client. The openai-go client is
// assembled from explicit options only (never openai.NewClient, which reads
// OPENAI_* environment variables), so the environment cannot change the
// endpoint, the key or the headers.
func NewProvider(cfg ProviderConfig) (*Provider, error) {
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
		if !q.valid() {
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
	}
	if cfg.APIKey != "" {
		opts = append(opts, option.WithAPIKey(cfg.APIKey))
	}
	p := &Provider{cfg: cfg, defaults: defaults}
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
	// streams (ProviderConfig.Stream); the Completion still holds it all.
	OnDelta func(text string)
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

func (u *Usage) add(o Usage) {
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
	// as the next request's PreviousResponseID.
	ResponseID string
	// Truncated says the reply's text was cut at the request's
	// MaxAnswerBytes.
	Truncated bool
}

// ProviderError is an error status from the provider, made readable.
type ProviderError struct {
	Status     int
	Code       string
	Message    string
	RetryAfter time.Duration
}

func (e *ProviderError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "provider returned %d", e.Status)
	if e.Code != "" {
		b.WriteString(" " + e.Code)
	}
	msg := e.Message
	if msg == "" {
		msg = http.StatusText(e.Status)
	}
	if msg != "" {
		b.WriteString(": " + msg)
	}
	if e.RetryAfter > 0 {
		fmt.Fprintf(&b, " (retry after %s)", e.RetryAfter)
	}
	return b.String()
}

// PeekRequest returns the JSON body Complete would send for req, without
// sending anything.
func (p *Provider) PeekRequest(req CompletionRequest) ([]byte, error) {
	if p.cfg.API == APIResponses {
		params, _, err := p.responsesParams(req, p.cfg.ServiceTier)
		if err != nil {
			return nil, err
		}
		return json.Marshal(params)
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
	tier := p.cfg.ServiceTier
	fallback := tier == ServiceTierFlex && p.cfg.FlexFallback
	var extra []option.RequestOption
	if fallback {
		extra = append(extra, option.WithMaxRetries(0))
	}
	c, warnings, err := p.attempt(ctx, req, tier, extra...)
	if err != nil && fallback && ctx.Err() == nil {
		var pe *ProviderError
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
		// Whatever the provider or the transport said, the key it was
		// given (or a piece of it, echoed back) never goes further.
		return nil, redactError(err, p.cfg.APIKey)
	}
	if c.ServiceTier == "" {
		c.ServiceTier = tier
	}
	if m := req.MaxAnswerBytes; m > 0 && len(c.Message.Content) > m {
		c.Message.Content = cutToBytes(c.Message.Content, m)
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
	c, err := decodeCompletion(raw, quirks)
	return c, warnings, err
}

// IsFlexRefusal reports whether err is the provider declining to serve a
// flex-tier request for lack of capacity: any 503, or a 429 whose code or
// message says the resource is unavailable or mentions flex (OpenAI
// answers "429 Resource Unavailable", code resource_unavailable). A plain
// rate limit or quota 429 is not a refusal: the default tier would refuse
// it too.
func IsFlexRefusal(err error) bool {
	var pe *ProviderError
	if !errors.As(err, &pe) {
		return false
	}
	switch pe.Status {
	case http.StatusServiceUnavailable:
		return true
	case http.StatusTooManyRequests:
		text := strings.ToLower(pe.Code + " " + pe.Message)
		text = strings.NewReplacer("_", " ", "-", " ").Replace(text)
		return strings.Contains(text, "resource unavailable") ||
			strings.Contains(text, "resources unavailable") ||
			strings.Contains(text, "flex")
	}
	return false
}

// options merges the provider's defaults and req's overrides into the
// fields sent alongside the ones the client builds, returning the dropped
// reserved overrides as warnings.
func (p *Provider) options(req CompletionRequest) (map[string]any, []string, error) {
	var warnings []string
	overrides := make(map[string]any, len(req.Overrides))
	var removed []string
	for k, v := range req.Overrides {
		switch {
		case reservedOptionKey(k):
			warnings = append(warnings, fmt.Sprintf("request option %q is reserved and was not sent", k))
		case v == nil:
			removed = append(removed, k)
		default:
			overrides[k] = v
		}
	}
	slices.Sort(warnings)
	encoded, err := encodeOptions("request option", overrides)
	if err != nil {
		return nil, nil, err
	}
	merged := make(map[string]any, len(p.defaults)+len(encoded))
	for k, v := range p.defaults {
		merged[k] = v
	}
	for _, k := range removed {
		delete(merged, k)
	}
	for k, v := range encoded {
		merged[k] = v
	}
	return merged, warnings, nil
}

// params builds the request body for the given service tier.
func (p *Provider) params(req CompletionRequest, tier string) (openai.ChatCompletionNewParams, []string, error) {
	params := openai.ChatCompletionNewParams{Model: shared.ChatModel(p.cfg.Model)}
	params.ServiceTier = openai.ChatCompletionNewParamsServiceTier(tier)
	extras, warnings, err := p.options(req)
	if err != nil {
		return params, nil, err
	}
	if len(extras) > 0 {
		params.SetExtraFields(extras)
	}
	for i, m := range req.Messages {
		msg, err := messageParam(m)
		if err != nil {
			return params, nil, fmt.Errorf("message %d: %w", i, err)
		}
		params.Messages = append(params.Messages, msg)
	}
	if !p.cfg.Tools || len(req.Tools) == 0 {
		return params, warnings, nil
	}
	for _, t := range req.Tools {
		def := shared.FunctionDefinitionParam{
			Name:       t.Name,
			Parameters: shared.FunctionParameters(t.Parameters),
		}
		if t.Description != "" {
			def.Description = openai.String(t.Description)
		}
		params.Tools = append(params.Tools, openai.ChatCompletionFunctionTool(def))
	}
	params.ParallelToolCalls = openai.Bool(false)
	switch req.ToolChoice {
	case "", ToolChoiceAuto, ToolChoiceNone, ToolChoiceRequired:
	default:
		return params, nil, fmt.Errorf("tool choice %q: want auto, none or required", req.ToolChoice)
	}
	choice := req.ToolChoice
	if choice == "" {
		choice = ToolChoiceAuto
	}
	params.ToolChoice = openai.ChatCompletionToolChoiceOptionUnionParam{OfAuto: openai.String(choice)}
	return params, warnings, nil
}

// messageParam converts one message to the Chat Completions shape.
func messageParam(m Message) (openai.ChatCompletionMessageParamUnion, error) {
	switch m.Role {
	case RoleSystem:
		return openai.SystemMessage(m.Content), nil
	case RoleUser:
		return openai.UserMessage(m.Content), nil
	case RoleTool:
		if m.ToolCallID == "" {
			return openai.ChatCompletionMessageParamUnion{}, errors.New("tool message without tool call id")
		}
		return openai.ToolMessage(m.Content, m.ToolCallID), nil
	case RoleAssistant:
		a := openai.ChatCompletionAssistantMessageParam{}
		// An assistant message that only calls tools carries no content
		// (null), which every compatible server accepts.
		if m.Content != "" || len(m.ToolCalls) == 0 {
			a.Content.OfString = openai.String(m.Content)
		}
		for _, c := range m.ToolCalls {
			a.ToolCalls = append(a.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{
				OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
					ID: c.ID,
					Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{
						Name:      c.Name,
						Arguments: c.Arguments,
					},
				},
			})
		}
		return openai.ChatCompletionMessageParamUnion{OfAssistant: &a}, nil
	default:
		return openai.ChatCompletionMessageParamUnion{}, fmt.Errorf("unknown role %q", m.Role)
	}
}

// readableError turns what the client returned into an error a writer can
// read: a status with the provider's code and message, or a timeout.
func (p *Provider) readableError(ctx context.Context, err error, resp *http.Response) error {
	var apiErr *openai.Error
	if errors.As(err, &apiErr) {
		pe := &ProviderError{Status: apiErr.StatusCode, Code: apiErr.Code, Message: apiErr.Message}
		if pe.Code == "" {
			pe.Code = apiErr.Type
		}
		// The provider's own words may echo the key (a 401 often does).
		pe.Code = BoundText(RedactSecrets(pe.Code, p.cfg.APIKey), maxErrorTextRunes)
		pe.Message = BoundText(RedactSecrets(pe.Message, p.cfg.APIKey), maxErrorTextRunes)
		pe.RetryAfter = retryAfter(apiErr.Response)
		return pe
	}
	if resp != nil && resp.StatusCode >= 400 {
		return &ProviderError{Status: resp.StatusCode, RetryAfter: retryAfter(resp)}
	}
	if ctx.Err() == nil && (errors.Is(err, context.DeadlineExceeded) || isTimeout(err)) {
		return &TimeoutError{After: p.cfg.Timeout, Err: err}
	}
	if ctx.Err() != nil {
		return fmt.Errorf("provider request cancelled: %w", ctx.Err())
	}
	return fmt.Errorf("provider request failed: %w", err)
}

// TimeoutError is a request that got no answer in time.
type TimeoutError struct {
	After time.Duration
	Err   error
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("provider request timed out after %s", formatSeconds(e.After))
}

func (e *TimeoutError) Unwrap() error { return e.Err }

// formatSeconds renders whole seconds as "120s" and anything else as
// time.Duration does.
func formatSeconds(d time.Duration) string {
	if d%time.Second == 0 {
		return strconv.FormatInt(int64(d/time.Second), 10) + "s"
	}
	return d.String()
}

func isTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.As(err, &t) && t.Timeout()
}

// retryAfter reads Retry-After-Ms or Retry-After (seconds) from resp.
func retryAfter(resp *http.Response) time.Duration {
	if resp == nil {
		return 0
	}
	if v := resp.Header.Get("Retry-After-Ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	v := resp.Header.Get("Retry-After")
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s > 0 {
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := time.Until(t); d > 0 {
			return d.Round(time.Second)
		}
	}
	return 0
}

// wireResponse is the part of a chat completion the loop reads. It is
// decoded by hand rather than through the SDK's types so that quirks can
// see, and repair, shapes the SDK would not accept.
type wireResponse struct {
	Model       string `json:"model"`
	ServiceTier string `json:"service_tier"`
	Choices     []struct {
		FinishReason string          `json:"finish_reason"`
		Message      json.RawMessage `json:"message"`
	} `json:"choices"`
	Usage struct {
		PromptTokens     int64 `json:"prompt_tokens"`
		CompletionTokens int64 `json:"completion_tokens"`
	} `json:"usage"`
}

type wireToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
}

// decodeCompletion reads a response body, applying quirks to the message.
func decodeCompletion(raw []byte, quirks []Quirk) (*Completion, error) {
	var resp wireResponse
	if err := json.Unmarshal(raw, &resp); err != nil {
		return nil, fmt.Errorf("provider response is not a chat completion: %v", err)
	}
	if len(resp.Choices) == 0 {
		return nil, errors.New("provider response has no choices")
	}
	choice := resp.Choices[0]
	msgRaw, err := applyRawQuirks(choice.Message, quirks)
	if err != nil {
		return nil, err
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(msgRaw, &fields); err != nil {
		return nil, fmt.Errorf("provider response message is not an object: %v", err)
	}
	msg := Message{Role: RoleAssistant}
	msg.Content, err = decodeContent(fields["content"])
	if err != nil {
		return nil, err
	}
	if tc := fields["tool_calls"]; !isNull(tc) {
		var calls []wireToolCall
		if err := json.Unmarshal(tc, &calls); err != nil {
			return nil, fmt.Errorf("provider response: tool_calls is not an array of tool calls (quirk %s may help): %v", QuirkToolCallsObject, err)
		}
		for i, c := range calls {
			args, err := decodeArguments(c.Function.Arguments)
			if err != nil {
				return nil, fmt.Errorf("provider response: tool call %d (%s): %w", i, c.Function.Name, err)
			}
			msg.ToolCalls = append(msg.ToolCalls, ToolCall{ID: c.ID, Name: c.Function.Name, Arguments: args})
		}
	}
	applyMessageQuirks(&msg, quirks)
	return &Completion{
		Message:      msg,
		FinishReason: choice.FinishReason,
		Usage:        Usage{PromptTokens: resp.Usage.PromptTokens, CompletionTokens: resp.Usage.CompletionTokens},
		Model:        resp.Model,
		ServiceTier:  resp.ServiceTier,
	}, nil
}

// decodeContent accepts a string, null, or an array of text parts.
func decodeContent(raw json.RawMessage) (string, error) {
	if isNull(raw) {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", fmt.Errorf("provider response: content is neither text nor text parts: %v", err)
	}
	var b strings.Builder
	for _, p := range parts {
		if p.Type == "" || p.Type == "text" {
			b.WriteString(p.Text)
		}
	}
	return b.String(), nil
}

// decodeArguments accepts the arguments string of a tool call.
func decodeArguments(raw json.RawMessage) (string, error) {
	if isNull(raw) {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", fmt.Errorf("arguments are not a JSON string (quirk %s may help)", QuirkArgumentsObject)
	}
	return s, nil
}

func isNull(raw json.RawMessage) bool {
	s := strings.TrimSpace(string(raw))
	return s == "" || s == "null"
}
