package proposal

import "fmt"

// Kind says what was wrong with a request for a proposal, so that the
// caller (the advisor's tools) can report it in its own terms.
type Kind int

// Kinds of Error.
const (
	// Invalid is an argument that cannot make a proposal.
	Invalid Kind = iota + 1
	// TooLarge is an argument over its bound.
	TooLarge
	// NotFound is an entry no exact name names.
	NotFound
	// Ambiguous is a name that names more than one entry, or a new
	// entry whose name is taken.
	Ambiguous
	// Failed is a proposal that could not be made for a reason of its
	// own (no codex open).
	Failed
)

// Error is a request for a proposal refused, with a message that says
// what to do instead. The messages name the arguments as the propose
// tools take them (targetSection, proposedMarkdown, …), since those are
// the requests' field names.
type Error struct {
	Kind    Kind
	Message string
	// Candidates name what may have been meant, for NotFound and
	// Ambiguous.
	Candidates []string
}

func (e *Error) Error() string { return e.Message }

func errorf(kind Kind, format string, args ...any) *Error {
	return &Error{Kind: kind, Message: fmt.Sprintf(format, args...)}
}
