package server

import "github.com/quire-ink/quire/server/wire"

// proposalRequests are the custom requests about proposals, by method.
func (s *Server) proposalRequests() map[string]requestHandler {
	return map[string]requestHandler{
		wire.MethodProposals:       s.quireProposals,
		wire.MethodApplyProposal:   s.quireApplyProposal,
		wire.MethodDiscardProposal: s.quireDiscardProposal,
		wire.MethodPropose:         s.quirePropose,
		wire.MethodExplicate:       s.quireExplicate,
	}
}

// proposalCommands are the proposal and explicate commands.
func (s *Server) proposalCommands() map[string]requestHandler {
	return map[string]requestHandler{
		wire.CommandApplyProposal:   s.quireApplyProposalCommand,
		wire.CommandDiscardProposal: s.quireDiscardProposal,
		wire.CommandPropose:         s.quirePropose,
		wire.CommandExplicate:       s.quireExplicateCommand,
		wire.CommandProposals:       s.quireProposals,
	}
}
