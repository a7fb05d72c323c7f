package toolloop

import (
	"errors"
	"fmt"
)

// Error codes of the tool envelope. They are part of the contract with
// the model and with tests: stable, upper snake case.
const (
	CodeUnknownTool        = "UNKNOWN_TOOL"
	CodeInvalidJSON        = "INVALID_JSON"
	CodeInvalidArguments   = "INVALID_ARGUMENTS"
	CodeArgumentsTooLarge  = "ARGUMENTS_TOO_LARGE"
	CodeToolOutputTooLarge = "TOOL_OUTPUT_TOO_LARGE"
	CodeNotFound           = "NOT_FOUND"
	CodeAmbiguous          = "AMBIGUOUS"
	CodeOutOfScope         = "OUT_OF_SCOPE"
	CodeToolDenied         = "TOOL_DENIED"
	// CodeTooManyCalls answers a call beyond the most one reply may make
	// (Limits.MaxCallsPerRound): it was not run.
	CodeTooManyCalls = "TOO_MANY_CALLS"
	// CodeToolFailed is a tool that failed for a reason of its own (an
	// index that could not be read); the message says which.
	CodeToolFailed = "TOOL_FAILED"
)

// Envelope is what every tool call returns to the model: data when it
// worked, errors when it did not, warnings either way.
type Envelope struct {
	OK       bool        `json:"ok"`
	Data     any         `json:"data"`
	Warnings []string    `json:"warnings"`
	Errors   []ToolError `json:"errors"`
}

// ToolError is one error of an envelope.
type ToolError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	// Candidates name what the model may have meant, for NOT_FOUND and
	// AMBIGUOUS.
	Candidates []string `json:"candidates,omitempty"`
}

func (e *ToolError) Error() string { return fmt.Sprintf("%s: %s", e.Code, e.Message) }

// Errorf makes a ToolError with a code.
func Errorf(code, format string, args ...any) *ToolError {
	return &ToolError{Code: code, Message: fmt.Sprintf(format, args...)}
}

// envelopeOf wraps what a tool returned.
func EnvelopeOf(data any, warnings []string, err error) Envelope {
	env := Envelope{OK: err == nil, Data: data, Warnings: warnings, Errors: []ToolError{}}
	if env.Warnings == nil {
		env.Warnings = []string{}
	}
	if err != nil {
		env.Data = nil
		var te *ToolError
		if !errors.As(err, &te) {
			te = &ToolError{Code: CodeToolFailed, Message: err.Error()}
		}
		env.Errors = append(env.Errors, *te)
	}
	return env
}
