package provider

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"github.com/quire-ink/quire/llm/provider/chatwire"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// Quirk names one opt-in repair of a provider's response, for models and
// servers that do not quite speak the Chat Completions shape. None is on
// by default: each hides a provider bug and is switched on where it is
// seen (Config.Quirks or toolloop.Options.Quirks).
type Quirk string

const (
	// QuirkContentToolCallTags reads tool calls written in the content as
	// <tool_call>{"name": ..., "arguments": {...}}</tool_call>, when the
	// message has no structured tool calls.
	QuirkContentToolCallTags Quirk = "content_tool_call_tags"
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
			return nil, fmt.Errorf("unknown quirk %q (known: %s)", name, strings.Join(quirkNames(), ", "))
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

// toolCallTag matches one textual tool call.
var toolCallTag = regexp.MustCompile(`(?s)<tool_call>\s*(.*?)\s*</tool_call>`)

// applyMessageQuirks repairs a decoded message: the transforms that
// concern its content and arguments.
func applyMessageQuirks(msg *Message, quirks []Quirk) {
	if slices.Contains(quirks, QuirkContentToolCallTags) && len(msg.ToolCalls) == 0 {
		msg.Content, msg.ToolCalls = toolCallsFromTags(msg.Content)
	}
	if slices.Contains(quirks, QuirkBlankArguments) {
		for i := range msg.ToolCalls {
			if strings.TrimSpace(msg.ToolCalls[i].Arguments) == "" {
				msg.ToolCalls[i].Arguments = "{}"
			}
		}
	}
}

// toolCallsFromTags takes the tool calls out of content. Tags whose body
// is not a call are left in the text.
func toolCallsFromTags(content string) (string, []ToolCall) {
	var calls []ToolCall
	rest := toolCallTag.ReplaceAllStringFunc(content, func(tag string) string {
		body := toolCallTag.FindStringSubmatch(tag)[1]
		var c struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		}
		if err := json.Unmarshal([]byte(body), &c); err != nil || c.Name == "" {
			return tag
		}
		args := ""
		if !chatwire.IsNull(c.Arguments) {
			var s string
			if err := json.Unmarshal(c.Arguments, &s); err == nil {
				args = s
			} else {
				var compact bytes.Buffer
				if json.Compact(&compact, c.Arguments) == nil {
					args = compact.String()
				}
			}
		}
		calls = append(calls, ToolCall{ID: newCallID(), Name: c.Name, Arguments: args})
		return ""
	})
	if len(calls) == 0 {
		return content, nil
	}
	return strings.TrimSpace(rest), calls
}

// newCallID makes an id for a call the provider did not name.
func newCallID() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return "call_" + hex.EncodeToString(b[:])
}
