package server

// proposalRequests are the custom requests about proposals, by method.
func (s *Server) proposalRequests() map[string]requestHandler {
	return map[string]requestHandler{}
}

// proposalCommands are the proposal and explicate commands.
func (s *Server) proposalCommands() map[string]requestHandler {
	return map[string]requestHandler{}
}
