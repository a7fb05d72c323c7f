package server

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"sync"

	"go.lsp.dev/jsonrpc2"

	"github.com/quire-ink/quire/llm"
)

const (
	// historyMessages bounds a conversation's history: the last turns,
	// writer's message and answer each.
	historyMessages = 12
	// maxConversations bounds how many conversations a session keeps; the
	// least recently used goes first.
	maxConversations = 64
)

// conversations are the session's conversations with the advisors, by
// id. Its zero value is ready.
type conversations struct {
	mu    sync.Mutex
	convs map[string]*conversation
	order []string
}

// conversation is the history of one persona with one project.
type conversation struct {
	proj    *openBook
	persona string
	history []llm.Message
	// responseID is the last answer's stored response (Responses API),
	// which the next turn continues instead of resending the history.
	responseID string
}

// conversation returns the history under id, creating the conversation
// (with a new id when id is "") if it is absent.
func (a *conversations) conversation(id string, proj *openBook, persona string) (string, []llm.Message, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.convs == nil {
		a.convs = map[string]*conversation{}
	}
	if id == "" {
		id = newID("c-")
	}
	c, ok := a.convs[id]
	if ok && (c.proj != proj || c.persona != persona) {
		return "", nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("This conversation is with the %s, in another book or with another advisor; start a new one.", llm.ResolvePersona(c.persona).Name))
	}
	if !ok {
		a.convs[id] = &conversation{proj: proj, persona: persona}
		a.order = append(a.order, id)
		for len(a.order) > maxConversations {
			delete(a.convs, a.order[0])
			a.order = a.order[1:]
		}
		return id, nil, nil
	}
	return id, append([]llm.Message(nil), c.history...), nil
}

// history is the history under id when it is a conversation of persona
// with proj, without creating one: what a peek would send.
func (a *conversations) history(id string, proj *openBook, persona string) []llm.Message {
	a.mu.Lock()
	defer a.mu.Unlock()
	if c, ok := a.convs[id]; ok && c.proj == proj && c.persona == persona {
		return append([]llm.Message(nil), c.history...)
	}
	return nil
}

// responseID is the stored response a conversation continues from, ""
// when there is none.
func (a *conversations) responseID(id string) string {
	a.mu.Lock()
	defer a.mu.Unlock()
	if c, ok := a.convs[id]; ok {
		return c.responseID
	}
	return ""
}

// remember adds a turn to a conversation, keeping the last messages, and
// the response the turn ended with.
func (a *conversations) remember(id, responseID string, turn ...llm.Message) {
	a.mu.Lock()
	defer a.mu.Unlock()
	c, ok := a.convs[id]
	if !ok {
		return
	}
	c.responseID = responseID
	h := append(c.history, turn...)
	if len(h) > historyMessages {
		h = h[len(h)-historyMessages:]
	}
	c.history = append([]llm.Message(nil), h...)
}

func newID(prefix string) string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return prefix + hex.EncodeToString(b[:])
}
