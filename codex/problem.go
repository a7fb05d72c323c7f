package codex

import "fmt"

// Severity ranks a problem the way an editor shows it.
type Severity int

const (
	SeverityError Severity = iota + 1
	SeverityWarning
	SeverityInfo
)

func (s Severity) String() string {
	switch s {
	case SeverityError:
		return "error"
	case SeverityWarning:
		return "warning"
	case SeverityInfo:
		return "info"
	}
	return fmt.Sprintf("severity(%d)", int(s))
}

// MarshalText writes the severity by name.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a severity name.
func (s *Severity) UnmarshalText(b []byte) error {
	switch string(b) {
	case "error":
		*s = SeverityError
	case "warning":
		*s = SeverityWarning
	case "info":
		*s = SeverityInfo
	default:
		return fmt.Errorf("unknown severity %q", b)
	}
	return nil
}

// Problem codes let the server and tests tell problems apart without
// matching message text.
const (
	CodeYAML          = "yaml"
	CodeUnclosed      = "frontmatter-unclosed"
	CodeDuplicateKey  = "duplicate-key"
	CodeFieldType     = "field-type"
	CodeUnknownType   = "unknown-type"
	CodeStatus        = "status"
	CodeLockedField   = "locked-field"
	CodeEncoding      = "encoding"
	CodeBinary        = "binary"
	CodeTooLarge      = "too-large"
	CodeEmpty         = "empty"
	CodeUnreadable    = "unreadable"
	CodeDuplicateName = "duplicate-name"
	CodeBrokenLink    = "broken-link"
	CodeFileName      = "file-name"
)

// Problem is something wrong with a file, located by byte range so the
// server can turn it into a diagnostic.
type Problem struct {
	// Path is the project-relative file the problem is in.
	Path     string   `json:"path"`
	Code     string   `json:"code"`
	Severity Severity `json:"severity"`
	Message  string   `json:"message"`
	Range    Range    `json:"range"`
	// Unlisted is, for a CodeTooManyProblems summary, how many problems of
	// the file it stands for.
	Unlisted int `json:"unlisted,omitempty"`
}

func (p Problem) String() string {
	return fmt.Sprintf("%s: %s: %s", p.Path, p.Severity, p.Message)
}
