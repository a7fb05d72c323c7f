package wire

import (
	"encoding/json"

	"go.lsp.dev/protocol"
)

// An advisor's turn on the wire: the board, the question, its progress,
// and the answer with what the advisor read and why.

// Persona is one advisor of the board, as quire/personas lists them.
type Persona struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Focus string `json:"focus"`
}

// AskParams are quire/ask's and quire/peekPrompt's parameters (and the
// quire.ask command's argument). A custom request may carry LSP's
// workDoneToken; progress then goes to it.
type AskParams struct {
	Persona        string               `json:"persona,omitempty"`
	Message        string               `json:"message"`
	URI            protocol.DocumentURI `json:"uri,omitempty"`
	Range          *protocol.Range      `json:"range,omitempty"`
	ConversationID string               `json:"conversationId,omitempty"`
	WorkDoneToken  json.RawMessage      `json:"workDoneToken,omitempty" ts:"string | number"`
	// SelectionHash, when given with range, is the hash of the text the
	// writer selected when the action was offered; the ask is refused if
	// the text under range is no longer that text.
	SelectionHash string `json:"selectionHash,omitempty"`
	// Action, set by an advisor action's code action, is the action's
	// name ("Continuity check"): what the writer chose, shown in place of
	// the action's long message in the answer document and the chats.
	Action string `json:"action,omitempty"`
}

// ToolRow is one tool call of an ask, as its progress reports it.
type ToolRow struct {
	Round   int    `json:"round"`
	Tool    string `json:"tool"`
	Summary string `json:"summary"`
	OK      bool   `json:"ok"`
	Code    string `json:"code,omitempty"`
	MS      int64  `json:"ms"`
}

// AskProgressRow is a quire/askProgress notification carrying a tool row.
type AskProgressRow struct {
	Token json.RawMessage `json:"token" ts:"string | number"`
	Row   ToolRow         `json:"row"`
}

// AskProgressDelta is a quire/askProgress notification carrying a piece
// of the streamed answer, in the round it streams in.
type AskProgressDelta struct {
	Token json.RawMessage `json:"token" ts:"string | number"`
	Delta string          `json:"delta"`
	Round int             `json:"round" ts:"number,optional"`
}

// Evidence is one file the model read, as a location to open.
type Evidence struct {
	URI   protocol.DocumentURI `json:"uri"`
	Range protocol.Range       `json:"range"`
	Path  string               `json:"path"`
	Tool  string               `json:"tool"`
	Hash  string               `json:"hash,omitempty"`
	// AsOf is the chapter (its path) a codex entry was read as of, and
	// AsOfChapter its place and title (`5 "Salt-Debt"`); empty when the
	// entry was read as written. AsOfImplied: the writer's current
	// chapter, the model having named none.
	AsOf        string `json:"asOf,omitempty"`
	AsOfChapter string `json:"asOfChapter,omitempty"`
	AsOfImplied bool   `json:"asOfImplied,omitempty"`
	// Why is the call that read the file and what it was asked
	// (`get_manuscript_context "12"`), and, for a chapter an outline of
	// the turn listed first, that outline call (`after get_outline
	// chapters 1 to 24 listed it`).
	Why string `json:"why,omitempty" ts:"string,optional"`
	// Cited says the answer names the file's chapter (its title or
	// number) or entry (its name or an alias).
	Cited bool `json:"cited,omitempty" ts:"boolean,optional"`
	// Step is the place, from 1, of the call that read it in the
	// answer's Consulted.
	Step int `json:"step,omitempty" ts:"number,optional"`
}

// Consulted is one tool call of an ask, as the answer's manifest lists
// it: what was asked, whether it worked, and how many chapters an
// outline call gave (its files are the evidence rows whose Why names it).
type Consulted struct {
	Round    int    `json:"round"`
	Call     string `json:"call"`
	OK       bool   `json:"ok"`
	Outlined int    `json:"outlined,omitempty" ts:"number,optional"`
}

// AskResult is quire/ask's answer.
type AskResult struct {
	Persona string `json:"persona"`
	Answer  string `json:"answer"`
	// Interim is what the model said on the way that is not the answer
	// (text that came with its tool calls, commentary), in order; it was
	// streamed as deltas of its own round, never as the answer's.
	Interim  []string   `json:"interim,omitempty"`
	Evidence []Evidence `json:"evidence"`
	// Consulted are the turn's tool calls in order, each with what it
	// asked: the answer's context manifest.
	Consulted      []Consulted `json:"consulted,omitempty" ts:"Consulted[],optional"`
	Proposals      []string    `json:"proposals"`
	ConversationID string      `json:"conversationId"`
	ServiceTier    string      `json:"serviceTier,omitempty"`
	Warnings       []string    `json:"warnings,omitempty"`
}
