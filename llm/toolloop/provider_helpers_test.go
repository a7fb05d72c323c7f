package toolloop

import (
	"github.com/quire-ink/quire/llm/provider/clienttest"
	"github.com/quire-ink/quire/llm/provider/providertest"
)

// The real client pointed at the fake provider, under the names these
// tests have always used.
var (
	scriptedProvider  = clienttest.Scripted
	responsesProvider = clienttest.Responses
	inputOf           = providertest.InputOf
)
