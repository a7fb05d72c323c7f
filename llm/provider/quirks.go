package provider

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"github.com/quire-ink/quire/llm/provider/chatwire"
	"slices"
	"sort"
	"strings"
)

// Quirk names one repair of a provider's response, for models and
// servers that do not quite speak the Chat Completions shape. Each hides
// a provider bug and is switched on where it is seen (Config.Quirks or
// toolloop.Options.Quirks); the models known to need some get them by
// default (DefaultQuirks, applied by QuirksFor).
type Quirk string

const (
	// QuirkContentToolCallTags reads tool calls written in the content as
	// <tool_call>{"name": ..., "arguments": {...}}</tool_call>, or as
	// Qwen3-Coder's <tool_call><function=…><parameter=…>, when the
	// message has no structured tool calls (see toolcall_text.go).
	QuirkContentToolCallTags Quirk = "content_tool_call_tags"
	// QuirkReasoningToolCalls reads tool calls written in the reasoning
	// (reasoning_content, or Ollama's reasoning) when the message has
	// neither structured tool calls nor answer text: the tags above, or
	// a bare {"name": ..., "arguments": {...}} object, each only for a
	// tool the request offered. Qwen's thinking models do this when the
	// call lands inside their unclosed <think>.
	QuirkReasoningToolCalls Quirk = "reasoning_tool_calls"
	// QuirkFunctionCall reads the legacy function_call field as a tool
	// call when tool_calls is absent.
	QuirkFunctionCall Quirk = "function_call"
	// QuirkToolCallsObject accepts tool_calls as one object (or an object
	// of calls keyed by index) instead of an array.
	QuirkToolCallsObject Quirk = "tool_calls_object"
	// QuirkArgumentsObject accepts arguments as a JSON value instead of a
	// string holding JSON.
	QuirkArgumentsObject Quirk = "arguments_object"
	// QuirkBlankArguments turns blank arguments into "{}".
	QuirkBlankArguments Quirk = "blank_arguments"
)

var AllQuirks = []Quirk{
	QuirkContentToolCallTags,
	QuirkReasoningToolCalls,
	QuirkFunctionCall,
	QuirkToolCallsObject,
	QuirkArgumentsObject,
	QuirkBlankArguments,
}

func (q Quirk) Valid() bool { return slices.Contains(AllQuirks, q) }

func quirkNames() []string {
	names := make([]string, len(AllQuirks))
	for i, q := range AllQuirks {
		names[i] = string(q)
	}
	return names
}

// qwenQuirks are the quirks Qwen's models get by default: with no tool
// parser on the server (or the wrong one) a Qwen model writes its calls
// as text, in the content or, thinking, in its reasoning.
var qwenQuirks = []Quirk{QuirkContentToolCallTags, QuirkReasoningToolCalls}

// DefaultQuirks are the quirks a model gets without asking: Qwen's
// models (a name holding "qwen" or "qwq", whoever serves them: vLLM,
// DashScope, Ollama, OpenRouter) get content_tool_call_tags and
// reasoning_tool_calls. Both act only on a reply with no structured
// tool calls, so they cost a server that parses calls nothing.
func DefaultQuirks(model string) []Quirk {
	m := strings.ToLower(model)
	if strings.Contains(m, "qwen") || strings.Contains(m, "qwq") {
		return slices.Clone(qwenQuirks)
	}
	return nil
}

// QuirksNone, in a list of quirks, leaves out the model's default ones.
const QuirksNone = "none"

// QuirksFor are the quirks a provider of model runs with: the model's
// defaults (DefaultQuirks) and those names lists (each a quirk or a
// comma-separated list of them, see ParseQuirks), once each. "none"
// among the names leaves the defaults out.
func QuirksFor(model string, names ...string) ([]Quirk, error) {
	var list []string
	none := false
	for _, n := range names {
		for part := range strings.SplitSeq(n, ",") {
			if strings.TrimSpace(part) == QuirksNone {
				none = true
				continue
			}
			list = append(list, part)
		}
	}
	named, err := ParseQuirks(strings.Join(list, ","))
	if err != nil {
		return nil, err
	}
	var out []Quirk
	if !none {
		out = DefaultQuirks(model)
	}
	for _, q := range named {
		if !slices.Contains(out, q) {
			out = append(out, q)
		}
	}
	return out, nil
}

// ParseQuirks reads a comma-separated list of quirk names; "all" turns on
// every quirk.
func ParseQuirks(s string) ([]Quirk, error) {
	var out []Quirk
	for part := range strings.SplitSeq(s, ",") {
		name := strings.TrimSpace(part)
		switch {
		case name == "":
			continue
		case name == "all":
			return slices.Clone(AllQuirks), nil
		case !Quirk(name).Valid():
			return nil, fmt.Errorf("unknown quirk %q (known: %s, or all, or none)", name, strings.Join(quirkNames(), ", "))
		}
		if !slices.Contains(out, Quirk(name)) {
			out = append(out, Quirk(name))
		}
	}
	return out, nil
}

// applyRawQuirks repairs the raw JSON of a response message, before it is
// decoded: the transforms that concern its shape.
func applyRawQuirks(msg json.RawMessage, quirks []Quirk) (json.RawMessage, error) {
	fc := slices.Contains(quirks, QuirkFunctionCall)
	obj := slices.Contains(quirks, QuirkToolCallsObject)
	args := slices.Contains(quirks, QuirkArgumentsObject)
	if !fc && !obj && !args {
		return msg, nil
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(msg, &fields); err != nil {
		return msg, nil // the decoder reports it
	}
	changed := false
	if fc && chatwire.IsNull(fields["tool_calls"]) && !chatwire.IsNull(fields["function_call"]) {
		call, err := json.Marshal(map[string]any{
			"id":       newCallID(),
			"type":     "function",
			"function": fields["function_call"],
		})
		if err != nil {
			return nil, err
		}
		fields["tool_calls"] = json.RawMessage("[" + string(call) + "]")
		delete(fields, "function_call")
		changed = true
	}
	if obj {
		if arr, ok := toolCallsObjectToArray(fields["tool_calls"]); ok {
			fields["tool_calls"] = arr
			changed = true
		}
	}
	if args {
		if arr, ok := argumentsToStrings(fields["tool_calls"]); ok {
			fields["tool_calls"] = arr
			changed = true
		}
	}
	if !changed {
		return msg, nil
	}
	return json.Marshal(fields)
}

// toolCallsObjectToArray wraps a single call object in an array, or lists
// the values of an object of calls keyed by index, in key order.
func toolCallsObjectToArray(raw json.RawMessage) (json.RawMessage, bool) {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, false
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(trimmed, &obj); err != nil {
		return nil, false
	}
	_, hasFunction := obj["function"]
	_, hasID := obj["id"]
	if hasFunction || hasID {
		return json.RawMessage("[" + string(trimmed) + "]"), true
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if len(keys[i]) != len(keys[j]) {
			return len(keys[i]) < len(keys[j]) // "2" before "10"
		}
		return keys[i] < keys[j]
	})
	items := make([]json.RawMessage, len(keys))
	for i, k := range keys {
		items[i] = obj[k]
	}
	out, err := json.Marshal(items)
	return out, err == nil
}

// argumentsToStrings encodes arguments that are JSON objects (or any
// non-string value) as the string the API should have sent.
func argumentsToStrings(raw json.RawMessage) (json.RawMessage, bool) {
	if chatwire.IsNull(raw) {
		return nil, false
	}
	var calls []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &calls); err != nil {
		return nil, false
	}
	changed := false
	for _, call := range calls {
		var fn map[string]json.RawMessage
		if err := json.Unmarshal(call["function"], &fn); err != nil {
			continue
		}
		a := bytes.TrimSpace(fn["arguments"])
		if chatwire.IsNull(a) || a[0] == '"' {
			continue
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, a); err != nil {
			continue
		}
		enc, _ := json.Marshal(compact.String())
		fn["arguments"] = enc
		call["function"], _ = json.Marshal(fn)
		changed = true
	}
	if !changed {
		return nil, false
	}
	out, err := json.Marshal(calls)
	return out, err == nil
}

// applyMessageQuirks repairs a decoded message: the transforms that
// concern its content and arguments. tools are those the request
// offered; reasoning is the reply's reasoning under another field than
// reasoning_content (Ollama's "reasoning"), read for calls only.
func applyMessageQuirks(msg *Message, quirks []Quirk, tools []Tool, reasoning string) {
	if slices.Contains(quirks, QuirkContentToolCallTags) && len(msg.ToolCalls) == 0 {
		msg.Content, msg.ToolCalls = textCalls{tools: tools}.take(msg.Content)
	}
	if slices.Contains(quirks, QuirkReasoningToolCalls) && len(msg.ToolCalls) == 0 &&
		strings.TrimSpace(msg.Content) == "" && len(tools) > 0 {
		// A call in the reasoning of a reply with no answer is the call
		// the model meant to make; it is taken out of the reasoning,
		// which goes back to the provider beside the structured call.
		read := textCalls{tools: tools, offeredOnly: true, bare: true}
		if msg.Reasoning != "" {
			msg.Reasoning, msg.ToolCalls = read.take(msg.Reasoning)
		} else {
			_, msg.ToolCalls = read.take(reasoning)
		}
	}
	if slices.Contains(quirks, QuirkBlankArguments) {
		for i := range msg.ToolCalls {
			if strings.TrimSpace(msg.ToolCalls[i].Arguments) == "" {
				msg.ToolCalls[i].Arguments = "{}"
			}
		}
	}
}

// newCallID makes an id for a call the provider did not name.
func newCallID() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return "call_" + hex.EncodeToString(b[:])
}
