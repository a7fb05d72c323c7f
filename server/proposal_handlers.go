package server

// proposalRequests are the custom requests about proposals, by method.
func (s *Server) proposalRequests() map[string]requestHandler {
	return map[string]requestHandler{
		methodProposals:     s.quireProposals,
		methodApplyProposal: s.quireApplyProposal,
		methodDiscard:       s.quireDiscardProposal,
		methodPropose:       s.quirePropose,
		methodExplicate:     s.quireExplicate,
	}
}

// proposalCommands are the proposal and explicate commands.
func (s *Server) proposalCommands() map[string]requestHandler {
	return map[string]requestHandler{
		"quire.applyProposal":   s.quireApplyProposalCommand,
		"quire.discardProposal": s.quireDiscardProposal,
		"quire.propose":         s.quirePropose,
		"quire.explicate":       s.quireExplicateCommand,
		"quire.proposals":       s.quireProposals,
	}
}
