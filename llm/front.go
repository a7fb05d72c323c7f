package llm

import (
	"log/slog"

	"github.com/quire-ink/quire/llm/mcp"
	"github.com/quire-ink/quire/llm/provider"
	"github.com/quire-ink/quire/llm/toolloop"
)

// The advisor's front door: what a front end (the language server, the
// command line) holds of a turn is named here, so that it talks to the
// advisor through this package and not to the provider client or the
// tool loop beneath it.

// Message is one message of a conversation with the model: what a front
// end keeps of a conversation between turns.
type Message = provider.Message

// Exchange is one turn as a conversation's history keeps it: the
// writer's question and the advisor's answer.
func Exchange(question, answer string) []Message {
	return []Message{{Role: provider.RoleUser, Content: question}, {Role: provider.RoleAssistant, Content: answer}}
}

// LoopOptions bound a turn's tool loop and let a front end watch it.
type LoopOptions = toolloop.Options

// TraceRow is one tool call of a turn, as a front end shows it.
type TraceRow = toolloop.TraceRow

// MCPServer is an MCP server a book's settings declare (mcp_servers:).
type MCPServer = mcp.ServerConfig

// MCPClients are the MCP servers whose tools a persona's scope may name,
// each connected when a turn first needs it.
type MCPClients = mcp.Clients

// NewMCPClients makes the pool of servers, connecting to none yet: dir
// is where their processes run, onFailure hears of a server that could
// not start or answer.
func NewMCPClients(servers map[string]MCPServer, log *slog.Logger, dir string, onFailure func(server string, err error)) *MCPClients {
	return mcp.NewClients(servers, mcp.ClientOptions{Logger: log, OnFailure: onFailure, Dir: dir})
}
