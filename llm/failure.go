package llm

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"

	"github.com/quire-ink/quire/codex/clip"
	"github.com/quire-ink/quire/llm/provider"
	"github.com/quire-ink/quire/llm/toolloop"
)

// What a writer reads when an advisor turn fails, for every front end
// (the server's messages; the command line may print it too).

// FailureText is the error of an advisor turn as a sentence for the
// writer: what went wrong and what to do, never a Go error chain or
// "dial tcp". baseURL is the provider's API root ("" for OpenAI's).
func FailureText(err error, baseURL string) string {
	if baseURL == "" {
		baseURL = provider.DefaultBaseURL
	}
	var pe *provider.Error
	var te *provider.TimeoutError
	var dnsErr *net.DNSError
	var opErr *net.OpError
	var tokens *toolloop.OutOfTokensError
	var big *provider.ReplyTooLargeError
	var cut *provider.CutOffError
	switch {
	case errors.As(err, &cut):
		return cutOffText(cut.Partial)
	case errors.As(err, &tokens):
		return "The model at " + baseURL + " " + strings.TrimPrefix(tokens.Error(), "the model ") + "."
	case errors.As(err, &big):
		return "The model at " + baseURL + " sent a reply larger than quire reads (" + strconv.FormatInt(big.Limit>>20, 10) + " MB), so there is no answer. Ask again; if it happens again, check provider.base_url: the server there is not answering as a model does."
	case errors.As(err, &te):
		return fmt.Sprintf("The model at %s did not answer in time (%s). Try again, or raise provider.timeout in quire.yaml for a slow model.", baseURL, strings.TrimPrefix(te.Error(), "provider request timed out after "))
	case errors.As(err, &pe):
		return providerFailureText(pe, baseURL)
	case errors.As(err, &dnsErr):
		return fmt.Sprintf("quire could not find the model's server %s; check provider.base_url in quire.yaml or the editor's quire settings.", baseURL)
	case errors.As(err, &opErr):
		return fmt.Sprintf("quire could not reach the model at %s; is the server running?", baseURL)
	}
	return fmt.Sprintf("The ask failed: %s. Try again; if it keeps failing, check the provider settings in quire.yaml.", strings.TrimPrefix(err.Error(), "provider request failed: "))
}

// providerFailureText is an error answer of the provider, by its status.
func providerFailureText(pe *provider.Error, baseURL string) string {
	said := strings.TrimSpace(pe.Message)
	if said == "" {
		said = http.StatusText(pe.Status)
	}
	if pe.OutOfCredit() {
		return fmt.Sprintf("The model at %s says the account behind quire's API key is out of credit. Add credit or check the account's plan and billing with the provider, then ask again.", baseURL)
	}
	var what string
	switch {
	case pe.Status == http.StatusUnauthorized || pe.Status == http.StatusForbidden:
		what = "refused quire's API key; check the key (provider.api_key_env names the variable that holds it)"
	case pe.Status == http.StatusNotFound:
		what = "does not know this model or address; check provider.model and provider.base_url"
	case pe.Status == http.StatusOK:
		what = "took the request but could not finish the answer; try again in a moment"
	case pe.Status == http.StatusTooManyRequests:
		what = "is busy or over its limit; wait a moment and ask again"
	case pe.Status >= 500:
		what = "had a problem of its own; try again in a moment"
	default:
		what = "refused the request; check the provider settings in quire.yaml"
	}
	return fmt.Sprintf("The model at %s %s (it said: %s).", baseURL, what, said)
}

// CutOff says the turn's answer stopped mid-stream, and gives what
// arrived of it.
func CutOff(err error) (partial string, ok bool) {
	var cut *provider.CutOffError
	if errors.As(err, &cut) {
		return cut.Partial, true
	}
	return "", false
}

// maxPartialInMessage bounds the partial answer a cut-off turn's message
// quotes; CutOff gives all of it.
const maxPartialInMessage = 2000

// cutOffText says the answer stopped mid-stream and quotes what arrived,
// marked partial.
func cutOffText(partial string) string {
	msg := "The model's answer was cut off before it finished: the connection ended in the middle of it. Ask again for the whole answer."
	if p := strings.TrimSpace(partial); p != "" {
		msg += "\n\nWhat arrived (partial):\n" + clip.Runes(p, maxPartialInMessage)
	}
	return msg
}
