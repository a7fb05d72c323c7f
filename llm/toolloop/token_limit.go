package toolloop

import (
	"fmt"

	"github.com/quire-ink/quire/llm/provider"
)

// An answer cut by the model's output-token limit: the writer is told so
// (in the turn's warnings), and which setting raises the limit, instead
// of the model being nudged to answer again (a thinking model spends the
// retry thinking as well).

// finishLength is the finish reason of a reply that stopped at the
// output-token limit (the provider maps the Responses API's
// max_output_tokens to it too).
const finishLength = "length"

// tokenLimitWarning tells that the token limit cut the answer.
const tokenLimitWarning = "the answer was cut where the model reached its output-token limit: for longer answers, raise %s in quire.yaml, or choose a model that thinks less"

// OutOfTokensError is a turn whose model reached its output-token limit
// before it wrote any answer, as a thinking model does when its
// reasoning uses up the limit.
type OutOfTokensError struct {
	// Setting is the quire.yaml key that raises the limit.
	Setting string
}

func (e *OutOfTokensError) Error() string {
	return fmt.Sprintf("the model reached its output-token limit before it wrote an answer (a thinking model can spend all of it on its reasoning); raise %s in quire.yaml, or choose a model that thinks less, then ask again", e.Setting)
}

// tokenLimitSetting names the key of quire.yaml that sets the output-token
// limit for the provider's API: the request option each API reads.
func tokenLimitSetting(api string) string {
	if api == provider.APIResponses {
		return "provider.options.max_output_tokens"
	}
	return "provider.options.max_tokens"
}
