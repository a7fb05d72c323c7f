package server

import "github.com/quire-ink/quire/server/wire"

// advisorRequests are the advisor's custom requests (quire/ask,
// quire/personas, …), by method.
func (s *Server) advisorRequests() map[string]requestHandler {
	return map[string]requestHandler{
		wire.MethodAsk:        s.quireAsk,
		wire.MethodPeekPrompt: s.quirePeekPrompt,
		wire.MethodPersonas:   s.quirePersonas,
	}
}

// advisorCommands are the advisor's workspace/executeCommand commands.
func (s *Server) advisorCommands() map[string]requestHandler {
	return map[string]requestHandler{
		wire.CommandAsk:        s.quireAskCommand,
		wire.CommandPeekPrompt: s.quirePeekPromptCommand,
		wire.CommandPersonas:   s.quirePersonas,
	}
}
