package toolloop

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"
	"unicode/utf8"
)

// The model writes arguments freely; these targets check that nothing it
// can send makes the validator or the dispatcher panic or answer outside
// the envelope contract.

func FuzzValidateArgs(f *testing.F) {
	for _, seed := range []string{
		`{}`, `{"entryType":"character","ref":"3"}`, `{"refs":["1",2]}`, `[1]`, `null`, `"x"`, `{"ref":`,
		`{"limit":1e400}`, `{"limit":-0}`, `{"limit":9223372036854775808}`, `{"customFields":{"a":{"b":[]}}}`,
		`{"scenes":[{"title":null},[],{}]}`, `{"entryType":"character","ref":"3"} x`, `{"a":1,"a":2}`,
		"{\"ref\":\"\xff\"}",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, args []byte) {
		err := validateArgs(testSchema(), json.RawMessage(args))
		if err == nil {
			return
		}
		var te *ToolError
		if !errors.As(err, &te) {
			t.Fatalf("error is %T, want *ToolError: %v", err, err)
		}
		if te.Code != CodeInvalidArguments {
			t.Fatalf("code %s, want %s", te.Code, CodeInvalidArguments)
		}
		if te.Message == "" {
			t.Fatal("empty message")
		}
	})
}

func FuzzDispatch(f *testing.F) {
	for _, seed := range []struct{ name, args string }{
		{"echo", `{"ref":"3"}`}, {"echo", `{}`}, {"echo", ``}, {"echo", `[]`}, {"ping", `  `},
		{"missing", `{}`}, {"broken", `{}`}, {"panics", `{}`}, {"big", `{"n":100000}`}, {"big", `{"n":-1}`},
		{"unencodable", `{}`}, {"html", `{}`}, {"nope", `{}`}, {"", ``}, {"echo", `{"ref":"\u0000"}`},
	} {
		f.Add(seed.name, seed.args)
	}
	reg := testRegistry(f)
	d := NewDispatcher(reg, Limits{MaxArgumentBytes: 1 << 10, MaxOutputBytes: 4 << 10})
	f.Fuzz(func(t *testing.T, name, args string) {
		// The "waits" tool blocks until cancelled; a deadline keeps a
		// fuzzer that finds its name from hanging.
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		res := d.Call(ctx, name, args)
		var env map[string]json.RawMessage
		if err := json.Unmarshal([]byte(res.JSON), &env); err != nil {
			t.Fatalf("output is not JSON: %v: %q", err, res.JSON)
		}
		for _, key := range []string{"ok", "data", "warnings", "errors"} {
			if _, ok := env[key]; !ok {
				t.Fatalf("missing %q in %s", key, res.JSON)
			}
		}
		var typed Envelope
		if err := json.Unmarshal([]byte(res.JSON), &typed); err != nil {
			t.Fatalf("output is not an envelope: %v", err)
		}
		if typed.Warnings == nil || typed.Errors == nil {
			t.Fatalf("warnings and errors must be arrays: %s", res.JSON)
		}
		if typed.OK != (len(typed.Errors) == 0) {
			t.Fatalf("ok disagrees with errors: %s", res.JSON)
		}
		if len(res.JSON) > 4<<10 {
			t.Fatalf("output of %d bytes passed the limit", len(res.JSON))
		}
		if utf8.RuneCountInString(res.ArgsSummary) > maxSummaryRunes {
			t.Fatalf("summary too long: %q", res.ArgsSummary)
		}
	})
}
