package evalserver

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	"github.com/quire-ink/quire/llm/provider/chatwire"
)

// WriteScriptedReply answers a chat completions request with a scripted
// completion body. When the request asked to stream, a 200 body goes out
// as server-sent events, split the way providers split it: the content a
// few words at a time, each tool call's name then its arguments in two
// pieces, the finish reason, then usage. Shapes the split does not
// understand (content parts, arguments as an object) go out whole in one
// piece, so quirks meet them as they would from a real stream.
func WriteScriptedReply(w http.ResponseWriter, status int, body string, stream bool) {
	if status == 0 {
		status = http.StatusOK
	}
	if !stream || status != http.StatusOK {
		writeEvalJSON(w, status, body)
		return
	}
	// Split only when streaming: a large plain reply is sent as it is.
	chunks, err := streamChunks(body)
	if err != nil {
		writeEvalJSON(w, status, body)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	for _, c := range chunks {
		if _, err := fmt.Fprintf(w, "data: %s\n\n", c); err != nil {
			return
		}
		if flusher != nil {
			flusher.Flush()
		}
	}
	_, _ = io.WriteString(w, "data: [DONE]\n\n")
}

// WriteCutStream answers a streaming request with the start of body as
// server-sent events and then stops, as a dropped connection does: the
// content arrives, but no finish reason, no usage and no [DONE].
func WriteCutStream(w http.ResponseWriter, body string) {
	chunks, err := streamChunks(body)
	if err != nil {
		writeEvalJSON(w, http.StatusInternalServerError, body)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	for _, c := range chunks {
		var chunk chatwire.ChatChunk
		if json.Unmarshal([]byte(c), &chunk) != nil || len(chunk.Choices) == 0 ||
			chunk.Choices[0].Delta.Empty() || chunk.Choices[0].FinishReason != "" {
			continue
		}
		if _, err := fmt.Fprintf(w, "data: %s\n\n", c); err != nil {
			return
		}
	}
}

// WantsStream reports whether a chat completions request body asks to
// stream.
func WantsStream(body []byte) bool {
	var r struct {
		Stream bool `json:"stream"`
	}
	return json.Unmarshal(body, &r) == nil && r.Stream
}

// streamChunks splits a chat completion body into stream chunks.
func streamChunks(body string) ([]string, error) {
	var resp chatwire.ChatCompletion
	if err := json.Unmarshal([]byte(body), &resp); err != nil {
		return nil, err
	}
	if len(resp.Choices) == 0 {
		return nil, fmt.Errorf("no choices")
	}
	if len(resp.Created) == 0 {
		resp.Created = json.RawMessage("0")
	}
	choice := resp.Choices[0]
	var message struct {
		Content   json.RawMessage `json:"content"`
		ToolCalls json.RawMessage `json:"tool_calls"`
	}
	if err := json.Unmarshal(choice.Message, &message); err != nil {
		return nil, fmt.Errorf("the message: %w", err)
	}
	var out []string
	emit := func(delta map[string]any, finish any, usage json.RawMessage) {
		c := map[string]any{"id": resp.ID, "object": "chat.completion.chunk", "created": resp.Created, "model": resp.Model,
			"choices": []any{}}
		if resp.ServiceTier != "" {
			c["service_tier"] = resp.ServiceTier
		}
		if delta != nil {
			c["choices"] = []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}
		}
		if usage != nil {
			c["usage"] = usage
		}
		b, _ := json.Marshal(c)
		out = append(out, string(b))
	}
	emit(map[string]any{"role": "assistant"}, nil, nil)
	if content := message.Content; !chatwire.IsNull(content) {
		var text string
		if json.Unmarshal(content, &text) == nil {
			for _, piece := range splitWords(text, 3) {
				emit(map[string]any{"content": piece}, nil, nil)
			}
		} else {
			emit(map[string]any{"content": content}, nil, nil)
		}
	}
	if calls := message.ToolCalls; !chatwire.IsNull(calls) {
		var list []chatwire.ToolCall
		if json.Unmarshal(calls, &list) != nil {
			emit(map[string]any{"tool_calls": calls}, nil, nil)
		}
		for i, c := range list {
			var args string
			if json.Unmarshal(c.Function.Arguments, &args) != nil {
				emit(map[string]any{"tool_calls": []any{map[string]any{"index": i, "id": c.ID, "type": c.Type,
					"function": map[string]any{"name": c.Function.Name, "arguments": c.Function.Arguments}}}}, nil, nil)
				continue
			}
			half := len(args) / 2
			for half > 0 && half < len(args) && (args[half]&0xC0) == 0x80 {
				half++
			}
			emit(map[string]any{"tool_calls": []any{map[string]any{"index": i, "id": c.ID, "type": c.Type,
				"function": map[string]any{"name": c.Function.Name, "arguments": args[:half]}}}}, nil, nil)
			emit(map[string]any{"tool_calls": []any{map[string]any{"index": i,
				"function": map[string]any{"arguments": args[half:]}}}}, nil, nil)
		}
	}
	emit(map[string]any{}, choice.FinishReason, nil)
	if !chatwire.IsNull(resp.Usage) {
		emit(nil, nil, resp.Usage)
	}
	return out, nil
}

// splitWords cuts text into pieces of n words, each keeping the spaces
// that follow it, so the pieces join back into text exactly.
func splitWords(text string, n int) []string {
	var pieces []string
	words := 0
	start := 0
	for i := 0; i < len(text); i++ {
		if text[i] == ' ' && (i+1 == len(text) || text[i+1] != ' ') {
			words++
			if words == n {
				pieces = append(pieces, text[start:i+1])
				start, words = i+1, 0
			}
		}
	}
	if start < len(text) {
		pieces = append(pieces, text[start:])
	}
	return pieces
}
