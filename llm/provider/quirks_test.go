package provider

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/llm/provider/providertest"
)

// TestQuirks sends raw response bodies through the scripted server and the
// real client, once with the quirk on and once with it off.
func TestQuirks(t *testing.T) {
	cases := []struct {
		name    string
		quirk   Quirk
		message string
		// want is the message with the quirk on; ids "" are generated.
		want Message
		// off is the message with the quirk off; offErr the error instead.
		off    *Message
		offErr string
	}{
		{
			name:    "content tool call tags",
			quirk:   QuirkContentToolCallTags,
			message: `{"role":"assistant","content":"Let me check.\n<tool_call>{\"name\":\"get_character_context\",\"arguments\":{\"name\":\"Mara\"}}</tool_call>\n<tool_call>\n{\"name\":\"search_codex\",\"arguments\":\"{\\\"query\\\":\\\"harbor\\\"}\"}\n</tool_call>"}`,
			want: Message{Role: RoleAssistant, Content: "Let me check.", ToolCalls: []ToolCall{
				{Name: "get_character_context", Arguments: `{"name":"Mara"}`},
				{Name: "search_codex", Arguments: `{"query":"harbor"}`},
			}},
			off: &Message{Role: RoleAssistant, Content: "Let me check.\n<tool_call>{\"name\":\"get_character_context\",\"arguments\":{\"name\":\"Mara\"}}</tool_call>\n<tool_call>\n{\"name\":\"search_codex\",\"arguments\":\"{\\\"query\\\":\\\"harbor\\\"}\"}\n</tool_call>"},
		},
		{
			name:    "content tag that is not a call stays text",
			quirk:   QuirkContentToolCallTags,
			message: `{"role":"assistant","content":"Use <tool_call>like this</tool_call> please."}`,
			want:    Message{Role: RoleAssistant, Content: "Use <tool_call>like this</tool_call> please."},
			off:     &Message{Role: RoleAssistant, Content: "Use <tool_call>like this</tool_call> please."},
		},
		{
			name:    "content tags ignored when structured calls exist",
			quirk:   QuirkContentToolCallTags,
			message: `{"role":"assistant","content":"<tool_call>{\"name\":\"search_codex\",\"arguments\":{}}</tool_call>","tool_calls":[{"id":"c1","type":"function","function":{"name":"get_character_context","arguments":"{}"}}]}`,
			want: Message{Role: RoleAssistant, Content: `<tool_call>{"name":"search_codex","arguments":{}}</tool_call>`, ToolCalls: []ToolCall{
				{ID: "c1", Name: "get_character_context", Arguments: "{}"},
			}},
		},
		{
			name:    "legacy function_call",
			quirk:   QuirkFunctionCall,
			message: `{"role":"assistant","content":null,"function_call":{"name":"search_codex","arguments":"{\"query\":\"harbor\"}"}}`,
			want:    Message{Role: RoleAssistant, ToolCalls: []ToolCall{{Name: "search_codex", Arguments: `{"query":"harbor"}`}}},
			off:     &Message{Role: RoleAssistant},
		},
		{
			name:    "tool_calls as one object",
			quirk:   QuirkToolCallsObject,
			message: `{"role":"assistant","tool_calls":{"id":"c1","type":"function","function":{"name":"search_codex","arguments":"{}"}}}`,
			want:    Message{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "c1", Name: "search_codex", Arguments: "{}"}}},
			offErr:  "tool_calls is not an array",
		},
		{
			name:    "tool_calls as object keyed by index",
			quirk:   QuirkToolCallsObject,
			message: `{"role":"assistant","tool_calls":{"10":{"id":"c11","type":"function","function":{"name":"b","arguments":"{}"}},"2":{"id":"c3","type":"function","function":{"name":"a","arguments":"{}"}}}}`,
			want: Message{Role: RoleAssistant, ToolCalls: []ToolCall{
				{ID: "c3", Name: "a", Arguments: "{}"},
				{ID: "c11", Name: "b", Arguments: "{}"},
			}},
			offErr: "tool_calls is not an array",
		},
		{
			name:    "arguments as object",
			quirk:   QuirkArgumentsObject,
			message: `{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"search_codex","arguments":{"query": "harbor", "entryType": "location"}}}]}`,
			want:    Message{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "c1", Name: "search_codex", Arguments: `{"query":"harbor","entryType":"location"}`}}},
			offErr:  "arguments are not a JSON string",
		},
		{
			name:    "blank arguments",
			quirk:   QuirkBlankArguments,
			message: `{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"list_codex_entries","arguments":"  "}},{"id":"c2","type":"function","function":{"name":"list_codex_entries"}}]}`,
			want: Message{Role: RoleAssistant, ToolCalls: []ToolCall{
				{ID: "c1", Name: "list_codex_entries", Arguments: "{}"},
				{ID: "c2", Name: "list_codex_entries", Arguments: "{}"},
			}},
			off: &Message{Role: RoleAssistant, ToolCalls: []ToolCall{
				{ID: "c1", Name: "list_codex_entries", Arguments: "  "},
				{ID: "c2", Name: "list_codex_entries", Arguments: ""},
			}},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := providertest.New(t, providertest.Step{Body: providertest.RawMessageBody(tc.message)}, providertest.Step{Body: providertest.RawMessageBody(tc.message)})
			on := scriptedProvider(t, s, func(c *Config) { c.Quirks = []Quirk{tc.quirk} })
			c, err := on.Complete(t.Context(), CompletionRequest{Messages: loopMessages()})
			require.NoError(t, err)
			assertMessage(t, tc.want, c.Message)

			off := scriptedProvider(t, s)
			c, err = off.Complete(t.Context(), CompletionRequest{Messages: loopMessages()})
			switch {
			case tc.offErr != "":
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.offErr)
			case tc.off != nil:
				require.NoError(t, err)
				assert.Equal(t, *tc.off, c.Message)
			default:
				require.NoError(t, err)
			}
		})
	}
}

// assertMessage compares messages, accepting any generated id where want
// has none.
func assertMessage(t *testing.T, want, got Message) {
	t.Helper()
	require.Len(t, got.ToolCalls, len(want.ToolCalls))
	ids := map[string]bool{}
	for i := range want.ToolCalls {
		if want.ToolCalls[i].ID == "" {
			assert.True(t, strings.HasPrefix(got.ToolCalls[i].ID, "call_"), got.ToolCalls[i].ID)
			want.ToolCalls[i].ID = got.ToolCalls[i].ID
		}
		assert.False(t, ids[got.ToolCalls[i].ID], "duplicate id")
		ids[got.ToolCalls[i].ID] = true
	}
	assert.Equal(t, want, got)
}

func TestQuirksCombined(t *testing.T) {
	// A legacy function_call whose arguments are an object needs two
	// transforms, in order.
	body := providertest.RawMessageBody(`{"role":"assistant","function_call":{"name":"search_codex","arguments":{"query":"harbor"}}}`)
	s := providertest.New(t, providertest.Step{Body: body})
	p := scriptedProvider(t, s, func(c *Config) { c.Quirks = []Quirk{QuirkFunctionCall} })
	c, err := p.Complete(t.Context(), CompletionRequest{Messages: loopMessages(), Quirks: []Quirk{QuirkArgumentsObject}})
	require.NoError(t, err)
	assertMessage(t, Message{Role: RoleAssistant, ToolCalls: []ToolCall{{Name: "search_codex", Arguments: `{"query":"harbor"}`}}}, c.Message)
}

func TestParseQuirks(t *testing.T) {
	q, err := ParseQuirks(" function_call, blank_arguments,function_call ")
	require.NoError(t, err)
	assert.Equal(t, []Quirk{QuirkFunctionCall, QuirkBlankArguments}, q)

	q, err = ParseQuirks("all")
	require.NoError(t, err)
	assert.Equal(t, AllQuirks, q)

	q, err = ParseQuirks("")
	require.NoError(t, err)
	assert.Empty(t, q)

	_, err = ParseQuirks("function_call,sparkles")
	assert.ErrorContains(t, err, `unknown quirk "sparkles"`)
}
