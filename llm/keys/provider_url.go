package keys

import (
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"

	"github.com/quire-ink/quire/llm/provider"
)

// shortNames are the providers a writer may name by a word instead of a
// URL, each at the OpenAI-compatible base URL its documentation gives.
var shortNames = map[string]string{
	"openai":     provider.DefaultBaseURL,
	"openrouter": "https://openrouter.ai/api/v1",
	"deepseek":   "https://api.deepseek.com",
	"mistral":    "https://api.mistral.ai/v1",
	"anthropic":  "https://api.anthropic.com/v1",
}

// ShortNames are the provider names ProviderURL knows, sorted.
func ShortNames() []string { return slices.Sorted(maps.Keys(shortNames)) }

// ProviderURL turns what a writer typed for a provider (a short name
// such as openrouter, or a base URL) into the normalized base URL its key
// is kept under.
func ProviderURL(arg string) (string, error) {
	if u, ok := shortNames[strings.ToLower(strings.TrimSpace(arg))]; ok {
		return Normalize(u)
	}
	if !strings.Contains(arg, "://") {
		return "", fmt.Errorf("%q is neither a provider quire knows (%s) nor a base URL such as https://example.com/v1", arg, strings.Join(ShortNames(), ", "))
	}
	return Normalize(arg)
}

// Normalize is the base URL a key belongs to, written one way: scheme,
// host and port in lower case (the port left out when it is the
// scheme's own), the path without a trailing slash, no user, query or
// fragment. "" is OpenAI's. Two spellings of one server find one key,
// and a key is never found for a server it was not stored for.
func Normalize(base string) (string, error) {
	if strings.TrimSpace(base) == "" {
		base = provider.DefaultBaseURL
	}
	u, err := url.Parse(strings.TrimSpace(base))
	if err != nil {
		return "", fmt.Errorf("the provider's base URL %q cannot be read: %w", base, err)
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme != "http" && scheme != "https" {
		return "", fmt.Errorf("the provider's base URL %q is not an http or https URL", base)
	}
	host, port := strings.ToLower(u.Hostname()), u.Port()
	if host == "" {
		return "", fmt.Errorf("the provider's base URL %q names no server", base)
	}
	if (scheme == "https" && port == "443") || (scheme == "http" && port == "80") {
		port = ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port != "" {
		host += ":" + port
	}
	return scheme + "://" + host + strings.TrimRight(u.EscapedPath(), "/"), nil
}
