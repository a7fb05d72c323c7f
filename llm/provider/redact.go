package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"

	"github.com/quire-ink/quire/codex/clip"
)

// proseKeys name the JSON fields of a provider request or response that
// carry the writer's prose or the model's: their values are replaced by
// their size. The first four are the request fields of the chat and
// responses APIs; the rest are where prose sits in a reply.
var proseKeys = map[string]bool{
	"input": true, "messages": true, "prompt": true, "instructions": true,
	"content": true, "text": true, "arguments": true, "output": true,
}

// secretKeys name fields whose values are credentials.
var secretKeys = map[string]bool{
	"authorization": true, "api_key": true, "apikey": true, "api-key": true,
	"x-api-key": true, "access_token": true, "openai_api_key": true,
}

const redactedSecret = "[redacted]"

// Bounds on one string of a log line: a model or a provider chose it, and
// a 10,000-character tool name must not become a 48 KB line.
const (
	MaxLogStringRunes = 200
	maxLogErrorRunes  = 500
)

func redactedSize(n int) string { return fmt.Sprintf("[redacted %d bytes]", n) }

// RedactRequestBody returns a provider request (or response) body fit for a
// debug log: the values of input, messages, prompt and instructions (and
// of content, text, arguments and output), at any depth, become
// "[redacted N bytes]", and credentials (Authorization, api_key, apiKey…)
// become "[redacted]". Keys match case-insensitively. A body that is not
// JSON is replaced whole, since there is no telling what it holds. Object
// keys come out sorted.
func RedactRequestBody(body []byte) []byte {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		return []byte{}
	}
	if !json.Valid(trimmed) {
		return []byte(fmt.Sprintf("%q", redactedSize(len(body))))
	}
	out, err := redactJSON(trimmed)
	if err != nil {
		return []byte(fmt.Sprintf("%q", redactedSize(len(body))))
	}
	return out
}

func redactJSON(raw json.RawMessage) (json.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return raw, nil
	}
	switch raw[0] {
	case '{':
		var m map[string]json.RawMessage
		if err := json.Unmarshal(raw, &m); err != nil {
			return nil, err
		}
		for k, v := range m {
			key := strings.ToLower(k)
			switch {
			case secretKeys[key]:
				m[k] = json.RawMessage(`"` + redactedSecret + `"`)
			case proseKeys[key]:
				if s, _ := json.Marshal(redactedSize(len(bytes.TrimSpace(v)))); s != nil {
					m[k] = s
				}
			default:
				r, err := redactJSON(v)
				if err != nil {
					return nil, err
				}
				m[k] = r
			}
		}
		return json.Marshal(m)
	case '[':
		var a []json.RawMessage
		if err := json.Unmarshal(raw, &a); err != nil {
			return nil, err
		}
		for i, v := range a {
			r, err := redactJSON(v)
			if err != nil {
				return nil, err
			}
			a[i] = r
		}
		return json.Marshal(a)
	case '"':
		// A string a model chose (a tool name) is bounded like any
		// other string of a log line.
		var str string
		if err := json.Unmarshal(raw, &str); err != nil {
			return nil, err
		}
		if bounded := clip.Runes(str, MaxLogStringRunes); bounded != str {
			return json.Marshal(bounded)
		}
	}
	return raw, nil
}

// RedactingHandler wraps a slog.Handler so that what quire logs at debug
// never carries prose or keys: an attribute named like a credential is
// replaced by "[redacted]", one named like a prose field by its size, and
// any []byte or json.RawMessage value (a request or response body) goes
// through RedactRequestBody. Groups are handled at any depth.
type RedactingHandler struct{ inner slog.Handler }

// NewRedactingHandler wraps h.
func NewRedactingHandler(h slog.Handler) *RedactingHandler { return &RedactingHandler{inner: h} }

func (h *RedactingHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return h.inner.Enabled(ctx, l)
}

func (h *RedactingHandler) Handle(ctx context.Context, r slog.Record) error {
	out := slog.NewRecord(r.Time, r.Level, clip.Runes(RedactSecrets(r.Message), MaxLogStringRunes), r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(redactAttr(a))
		return true
	})
	return h.inner.Handle(ctx, out)
}

func (h *RedactingHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	red := make([]slog.Attr, len(attrs))
	for i, a := range attrs {
		red[i] = redactAttr(a)
	}
	return &RedactingHandler{inner: h.inner.WithAttrs(red)}
}

func (h *RedactingHandler) WithGroup(name string) slog.Handler {
	return &RedactingHandler{inner: h.inner.WithGroup(name)}
}

func redactAttr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	key := strings.ToLower(a.Key)
	switch {
	case secretKeys[key]:
		return slog.String(a.Key, redactedSecret)
	case v.Kind() == slog.KindGroup:
		group := v.Group()
		red := make([]any, len(group))
		for i, g := range group {
			red[i] = redactAttr(g)
		}
		return slog.Group(a.Key, red...)
	}
	if v.Kind() == slog.KindAny {
		switch b := v.Any().(type) {
		case []byte:
			return slog.String(a.Key, string(RedactRequestBody(b)))
		case json.RawMessage:
			return slog.String(a.Key, string(RedactRequestBody(b)))
		case error:
			return slog.String(a.Key, clip.Runes(RedactSecrets(b.Error()), maxLogErrorRunes))
		}
	}
	if proseKeys[key] {
		return slog.String(a.Key, redactedSize(len(v.String())))
	}
	if v.Kind() == slog.KindString {
		// Strings in logs often come from a model or a provider (a tool
		// name, an error text): bounded, and with no key in them.
		return slog.String(a.Key, clip.Runes(RedactSecrets(v.String()), MaxLogStringRunes))
	}
	return slog.Attr{Key: a.Key, Value: v}
}
