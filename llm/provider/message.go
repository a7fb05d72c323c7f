package provider

import "encoding/json"

// Role is who speaks a message.
type Role string

const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// Message is one message of a conversation, independent of the provider
// API that carries it: the prompt builder makes them, the loop sends them
// and appends the model's replies and the tools' results.
type Message struct {
	Role    Role   `json:"role"`
	Content string `json:"content,omitempty"`
	// ToolCalls are what an assistant message asked for.
	ToolCalls []ToolCall `json:"toolCalls,omitempty"`
	// ToolCallID links a tool message to the call it answers.
	ToolCallID string `json:"toolCallId,omitempty"`
	// Reasoning is an assistant message's reasoning_content, as thinking
	// models (DeepSeek, Kimi) send it next to the content. It is never
	// answer text; it is kept only to be sent back on the same message,
	// which those providers require after a round of tool calls.
	Reasoning string `json:"reasoning,omitempty"`
	// ReasoningItems are an assistant message's reasoning items from the
	// Responses API, as the provider sent them (with their encrypted
	// content when asked for it). A provider that stores nothing
	// (store false) needs them back with the turn's other items.
	ReasoningItems []json.RawMessage `json:"reasoningItems,omitempty"`
}

// ToolCall is one call the model asked for; Arguments is JSON text as the
// model wrote it.
type ToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}
