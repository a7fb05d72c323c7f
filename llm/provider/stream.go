package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/openai/openai-go/v3/option"
	"github.com/quire-ink/quire/codex/clip"
	"github.com/quire-ink/quire/llm/provider/chatwire"
)

// streamOptions asks the provider to end the stream with a usage chunk, so
// provenance and the caller see token counts as they do without streaming.
var streamOptions = map[string]any{"include_usage": true}

// attemptStream sends req as a streaming chat completion. Each piece of
// content is handed to req.OnDelta as it arrives; the chunks are put back
// together into the body a plain completion would have had, so quirks and
// decoding work on it unchanged.
func (p *Provider) attemptStream(ctx context.Context, req CompletionRequest, tier string, extra ...option.RequestOption) (*Completion, []string, error) {
	params, warnings, err := p.params(req, tier)
	if err != nil {
		return nil, nil, err
	}
	var httpResp *http.Response
	done := &doneWatcher{}
	opts := append([]option.RequestOption{
		option.WithJSONSet("stream_options", streamOptions),
		option.WithResponseInto(&httpResp),
		option.WithMiddleware(done.middleware),
	}, extra...)
	stream := p.service.NewStreaming(ctx, params, opts...)
	defer stream.Close()
	asm := chunkAssembler{maxContent: req.MaxAnswerBytes}
	for stream.Next() {
		chunk := stream.Current()
		if delta := asm.add([]byte(chunk.RawJSON())); delta != "" && req.OnDelta != nil {
			req.OnDelta(delta)
		}
		if asm.truncated {
			// The answer is as long as it may be: the rest is not read,
			// and the stream is closed (deferred) so the provider stops.
			break
		}
		if asm.tooLarge {
			return nil, warnings, &ReplyTooLargeError{Limit: MaxReplyBytes}
		}
	}
	if err := stream.Err(); err != nil {
		return nil, warnings, p.readableError(ctx, err, httpResp)
	}
	if !asm.truncated && asm.finish == "" && !done.seen() {
		// No finish reason and no [DONE]: the connection ended in the
		// middle of the answer, which must not pass for all of it.
		return nil, warnings, &CutOffError{Partial: asm.content.String()}
	}
	c, err := decodeCompletion(asm.body(), slices.Concat(p.cfg.Quirks, req.Quirks), p.offered(req))
	if c != nil && asm.truncated {
		c.Truncated = true
	}
	return c, warnings, err
}

// CutOffError is a streamed answer that stopped before the model finished:
// the stream ended with no finish reason and no [DONE]. Partial is the
// text that arrived, so the writer can still read it, marked as partial.
type CutOffError struct {
	Partial string
}

func (e *CutOffError) Error() string {
	return fmt.Sprintf("the model's answer was cut off: the stream ended before the model finished (%d characters arrived, kept as a partial answer); ask again",
		utf8.RuneCountInString(e.Partial))
}

// doneWatcher notes whether a stream's body carried the [DONE] event. The
// SDK's stream ends the same way on [DONE] and on a closed connection, so
// the body is watched on its way in.
type doneWatcher struct{ body *doneBody }

func (d *doneWatcher) middleware(r *http.Request, next option.MiddlewareNext) (*http.Response, error) {
	resp, err := next(r)
	if err == nil && resp != nil && resp.Body != nil {
		// The line break in front lets a body that opens with the event
		// match as one that has it on a later line.
		d.body = &doneBody{ReadCloser: resp.Body, tail: []byte("\n")}
		resp.Body = d.body
	}
	return resp, err
}

func (d *doneWatcher) seen() bool { return d.body != nil && d.body.done }

// doneBody looks for a "data: [DONE]" line in what is read through it. The
// event must start a line: "[DONE]" inside a JSON string cannot, since
// the JSON of an event holds no raw line break.
type doneBody struct {
	io.ReadCloser
	tail []byte // the end of what was read before, to match across reads
	done bool
}

var doneMarks = [][]byte{[]byte("\ndata: [DONE]"), []byte("\ndata:[DONE]")}

// doneTail is how much of one read is kept to match a mark split across
// two reads.
const doneTail = 16

func (b *doneBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if n > 0 && !b.done {
		buf := append(b.tail, p[:n]...)
		for _, m := range doneMarks {
			if bytes.Contains(buf, m) {
				b.done = true
			}
		}
		if len(buf) > doneTail {
			buf = buf[len(buf)-doneTail:]
		}
		b.tail = append([]byte(nil), buf...)
	}
	return n, err
}

// chunkAssembler rebuilds a chat completion from its stream chunks. It
// works on raw JSON, not the SDK's types, so that the odd shapes quirks
// repair (arguments as an object, a lone tool call object) survive.
type chunkAssembler struct {
	id, model, serviceTier string
	created                json.RawMessage
	content                strings.Builder
	sawContent             bool
	// reasoning is the reasoning_content of thinking models, kept apart
	// from the content: it goes back to the provider, never to the writer.
	reasoning strings.Builder
	// otherReasoning is the reasoning under Ollama's name, "reasoning",
	// kept for the quirk that reads calls in it.
	otherReasoning strings.Builder
	refusal        strings.Builder
	calls          []*assembledCall
	// callAt maps a tool call delta's index to its call in calls: the
	// index is the provider's name for the call, not its position
	// (Anthropic starts at 1, after its text block; others skip numbers).
	callAt map[int]int
	finish string
	usage  json.RawMessage
	// maxContent bounds the content's bytes (0: no bound); truncated says
	// the bound was reached and the rest of the text dropped.
	maxContent int
	truncated  bool
	// kept counts the bytes kept beside the content (reasoning, tool
	// call arguments and names, refusal); past MaxReplyBytes the stream
	// is too large to be a reply.
	kept     int
	tooLarge bool
}

type assembledCall struct {
	id, typ, name string
	args          strings.Builder
	// argsRaw is arguments sent as a non-string value.
	argsRaw json.RawMessage
}

// wireCallDelta is a piece of a streamed tool call: a tool call's fields
// as far as they have come, and which call they belong to.
type wireCallDelta struct {
	Index *int `json:"index"`
	chatwire.ToolCall
}

// add takes one chunk and returns the text it added to the content.
func (a *chunkAssembler) add(raw []byte) string {
	var c chatwire.ChatChunk
	if json.Unmarshal(raw, &c) != nil {
		return ""
	}
	if a.id == "" {
		a.id = c.ID
	}
	if c.Model != "" {
		a.model = c.Model
	}
	if len(c.Created) > 0 && a.created == nil {
		a.created = c.Created
	}
	if c.ServiceTier != "" {
		a.serviceTier = c.ServiceTier
	}
	if !chatwire.IsNull(c.Usage) {
		a.usage = c.Usage
	}
	var delta string
	for _, ch := range c.Choices {
		if ch.Index != 0 {
			continue
		}
		if ch.FinishReason != "" {
			a.finish = ch.FinishReason
		}
		if d := ch.Delta.Content; !chatwire.IsNull(d) {
			a.sawContent = true
			var s string
			if json.Unmarshal(d, &s) != nil {
				// An array of parts (Magistral): its text parts are
				// answer text like a string's; its thinking is not.
				s, _ = textOfParts(d)
			}
			if a.maxContent > 0 && a.content.Len()+len(s) > a.maxContent {
				s = clip.Bytes(s, a.maxContent-a.content.Len())
				a.truncated = true
			}
			a.content.WriteString(s)
			delta += s
		}
		a.reasoning.WriteString(ch.Delta.ReasoningContent)
		var other string
		if json.Unmarshal(ch.Delta.Reasoning, &other) == nil {
			a.otherReasoning.WriteString(other)
		}
		a.refusal.WriteString(ch.Delta.Refusal)
		a.addCalls(ch.Delta.ToolCalls)
		a.kept += len(ch.Delta.ReasoningContent) + len(other) + len(ch.Delta.Refusal) + len(ch.Delta.ToolCalls)
		if a.kept > MaxReplyBytes {
			a.tooLarge = true
		}
	}
	return delta
}

// addCalls merges tool call pieces by index; a provider that sends whole
// calls without an index gets one call per piece.
func (a *chunkAssembler) addCalls(raw json.RawMessage) {
	if chatwire.IsNull(raw) {
		return
	}
	var pieces []wireCallDelta
	if json.Unmarshal(raw, &pieces) != nil {
		var one wireCallDelta
		if json.Unmarshal(raw, &one) != nil {
			return
		}
		pieces = []wireCallDelta{one}
	}
	for _, p := range pieces {
		i, seen := 0, false
		if p.Index != nil {
			i, seen = a.callAt[*p.Index]
		}
		if !seen {
			// A new index, or a piece without one: a new call.
			i = len(a.calls)
			a.calls = append(a.calls, &assembledCall{})
			if p.Index != nil {
				if a.callAt == nil {
					a.callAt = map[int]int{}
				}
				a.callAt[*p.Index] = i
			}
		}
		call := a.calls[i]
		if p.ID != "" {
			call.id = p.ID
		}
		if p.Type != "" {
			call.typ = p.Type
		}
		call.name += p.Function.Name
		if args := p.Function.Arguments; !chatwire.IsNull(args) {
			var s string
			if json.Unmarshal(args, &s) == nil {
				call.args.WriteString(s)
			} else {
				call.argsRaw = args
			}
		}
	}
}

// body is the assembled chat completion.
func (a *chunkAssembler) body() []byte {
	msg := map[string]any{"role": "assistant"}
	if a.sawContent {
		msg["content"] = a.content.String()
	} else {
		msg["content"] = nil
	}
	if a.reasoning.Len() > 0 {
		msg["reasoning_content"] = a.reasoning.String()
	}
	if a.otherReasoning.Len() > 0 {
		msg["reasoning"] = a.otherReasoning.String()
	}
	if a.refusal.Len() > 0 {
		msg["refusal"] = a.refusal.String()
	}
	if len(a.calls) > 0 {
		calls := make([]map[string]any, 0, len(a.calls))
		for _, c := range a.calls {
			typ := c.typ
			if typ == "" {
				typ = "function"
			}
			var args any = c.args.String()
			if c.argsRaw != nil {
				args = c.argsRaw
			}
			calls = append(calls, map[string]any{"id": c.id, "type": typ,
				"function": map[string]any{"name": c.name, "arguments": args}})
		}
		msg["tool_calls"] = calls
	}
	out := map[string]any{
		"id": a.id, "object": "chat.completion", "model": a.model,
		"choices": []any{map[string]any{"index": 0, "finish_reason": a.finish, "message": msg}},
	}
	if a.created != nil {
		out["created"] = a.created
	}
	if a.serviceTier != "" {
		out["service_tier"] = a.serviceTier
	}
	if a.usage != nil {
		out["usage"] = a.usage
	}
	b, _ := json.Marshal(out)
	return b
}
