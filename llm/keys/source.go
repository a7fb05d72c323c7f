package keys

import "strings"

// Kind is where a key was found.
type Kind int

const (
	// None: no key was found.
	None Kind = iota
	// Editor: the key the editor handed quire (EditorKeyEnv).
	Editor
	// Variable: the environment variable Source.Name.
	Variable
	// Keychain: the system keychain.
	Keychain
	// File: the key file Source.Name, written by `quire key set --file`.
	File
)

// EditorKeyEnv is the variable through which an editor hands quire the
// key it keeps (VS Code's secret storage), set in the environment of the
// quire process it starts, never in its settings, which editors log.
// EditorBaseURLEnv names the provider that key belongs to ("" is
// OpenAI's): quire sends the editor's key to that provider only.
const (
	EditorKeyEnv     = "QUIRE_EDITOR_API_KEY"
	EditorBaseURLEnv = "QUIRE_EDITOR_API_BASE_URL"
)

// Source says where a key came from, and never holds the key.
type Source struct {
	Kind Kind
	// Name is the variable's name or the file's path.
	Name string
}

// String is the source as messages name it: "from your keychain".
func (s Source) String() string {
	switch s.Kind {
	case Editor:
		return "from your editor"
	case Variable:
		return "from the " + s.Name + " variable"
	case Keychain:
		return "from your keychain"
	case File:
		return "from the key file " + s.Name
	}
	return "from nowhere"
}

// Where is where a stored key is kept, as messages name it: "in your
// keychain".
func (s Source) Where() string {
	switch s.Kind {
	case Keychain:
		return "in your keychain"
	case File:
		return "in the key file " + s.Name
	}
	return strings.TrimPrefix(s.String(), "from ")
}
