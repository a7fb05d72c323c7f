package provider

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/quire-ink/quire/llm/provider/chatwire"
	"strings"
)

// decodeCompletion reads a response body, applying quirks to the message;
// tools are those the request offered.
func decodeCompletion(raw []byte, quirks []Quirk, tools []Tool) (*Completion, error) {
	var resp chatwire.ChatCompletion
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
	if r := fields["reasoning_content"]; !chatwire.IsNull(r) {
		// A reasoning that is not text is not one quire can send back.
		_ = json.Unmarshal(r, &msg.Reasoning)
	}
	if tc := fields["tool_calls"]; !chatwire.IsNull(tc) {
		var calls []chatwire.ToolCall
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
	// Ollama names the reasoning "reasoning"; it is not sent back (Ollama
	// would not read it as reasoning_content), only read for calls.
	var reasoning string
	if r := fields["reasoning"]; !chatwire.IsNull(r) {
		_ = json.Unmarshal(r, &reasoning)
	}
	applyMessageQuirks(&msg, quirks, tools, reasoning)
	return &Completion{
		Message:      msg,
		FinishReason: choice.FinishReason,
		Usage:        chatUsage(resp.Usage),
		Model:        resp.Model,
		ServiceTier:  resp.ServiceTier,
	}, nil
}

// decodeContent accepts a string, null, or an array of content parts, of
// which only the text parts are answer text: Magistral sends a "thinking"
// part (its reasoning) before the "text" parts of the answer.
func decodeContent(raw json.RawMessage) (string, error) {
	if chatwire.IsNull(raw) {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	s, ok := textOfParts(raw)
	if !ok {
		return "", errors.New("provider response: content is neither text nor an array of content parts")
	}
	return s, nil
}

// textOfParts is the text of an array of content parts: the parts of
// type "text" (or no type), in order. ok is false when raw is not an
// array of parts.
func textOfParts(raw json.RawMessage) (text string, ok bool) {
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) != nil {
		return "", false
	}
	var b strings.Builder
	for _, p := range parts {
		if p.Type == "" || p.Type == "text" {
			b.WriteString(p.Text)
		}
	}
	return b.String(), true
}

// decodeArguments accepts the arguments string of a tool call.
func decodeArguments(raw json.RawMessage) (string, error) {
	if chatwire.IsNull(raw) {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", fmt.Errorf("arguments are not a JSON string (quirk %s may help)", QuirkArgumentsObject)
	}
	return s, nil
}

// chatUsage is a completion's raw usage as the loop counts it.
func chatUsage(raw json.RawMessage) Usage {
	prompt, completion := chatwire.Tokens(raw)
	return Usage{PromptTokens: prompt, CompletionTokens: completion}
}
