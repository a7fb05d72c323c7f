package provider

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// textTools are the tools a request offers in these tests: their
// schemas type the XML parameters.
func textTools() []Tool {
	str := map[string]any{"type": "string"}
	return []Tool{
		{Name: "get_character_context", Parameters: map[string]any{"type": "object", "properties": map[string]any{"name": str}}},
		{Name: "get_manuscript_context", Parameters: map[string]any{"type": "object", "properties": map[string]any{
			"ref": str, "refs": map[string]any{"type": "array", "items": str}}}},
		{Name: "search_codex", Parameters: map[string]any{"type": "object", "properties": map[string]any{
			"query": str, "limit": map[string]any{"type": "integer"}}}},
	}
}

type textCall struct{ name, args string }

func TestTextCalls(t *testing.T) {
	xml := func(fn string, params ...string) string {
		var b strings.Builder
		b.WriteString("<tool_call>\n<function=" + fn + ">\n")
		for i := 0; i+1 < len(params); i += 2 {
			b.WriteString("<parameter=" + params[i] + ">\n" + params[i+1] + "\n</parameter>\n")
		}
		b.WriteString("</function>\n</tool_call>")
		return b.String()
	}
	tests := []struct {
		name      string
		reasoning bool // read as reasoning: offered tools only, bare objects too
		text      string
		rest      string
		calls     []textCall
	}{
		{name: "Hermes, arguments an object", text: "Let me look.\n<tool_call>\n{\"name\": \"get_character_context\", \"arguments\": {\"name\": \"Mara\"}}\n</tool_call>",
			rest: "Let me look.", calls: []textCall{{"get_character_context", `{"name":"Mara"}`}}},
		{name: "Hermes, arguments a string", text: `<tool_call>{"name":"search_codex","arguments":"{\"query\":\"bell\"}"}</tool_call>`,
			calls: []textCall{{"search_codex", `{"query":"bell"}`}}},
		{name: "Hermes, parameters for arguments", text: `<tool_call>{"name":"search_codex","parameters":{"query":"bell"}}</tool_call>`,
			calls: []textCall{{"search_codex", `{"query":"bell"}`}}},
		{name: "XML, typed by the schema", text: xml("get_manuscript_context", "refs", `["1", "3"]`, "ref", "3"),
			calls: []textCall{{"get_manuscript_context", `{"refs":["1","3"],"ref":"3"}`}}},
		{name: "XML, an integer and a value over lines", text: xml("search_codex", "query", "the bell\nat dawn", "limit", "5"),
			calls: []textCall{{"search_codex", `{"query":"the bell\nat dawn","limit":5}`}}},
		{name: "XML, a typed value that is not JSON stays a string", text: xml("search_codex", "limit", "five"),
			calls: []textCall{{"search_codex", `{"limit":"five"}`}}},
		{name: "XML, the first of a repeated parameter", text: xml("get_character_context", "name", "Mara", "name", "Ilse"),
			calls: []textCall{{"get_character_context", `{"name":"Mara"}`}}},
		{name: "XML without </function> nor </tool_call>", text: "So:\n<tool_call>\n<function=get_character_context>\n<parameter=name>\nMara\n</parameter>\n",
			rest: "So:", calls: []textCall{{"get_character_context", `{"name":"Mara"}`}}},
		{name: "an unclosed tag before a closed one", text: `<tool_call>{"name":"search_codex","arguments":{"query":"a"}} <tool_call>{"name":"search_codex","arguments":{"query":"b"}}</tool_call> done`,
			rest: "done", calls: []textCall{{"search_codex", `{"query":"a"}`}, {"search_codex", `{"query":"b"}`}}},
		{name: "a tag that is not a call stays", text: "Use <tool_call>like this</tool_call> please.", rest: "Use <tool_call>like this</tool_call> please."},
		{name: "XML with text where a parameter should be stays", text: "<tool_call><function=search_codex>hello</function></tool_call>",
			rest: "<tool_call><function=search_codex>hello</function></tool_call>"},
		{name: "in content, any tool name", text: `<tool_call>{"name":"not_offered","arguments":{}}</tool_call>`,
			calls: []textCall{{"not_offered", `{}`}}},
		{name: "in reasoning, an offered tool only", reasoning: true,
			text: `<tool_call>{"name":"not_offered","arguments":{}}</tool_call>`, rest: `<tool_call>{"name":"not_offered","arguments":{}}</tool_call>`},
		{name: "in reasoning, a bare object in a fence", reasoning: true,
			text:  "I'll call it:\n\n```json\n{\"name\": \"get_character_context\", \"arguments\": {\"name\": \"Mara\"}}\n```",
			rest:  "I'll call it:",
			calls: []textCall{{"get_character_context", `{"name":"Mara"}`}}},
		{name: "in reasoning, braces in strings", reasoning: true,
			text:  `Search: {"name": "search_codex", "arguments": {"query": "a } b {"}} then.`,
			rest:  "Search:  then.",
			calls: []textCall{{"search_codex", `{"query":"a } b {"}`}}},
		{name: "in reasoning, an object with no arguments stays", reasoning: true,
			text: `Maybe {"name": "search_codex"} later.`, rest: `Maybe {"name": "search_codex"} later.`},
		{name: "in reasoning, an object that is no call stays", reasoning: true,
			text: `Her record is {"name": "Mara", "age": 34}.`, rest: `Her record is {"name": "Mara", "age": 34}.`},
		{name: "in content, bare objects are not read", text: `{"name": "search_codex", "arguments": {"query": "x"}}`,
			rest: `{"name": "search_codex", "arguments": {"query": "x"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			read := textCalls{tools: textTools()}
			if tt.reasoning {
				read.offeredOnly, read.bare = true, true
			}
			rest, calls := read.take(tt.text)
			if tt.rest == "" && len(tt.calls) == 0 {
				tt.rest = tt.text
			}
			assert.Equal(t, tt.rest, rest)
			var got []textCall
			for _, c := range calls {
				assert.True(t, strings.HasPrefix(c.ID, "call_"), "each call gets an id")
				got = append(got, textCall{c.Name, c.Arguments})
			}
			assert.Equal(t, tt.calls, got)
		})
	}
}

// TestTextCallsAreBounded: however many calls a text holds, at most
// maxTextCalls are taken (the rest stays text); texts built to make a
// careless reader go back over them take one pass (a quadratic reader
// would not finish these in the test's time).
func TestTextCallsAreBounded(t *testing.T) {
	one := `<tool_call>{"name":"search_codex","arguments":{"query":"x"}}</tool_call>`
	rest, calls := textCalls{tools: textTools()}.take(strings.Repeat(one, maxTextCalls+8))
	assert.Len(t, calls, maxTextCalls)
	assert.Equal(t, strings.Repeat(one, 8), rest)

	read := textCalls{tools: textTools(), offeredOnly: true, bare: true}
	for name, text := range map[string]string{
		"opening tags":          strings.Repeat("<tool_call>", 40_000) + "</tool_call>",
		"opening tags, no end":  strings.Repeat("<tool_call>{", 40_000),
		"nested braces":         strings.Repeat(`{"a":`, 80_000),
		"functions, no closing": strings.Repeat("<tool_call><function=search_codex><parameter=query>x", 10_000),
	} {
		t.Run(name, func(t *testing.T) {
			_, calls := read.take(text)
			assert.Empty(t, calls)
		})
	}
}

// FuzzTextCalls: whatever a model writes, reading it for calls never
// panics, takes at most maxTextCalls, each with a name (from the
// reasoning, an offered tool's) and arguments that are JSON unless the
// model wrote them as a string; what is left is no longer than what came.
func FuzzTextCalls(f *testing.F) {
	for _, seed := range []string{
		"<tool_call>\n{\"name\": \"get_character_context\", \"arguments\": {\"name\": \"Mara\"}}\n</tool_call>",
		"<tool_call>\n<function=search_codex>\n<parameter=query>\nbell\n</parameter>\n<parameter=limit>\n3\n</parameter>\n</function>\n</tool_call>",
		"```json\n{\"name\": \"search_codex\", \"arguments\": {\"query\": \"}\"}}\n```",
		"<tool_call><tool_call></tool_call>", "<tool_call><function=>", "<function=x><parameter=y>", "{{{\"\\", "",
		"<tool_call>{\"name\":\"search_codex\",\"arguments\":\"not json\"}</tool_call>", "\xff<tool_call>\xfe",
	} {
		f.Add(seed, false)
		f.Add(seed, true)
	}
	f.Fuzz(func(t *testing.T, text string, reasoning bool) {
		read := textCalls{tools: textTools(), offeredOnly: reasoning, bare: reasoning}
		rest, calls := read.take(text)
		require.LessOrEqual(t, len(calls), maxTextCalls)
		require.LessOrEqual(t, len(rest), len(text))
		if len(calls) == 0 {
			require.Equal(t, text, rest)
		}
		for _, c := range calls {
			require.NotEmpty(t, c.Name)
			// A model's string of arguments is passed on as it wrote it,
			// as a structured call's is, for the tool to judge; what
			// quire builds (from XML, from an object) is JSON.
			if !strings.Contains(strings.ToLower(text), "arguments") && !strings.Contains(strings.ToLower(text), "parameters") &&
				utf8.ValidString(text) && c.Arguments != "" {
				require.True(t, json.Valid([]byte(c.Arguments)), "arguments %q", c.Arguments)
			}
			if reasoning {
				_, ok := read.offered(c.Name)
				require.True(t, ok, "%s was not offered", c.Name)
			}
		}
	})
}
