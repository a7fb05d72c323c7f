// Package chatwire is the Chat Completions API's reply and stream chunk
// as they come over the wire: the one declaration of their shape, which
// the provider, provenance and the tests' scripted model all read.
package chatwire

import (
	"encoding/json"
	"strings"
)

// The Chat Completions API's reply and stream chunk, as they come over
// the wire (https://platform.openai.com/docs/api-reference/chat/object and
// /chat-streaming): the one declaration of their shape, read by the
// provider, by provenance (which records usage, finish and tool names)
// and by the scripted model of the tests (which cuts a reply into
// chunks). Read by hand, not through the SDK's types, so that quirks can
// see and repair shapes the SDK would refuse; what is passed on as it
// came (usage, the message, tool calls) is kept raw.

// Header is what a completion and each of its stream chunks both carry.
type Header struct {
	ID          string          `json:"id"`
	Model       string          `json:"model"`
	Created     json.RawMessage `json:"created"`
	ServiceTier string          `json:"service_tier,omitempty"`
	Usage       json.RawMessage `json:"usage"`
}

// ChatCompletion is a chat completion (object "chat.completion").
type ChatCompletion struct {
	Header
	Choices []ChatChoice `json:"choices"`
}

// ChatChoice is one choice of a completion; quire asks for one.
type ChatChoice struct {
	Index        int             `json:"index"`
	FinishReason string          `json:"finish_reason"`
	Message      json.RawMessage `json:"message"`
}

// ChatChunk is one event of a streamed completion (object
// "chat.completion.chunk").
type ChatChunk struct {
	Header
	Choices []ChunkChoice `json:"choices"`
}

// ChunkChoice is a chunk's piece of one choice.
type ChunkChoice struct {
	Index        int        `json:"index"`
	FinishReason string     `json:"finish_reason"`
	Delta        ChunkDelta `json:"delta"`
}

// ChunkDelta is what a chunk adds to the message. Content is raw: a
// string, or the array of parts some providers send.
type ChunkDelta struct {
	Role             string          `json:"role"`
	Content          json.RawMessage `json:"content"`
	ReasoningContent string          `json:"reasoning_content"`
	// Reasoning is the reasoning as Ollama (and recent vLLM) name it;
	// raw, so that a provider sending something other than text there
	// does not lose the chunk.
	Reasoning json.RawMessage `json:"reasoning"`
	Refusal   string          `json:"refusal"`
	ToolCalls json.RawMessage `json:"tool_calls"`
}

// Empty says the delta adds nothing.
func (d ChunkDelta) Empty() bool {
	return d.Role == "" && IsNull(d.Content) && d.ReasoningContent == "" && IsNull(d.Reasoning) && d.Refusal == "" && IsNull(d.ToolCalls)
}

// ChatUsage is a reply's token counts, under either API's names: prompt
// and completion tokens (Chat Completions), input and output tokens
// (Responses API); a reply has one pair or the other.
type ChatUsage struct {
	PromptTokens     int64 `json:"prompt_tokens"`
	CompletionTokens int64 `json:"completion_tokens"`
	InputTokens      int64 `json:"input_tokens"`
	OutputTokens     int64 `json:"output_tokens"`
}

// Tokens reads raw usage: the tokens sent and received, whichever API
// counted them; zero when there is none or it does not read.
func Tokens(raw json.RawMessage) (prompt, completion int64) {
	if IsNull(raw) {
		return 0, 0
	}
	var u ChatUsage
	if json.Unmarshal(raw, &u) != nil {
		return 0, 0
	}
	return u.PromptTokens + u.InputTokens, u.CompletionTokens + u.OutputTokens
}

// ToolCall is a tool call as a message carries it.
type ToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
}

// IsNull says raw holds no value: nothing, or null.
func IsNull(raw json.RawMessage) bool {
	s := strings.TrimSpace(string(raw))
	return s == "" || s == "null"
}
