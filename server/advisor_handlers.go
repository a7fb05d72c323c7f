package server

// advisorRequests are the advisor's custom requests (quire/ask,
// quire/personas, …), by method.
func (s *Server) advisorRequests() map[string]requestHandler {
	return map[string]requestHandler{
		methodAsk:        s.quireAsk,
		methodPeekPrompt: s.quirePeekPrompt,
		methodPersonas:   s.quirePersonas,
	}
}

// advisorCommands are the advisor's workspace/executeCommand commands.
func (s *Server) advisorCommands() map[string]requestHandler {
	return map[string]requestHandler{
		"quire.ask":        s.quireAskCommand,
		"quire.peekPrompt": s.quirePeekPromptCommand,
		"quire.personas":   s.quirePersonas,
	}
}
