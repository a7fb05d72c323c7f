package provider

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"

	"github.com/quire-ink/quire/llm/provider/chatwire"
)

// Tool calls a model writes as text instead of sending them as structured
// calls: Qwen's models do when the server has no tool parser for them, or
// when the call lands in the reasoning (vLLM's Qwen3 reasoning parser
// took everything before a missing </think> for reasoning, the call
// included). The shapes read here:
//
//   - Hermes, as Qwen2.5's and Qwen3's chat template asks for it:
//     <tool_call>{"name": NAME, "arguments": {...}}</tool_call>
//     (https://qwen.readthedocs.io/en/latest/framework/function_call.html);
//   - Qwen3-Coder's and Qwen3.5's XML:
//     <tool_call><function=NAME><parameter=P>VALUE</parameter>…</function></tool_call>,
//     each value on lines of its own (vLLM's qwen3_coder / qwen3_xml tool
//     parsers);
//   - in the reasoning only, a bare JSON object {"name": NAME,
//     "arguments": {...}} whose NAME is a tool the request offered: the
//     Hermes object without its tags.
//
// The text is read once from start to end (each tag and each object is
// looked at once, however the tags nest or fail to close), at most
// maxTextCalls calls are taken, and what is not a call stays text.

// maxTextCalls bounds the tool calls read from one text; the loop runs
// only the first few of a reply anyway (limits.tool_calls).
const maxTextCalls = 32

const (
	tagCallOpen   = "<tool_call>"
	tagCallClose  = "</tool_call>"
	tagFunction   = "<function="
	tagFuncClose  = "</function>"
	tagParameter  = "<parameter="
	tagParamClose = "</parameter>"
)

// textCalls says how to read the calls of one text.
type textCalls struct {
	// tools are the tools the request offered: their schemas type the
	// XML parameters (a value is a string unless its property says
	// otherwise).
	tools []Tool
	// offeredOnly keeps only calls of an offered tool, and bare reads
	// bare JSON objects too: for the reasoning, where the model also
	// thinks aloud about calls it may not make.
	offeredOnly, bare bool
}

// offered is the tool named name, if the request offered it.
func (o textCalls) offered(name string) (Tool, bool) {
	for _, t := range o.tools {
		if t.Name == name {
			return t, true
		}
	}
	return Tool{}, false
}

// take takes the tool calls out of text: the text without them, and the
// calls in order, each with a fresh id.
func (o textCalls) take(text string) (string, []ToolCall) {
	rest, calls := o.takeTags(text)
	if o.bare && len(calls) == 0 {
		rest, calls = o.takeObjects(text)
	}
	if len(calls) == 0 {
		return text, nil
	}
	return strings.TrimSpace(rest), calls
}

// takeTags takes the <tool_call> tags that hold a call. A tag's body
// ends at its </tool_call>, or at the next <tool_call> or the end of the
// text when it was never closed (a model stopped after </function>).
func (o textCalls) takeTags(text string) (string, []ToolCall) {
	var out strings.Builder
	var calls []ToolCall
	at := 0 // what is before at is in out, or taken
	open := strings.Index(text, tagCallOpen)
	closeAt, closeFrom := -1, -1 // the first </tool_call> at or after closeFrom
	for open >= 0 && len(calls) < maxTextCalls {
		body := open + len(tagCallOpen)
		next := strings.Index(text[body:], tagCallOpen)
		if next >= 0 {
			next += body
		}
		if closeFrom < 0 || closeAt >= 0 && closeAt < body {
			// Searched once past each close: linear however tags nest.
			closeFrom = body
			if closeAt = strings.Index(text[body:], tagCallClose); closeAt >= 0 {
				closeAt += body
			}
		}
		bodyEnd, end := len(text), len(text)
		switch {
		case closeAt >= 0 && (next < 0 || closeAt < next):
			bodyEnd, end = closeAt, closeAt+len(tagCallClose)
		case next >= 0:
			bodyEnd, end = next, next
		}
		if call, ok := o.callOf(text[body:bodyEnd]); ok {
			out.WriteString(text[at:open])
			calls = append(calls, call)
			at = end
		}
		// The next tag starts at end or after it: a </tool_call> holds
		// no "<tool_call>".
		open = next
	}
	out.WriteString(text[at:])
	return out.String(), calls
}

// callOf reads the body of a <tool_call> tag: a JSON object or a
// <function=…> element.
func (o textCalls) callOf(body string) (ToolCall, bool) {
	body = strings.TrimSpace(body)
	switch {
	case strings.HasPrefix(body, "{"):
		return o.jsonCall(body)
	case strings.HasPrefix(body, tagFunction):
		return o.xmlCall(body)
	}
	return ToolCall{}, false
}

// jsonCall reads {"name": …, "arguments": …} ("parameters" is taken for
// "arguments" too); arguments may be an object or a string holding one.
func (o textCalls) jsonCall(body string) (ToolCall, bool) {
	var c struct {
		Name       string          `json:"name"`
		Arguments  json.RawMessage `json:"arguments"`
		Parameters json.RawMessage `json:"parameters"`
	}
	if json.Unmarshal([]byte(body), &c) != nil || strings.TrimSpace(c.Name) == "" {
		return ToolCall{}, false
	}
	if _, ok := o.offered(c.Name); o.offeredOnly && !ok {
		return ToolCall{}, false
	}
	raw := c.Arguments
	if chatwire.IsNull(raw) {
		raw = c.Parameters
	}
	args := ""
	if !chatwire.IsNull(raw) {
		var s string
		if err := json.Unmarshal(raw, &s); err == nil {
			args = s
		} else {
			var compact bytes.Buffer
			if json.Compact(&compact, raw) == nil {
				args = compact.String()
			}
		}
	}
	return ToolCall{ID: newCallID(), Name: c.Name, Arguments: args}, true
}

// xmlCall reads <function=NAME><parameter=P>VALUE</parameter>…</function>
// (the closing </function> may be missing at the end). A value loses
// the one line break that opens it and the one that closes it, as vLLM's
// parser takes it, and is a string unless the tool's schema types the
// parameter otherwise and the value reads as JSON.
func (o textCalls) xmlCall(body string) (ToolCall, bool) {
	rest := body[len(tagFunction):]
	gt := strings.IndexByte(rest, '>')
	if gt < 0 {
		return ToolCall{}, false
	}
	name := strings.TrimSpace(rest[:gt])
	if name == "" || strings.ContainsAny(name, "<>\n") {
		return ToolCall{}, false
	}
	tool, known := o.offered(name)
	if o.offeredOnly && !known {
		return ToolCall{}, false
	}
	rest = rest[gt+1:]
	var args bytes.Buffer
	args.WriteByte('{')
	seen := map[string]bool{}
	for {
		rest = strings.TrimLeft(rest, " \t\r\n")
		if rest == "" || strings.HasPrefix(rest, tagFuncClose) {
			if strings.TrimSpace(strings.TrimPrefix(rest, tagFuncClose)) != "" {
				return ToolCall{}, false
			}
			break
		}
		if !strings.HasPrefix(rest, tagParameter) {
			return ToolCall{}, false
		}
		rest = rest[len(tagParameter):]
		gt := strings.IndexByte(rest, '>')
		if gt < 0 {
			return ToolCall{}, false
		}
		param := strings.TrimSpace(rest[:gt])
		rest = rest[gt+1:]
		end := strings.Index(rest, tagParamClose)
		if param == "" || end < 0 {
			return ToolCall{}, false
		}
		value := rest[:end]
		rest = rest[end+len(tagParamClose):]
		value = strings.TrimPrefix(value, "\n")
		value = strings.TrimSuffix(value, "\n")
		if seen[param] {
			continue // the first value given stands
		}
		seen[param] = true
		if len(seen) > 1 {
			args.WriteByte(',')
		}
		k, _ := json.Marshal(param)
		args.Write(k)
		args.WriteByte(':')
		args.Write(typedValue(tool, param, value))
	}
	args.WriteByte('}')
	return ToolCall{ID: newCallID(), Name: name, Arguments: args.String()}, true
}

// typedValue is an XML parameter's value as JSON: the JSON it holds
// when the tool's schema gives the parameter a type other than string,
// else a string.
func typedValue(t Tool, param, value string) []byte {
	props, _ := t.Parameters["properties"].(map[string]any)
	prop, _ := props[param].(map[string]any)
	if typ, _ := prop["type"].(string); typ != "" && typ != "string" {
		v := strings.TrimSpace(value)
		if json.Valid([]byte(v)) {
			var compact bytes.Buffer
			if json.Compact(&compact, []byte(v)) == nil {
				return compact.Bytes()
			}
		}
	}
	s, _ := json.Marshal(value)
	return s
}

// takeObjects takes out the bare JSON objects that are calls of an
// offered tool. The objects are found in one pass that follows braces
// and JSON strings; only whole outermost objects are tried, each once.
func (o textCalls) takeObjects(text string) (string, []ToolCall) {
	var out strings.Builder
	var calls []ToolCall
	at := 0
	depth, start := 0, 0
	inString, escaped := false, false
	for i := 0; i < len(text) && len(calls) < maxTextCalls; i++ {
		c := text[i]
		if depth == 0 {
			if c == '{' {
				depth, start = 1, i
			}
			continue
		}
		switch {
		case inString && escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case inString:
		case c == '{':
			depth++
		case c == '}':
			depth--
			if depth > 0 {
				break
			}
			// A bare object is a call only with its arguments: the
			// reasoning may name a tool it has not decided to call.
			if call, ok := o.jsonCall(text[start : i+1]); ok && call.Arguments != "" {
				out.WriteString(text[at:start])
				calls = append(calls, call)
				at = i + 1
			}
		}
	}
	out.WriteString(text[at:])
	rest := out.String()
	if len(calls) > 0 {
		// A call written in a code fence leaves the fence empty.
		rest = emptyFence.ReplaceAllString(rest, "")
	}
	return rest, calls
}

// emptyFence is a Markdown code fence with nothing in it.
var emptyFence = regexp.MustCompile("```[A-Za-z]*[ \t\r\n]*```")
