package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/responses"
	"github.com/openai/openai-go/v3/shared"
	"github.com/quire-ink/quire/llm/provider/chatwire"
)

// This file is the Responses API side of Provider (Config.API
// "responses"). The request is built with the SDK's types; the response is
// decoded by hand, like a chat completion, so quirks can repair it.

// responsesParams builds the Responses API body for req on the given
// service tier. System messages become instructions (joined by a blank
// line); every other message becomes an input item, in order.
func (p *Provider) responsesParams(req CompletionRequest, tier string) (responses.ResponseNewParams, []string, error) {
	params := responses.ResponseNewParams{Model: shared.ResponsesModel(p.cfg.Model)}
	params.ServiceTier = responses.ResponseNewParamsServiceTier(tier)
	extras, warnings, err := p.options(req)
	if err != nil {
		return params, nil, err
	}
	if len(extras) > 0 {
		params.SetExtraFields(extras)
	}
	if req.PreviousResponseID != "" {
		params.PreviousResponseID = openai.String(req.PreviousResponseID)
	}
	if isJSONFalse(extras["store"]) {
		// Nothing is kept for a later request: the reasoning must come
		// back with the response, to be resent with the turn.
		params.Include = append(params.Include, responses.ResponseIncludableReasoningEncryptedContent)
	}
	var instructions []string
	items := responses.ResponseInputParam{}
	for i, m := range req.Messages {
		if m.Role == RoleSystem {
			instructions = append(instructions, m.Content)
			continue
		}
		its, err := inputItems(m)
		if err != nil {
			return params, nil, fmt.Errorf("message %d: %w", i, err)
		}
		items = append(items, its...)
	}
	if len(instructions) > 0 {
		params.Instructions = openai.String(strings.Join(instructions, "\n\n"))
	}
	params.Input = responses.ResponseNewParamsInputUnion{OfInputItemList: items}
	if !p.cfg.Tools || len(req.Tools) == 0 {
		return params, warnings, nil
	}
	for _, t := range req.Tools {
		// strict stays off: the tool schemas are not written for strict
		// mode (every property required, no additional properties).
		tool := responses.ToolParamOfFunction(t.Name, t.Parameters, false)
		if t.Description != "" {
			tool.OfFunction.Description = openai.String(t.Description)
		}
		params.Tools = append(params.Tools, tool)
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
	params.ToolChoice = responses.ResponseNewParamsToolChoiceUnion{
		OfToolChoiceMode: openai.Opt(responses.ToolChoiceOptions(choice)),
	}
	return params, warnings, nil
}

// inputItems converts one non-system message to Responses input items:
// user and assistant text as messages, an assistant's tool calls as
// function_call items, a tool result as a function_call_output item.
func inputItems(m Message) ([]responses.ResponseInputItemUnionParam, error) {
	switch m.Role {
	case RoleUser:
		return []responses.ResponseInputItemUnionParam{
			responses.ResponseInputItemParamOfMessage(m.Content, responses.EasyInputMessageRoleUser),
		}, nil
	case RoleAssistant:
		var out []responses.ResponseInputItemUnionParam
		for _, raw := range m.ReasoningItems {
			// Resent as it came, encrypted content and all.
			item := param.Override[responses.ResponseReasoningItemParam](raw)
			out = append(out, responses.ResponseInputItemUnionParam{OfReasoning: &item})
		}
		if m.Content != "" || len(m.ToolCalls) == 0 {
			out = append(out, responses.ResponseInputItemParamOfMessage(m.Content, responses.EasyInputMessageRoleAssistant))
		}
		for _, c := range m.ToolCalls {
			if c.ID == "" {
				return nil, fmt.Errorf("tool call %s without id", c.Name)
			}
			out = append(out, responses.ResponseInputItemParamOfFunctionCall(c.Arguments, c.ID, c.Name))
		}
		return out, nil
	case RoleTool:
		if m.ToolCallID == "" {
			return nil, errors.New("tool message without tool call id")
		}
		item := responses.ResponseInputItemParamOfFunctionCallOutput(m.Content)
		item.OfFunctionCallOutput.CallID = openai.String(m.ToolCallID)
		return []responses.ResponseInputItemUnionParam{item}, nil
	default:
		return nil, fmt.Errorf("unknown role %q", m.Role)
	}
}

// attemptResponses sends req once to the Responses API.
func (p *Provider) attemptResponses(ctx context.Context, req CompletionRequest, tier string, extra ...option.RequestOption) (*Completion, []string, error) {
	params, warnings, err := p.responsesParams(req, tier)
	if err != nil {
		return nil, nil, err
	}
	var raw []byte
	var httpResp *http.Response
	if _, err := p.responses.New(ctx, params, rawReply(&raw, &httpResp, extra)...); err != nil {
		return nil, warnings, p.readableError(ctx, err, httpResp)
	}
	c, err := decodeResponse(raw, slices.Concat(p.cfg.Quirks, req.Quirks), p.offered(req))
	return c, warnings, err
}

// wireResponsesBody is the part of a Responses API response the loop
// reads.
type wireResponsesBody struct {
	ID          string `json:"id"`
	Model       string `json:"model"`
	ServiceTier string `json:"service_tier"`
	Status      string `json:"status"`
	// Store is false when the provider kept nothing of the response:
	// asked so (store false), or because it keeps nothing (DeepSeek).
	Store             *bool             `json:"store"`
	Output            []json.RawMessage `json:"output"`
	IncompleteDetails *struct {
		Reason string `json:"reason"`
	} `json:"incomplete_details"`
	Error *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	Usage struct {
		InputTokens  int64 `json:"input_tokens"`
		OutputTokens int64 `json:"output_tokens"`
	} `json:"usage"`
}

// wireOutputItem is one output item: a message or a function call (other
// types are skipped).
type wireOutputItem struct {
	Type string `json:"type"`
	// Phase marks a message "commentary" (said on the way, as interim
	// text) or "final_answer"; models without phases leave it out.
	Phase   string `json:"phase"`
	Content []struct {
		Type    string `json:"type"`
		Text    string `json:"text"`
		Refusal string `json:"refusal"`
	} `json:"content"`
	CallID    string          `json:"call_id"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// decodeResponse reads a Responses API body into a completion: the text
// of its message items and its function calls, in order; tools are those
// the request offered.
func decodeResponse(raw []byte, quirks []Quirk, tools []Tool) (*Completion, error) {
	var resp wireResponsesBody
	if err := json.Unmarshal(raw, &resp); err != nil {
		return nil, fmt.Errorf("provider response is not a Responses API response: %v", err)
	}
	if resp.Status == "failed" || resp.Error != nil {
		msg, code := "the response failed", ""
		if resp.Error != nil {
			code = resp.Error.Code
			if resp.Error.Message != "" {
				msg = resp.Error.Message
			}
		}
		return nil, &Error{Status: http.StatusOK, Code: code, Message: msg}
	}
	msg := Message{Role: RoleAssistant}
	var text strings.Builder
	var interim []string
	for i, rawItem := range resp.Output {
		var it wireOutputItem
		if err := json.Unmarshal(rawItem, &it); err != nil {
			return nil, fmt.Errorf("provider response: output item %d: %v", i, err)
		}
		switch it.Type {
		case "message":
			var item strings.Builder
			for _, part := range it.Content {
				switch part.Type {
				case "output_text", "text", "":
					item.WriteString(part.Text)
				case "refusal":
					item.WriteString(part.Refusal)
				}
			}
			if it.Phase == phaseCommentary {
				// Only the final answer's text is the answer.
				interim = append(interim, item.String())
			} else {
				text.WriteString(item.String())
			}
		case "reasoning":
			msg.ReasoningItems = append(msg.ReasoningItems, rawItem)
		case "function_call":
			args, err := responsesArguments(it.Arguments, quirks)
			if err != nil {
				return nil, fmt.Errorf("provider response: function call %d (%s): %w", i, it.Name, err)
			}
			id := it.CallID
			if id == "" {
				id = it.ID
			}
			msg.ToolCalls = append(msg.ToolCalls, ToolCall{ID: id, Name: it.Name, Arguments: args})
		}
	}
	msg.Content = text.String()
	applyMessageQuirks(&msg, quirks, tools, "")
	finish := "stop"
	switch {
	case len(msg.ToolCalls) > 0:
		finish = "tool_calls"
	case resp.Status == "incomplete":
		finish = "length"
		if resp.IncompleteDetails != nil && resp.IncompleteDetails.Reason == "content_filter" {
			finish = "content_filter"
		}
	}
	return &Completion{
		Message:      msg,
		FinishReason: finish,
		Usage:        Usage{PromptTokens: resp.Usage.InputTokens, CompletionTokens: resp.Usage.OutputTokens},
		Model:        resp.Model,
		ServiceTier:  resp.ServiceTier,
		ResponseID:   resp.ID,
		NotStored:    resp.Store != nil && !*resp.Store,
		Interim:      interim,
	}, nil
}

// phaseCommentary is the phase of a Responses API message the model says
// on the way to its final answer (phase "final_answer").
const phaseCommentary = "commentary"

// responsesArguments reads a function call's arguments string; with the
// arguments_object quirk an object is accepted and re-encoded.
func responsesArguments(raw json.RawMessage, quirks []Quirk) (string, error) {
	if chatwire.IsNull(raw) {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	if slices.Contains(quirks, QuirkArgumentsObject) {
		var obj map[string]any
		if err := json.Unmarshal(raw, &obj); err == nil {
			b, err := json.Marshal(obj)
			if err != nil {
				return "", err
			}
			return string(b), nil
		}
	}
	return "", fmt.Errorf("arguments are not a JSON string (quirk %s may help)", QuirkArgumentsObject)
}

// isJSONFalse reports whether an option's value is the JSON false.
func isJSONFalse(v any) bool {
	switch v := v.(type) {
	case bool:
		return !v
	case json.RawMessage:
		return strings.TrimSpace(string(v)) == "false"
	}
	return false
}

// StoresResponses reports whether the provider keeps its responses for a
// later request to continue from (previous_response_id): a Responses API
// provider does unless its defaults send store false, as
// zero-data-retention accounts must.
func (p *Provider) StoresResponses() bool {
	return p.cfg.API == APIResponses && !isJSONFalse(p.defaults["store"])
}
