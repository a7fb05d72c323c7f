package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
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

// ProviderConfig describes one OpenAI-compatible chat completions endpoint.
type ProviderConfig struct {
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
}

// Provider sends chat completions to one endpoint and model.
type Provider struct {
	cfg     ProviderConfig
	service openai.ChatCompletionService
}

// NewProvider checks cfg and builds the client. The openai-go client is
// assembled from explicit options only (never openai.NewClient, which reads
// OPENAI_* environment variables), so the environment cannot change the
// endpoint, the key or the headers.
func NewProvider(cfg ProviderConfig) (*Provider, error) {
	if strings.TrimSpace(cfg.Model) == "" {
		return nil, errors.New("provider: model is required")
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
	return &Provider{cfg: cfg, service: openai.NewChatCompletionService(opts...)}, nil
}

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
	params, err := p.params(req)
	if err != nil {
		return nil, err
	}
	return json.Marshal(params)
}

// Complete sends one chat completion. Tools are sent only when the provider
// supports them, and then always with parallel_tool_calls false so calls run
// one at a time in a stable order.
func (p *Provider) Complete(ctx context.Context, req CompletionRequest) (*Completion, error) {
	params, err := p.params(req)
	if err != nil {
		return nil, err
	}
	var raw []byte
	var httpResp *http.Response
	// The body is taken raw (quirks must see shapes the SDK's types would
	// not accept) and the response kept for statuses the SDK cannot parse.
	if _, err := p.service.New(ctx, params,
		option.WithResponseBodyInto(&raw),
		option.WithResponseInto(&httpResp)); err != nil {
		return nil, p.readableError(ctx, err, httpResp)
	}
	quirks := slices.Concat(p.cfg.Quirks, req.Quirks)
	return decodeCompletion(raw, quirks)
}

// params builds the request body.
func (p *Provider) params(req CompletionRequest) (openai.ChatCompletionNewParams, error) {
	params := openai.ChatCompletionNewParams{Model: shared.ChatModel(p.cfg.Model)}
	for i, m := range req.Messages {
		msg, err := messageParam(m)
		if err != nil {
			return params, fmt.Errorf("message %d: %w", i, err)
		}
		params.Messages = append(params.Messages, msg)
	}
	if !p.cfg.Tools || len(req.Tools) == 0 {
		return params, nil
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
		return params, fmt.Errorf("tool choice %q: want auto, none or required", req.ToolChoice)
	}
	choice := req.ToolChoice
	if choice == "" {
		choice = ToolChoiceAuto
	}
	params.ToolChoice = openai.ChatCompletionToolChoiceOptionUnionParam{OfAuto: openai.String(choice)}
	return params, nil
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
	Model   string `json:"model"`
	Choices []struct {
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
