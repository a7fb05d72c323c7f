package provider

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/shared"
)

// Building a Chat Completions request body: the provider's defaults and a
// request's overrides merged (reserved fields never), messages turned into
// the SDK's params. Sending it is provider.go.

// ReservedOptionKeys are request-body fields that Config.Defaults
// and CompletionRequest.Overrides can never set: the client builds them
// itself (service_tier comes from Config.ServiceTier, so that flex
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
		if m.Reasoning != "" {
			// Not a field of OpenAI's own API: thinking models that send
			// it want it back on the message it came with.
			a.SetExtraFields(map[string]any{"reasoning_content": m.Reasoning})
		}
		return openai.ChatCompletionMessageParamUnion{OfAssistant: &a}, nil
	default:
		return openai.ChatCompletionMessageParamUnion{}, fmt.Errorf("unknown role %q", m.Role)
	}
}
