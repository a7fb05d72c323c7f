package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"

	"github.com/openai/openai-go/v3/option"
	"github.com/quire-ink/quire/codex/clip"
)

// Streaming the Responses API (Config.Stream with API "responses"): the
// answer's text is handed to OnDelta as its response.output_text.delta
// events arrive, under the bounds a chat stream has (MaxAnswerBytes on
// the text, MaxReplyBytes on what is kept beside it, MaxStreamBytes on
// the body). The completion itself is read from the response the last
// event carries (response.completed, .incomplete or .failed), decoded as
// a plain reply is.
// https://platform.openai.com/docs/api-reference/responses-streaming

// wireResponsesEvent is the part of a Responses stream event the client
// reads.
type wireResponsesEvent struct {
	Type   string `json:"type"`
	ItemID string `json:"item_id"`
	Delta  string `json:"delta"`
	Item   struct {
		ID    string `json:"id"`
		Type  string `json:"type"`
		Phase string `json:"phase"`
	} `json:"item"`
	Response json.RawMessage `json:"response"`
	// Code and Message are an "error" event's.
	Code    string `json:"code"`
	Message string `json:"message"`
}

// attemptResponsesStream sends req once to the Responses API, streamed.
func (p *Provider) attemptResponsesStream(ctx context.Context, req CompletionRequest, tier string, extra ...option.RequestOption) (*Completion, []string, error) {
	params, warnings, err := p.responsesParams(req, tier)
	if err != nil {
		return nil, nil, err
	}
	var httpResp *http.Response
	plain := &plainReply{}
	opts := append([]option.RequestOption{option.WithResponseInto(&httpResp), option.WithMiddleware(plain.middleware)}, extra...)
	stream := p.responses.NewStreaming(ctx, params, opts...)
	defer stream.Close()
	quirks := slices.Concat(p.cfg.Quirks, req.Quirks)
	var text strings.Builder
	// commentary holds the text of the commentary messages streaming,
	// by item id, until each is whole.
	commentary := map[string]*strings.Builder{}
	var final json.RawMessage
	kept, truncated := 0, false
	for stream.Next() {
		var ev wireResponsesEvent
		if json.Unmarshal([]byte(stream.Current().RawJSON()), &ev) != nil {
			continue
		}
		switch ev.Type {
		case "response.output_item.added":
			if ev.Item.Type == "message" && ev.Item.Phase == phaseCommentary {
				commentary[ev.Item.ID] = &strings.Builder{}
			}
		case "response.output_item.done":
			if b := commentary[ev.Item.ID]; b != nil && req.OnInterim != nil {
				req.OnInterim(p.keys.redact(b.String()))
			}
			delete(commentary, ev.Item.ID)
		case "response.output_text.delta", "response.refusal.delta":
			if b := commentary[ev.ItemID]; b != nil {
				// Interim text: told whole, never as the answer.
				b.WriteString(ev.Delta)
				kept += len(ev.Delta)
				break
			}
			s := ev.Delta
			if m := req.MaxAnswerBytes; m > 0 && text.Len()+len(s) > m {
				s = clip.Bytes(s, m-text.Len())
				truncated = true
			}
			text.WriteString(s)
			if s != "" && req.OnDelta != nil {
				req.OnDelta(s)
			}
		case "response.function_call_arguments.delta", "response.reasoning_summary_text.delta":
			kept += len(ev.Delta)
		case "response.completed", "response.incomplete", "response.failed":
			final = ev.Response
		case "error":
			return nil, warnings, &Error{Status: http.StatusOK, Code: RedactSecrets(ev.Code, p.cfg.APIKey),
				Message: clip.Runes(RedactSecrets(ev.Message, p.cfg.APIKey), maxErrorTextRunes)}
		}
		if kept > MaxReplyBytes {
			return nil, warnings, &ReplyTooLargeError{Limit: MaxReplyBytes}
		}
		if truncated {
			// As long as an answer may be: the rest is not read.
			break
		}
	}
	if err := stream.Err(); err != nil {
		return nil, warnings, p.readableError(ctx, err, httpResp)
	}
	switch {
	case plain.body != nil:
		// The server answered without streaming.
		c, err := decodeResponse(plain.body, quirks, p.offered(req))
		return c, warnings, err
	case truncated:
		msg := Message{Role: RoleAssistant, Content: text.String()}
		// Cut by quire, not by the model: no finish reason came.
		return &Completion{Message: msg, Truncated: true}, warnings, nil
	case final == nil:
		return nil, warnings, &CutOffError{Partial: text.String()}
	}
	c, err := decodeResponse(final, quirks, p.offered(req))
	return c, warnings, err
}

// plainReply catches a server that answers a streaming request with a
// plain JSON body, as some compatible servers do: the body is kept (it is
// bounded by then) and the stream sees none.
type plainReply struct{ body []byte }

func (pr *plainReply) middleware(r *http.Request, next option.MiddlewareNext) (*http.Response, error) {
	resp, err := next(r)
	if err != nil || resp == nil || resp.Body == nil || resp.StatusCode != http.StatusOK || isEventStream(resp) {
		return resp, err
	}
	// The client's own bound wraps this body only further out.
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxReplyBytes+1))
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	if len(body) > MaxReplyBytes {
		return nil, &ReplyTooLargeError{Limit: MaxReplyBytes}
	}
	pr.body = body
	resp.Body = io.NopCloser(bytes.NewReader(nil))
	return resp, nil
}
