package localmodel

import (
	"fmt"
	"net/url"
	"strings"
)

// ServersEnv names the variable that replaces the usual ports with the
// servers it lists: entries separated by commas, each "Name=URL" or a
// bare URL, the URL being the server's root without /v1. A server named
// Ollama (in any case) is asked through Ollama's own API, the others
// through /v1/models. It is for a server on another port and for tests:
//
//	QUIRE_LOCAL_MODEL_URLS="Ollama=http://127.0.0.1:11500,LM Studio=http://127.0.0.1:1300"
const ServersEnv = "QUIRE_LOCAL_MODEL_URLS"

// ServersFromEnv reads ServersEnv through getenv: nil when it is unset
// or empty (the caller then asks DefaultServers), else its servers, or
// an error naming the entry that is no http URL.
func ServersFromEnv(getenv func(string) string) ([]Server, error) {
	v := strings.TrimSpace(getenv(ServersEnv))
	if v == "" {
		return nil, nil
	}
	var out []Server
	for entry := range strings.SplitSeq(v, ",") {
		entry = strings.TrimSpace(entry)
		if entry == "" {
			continue
		}
		name, raw, named := strings.Cut(entry, "=")
		if !named || strings.Contains(name, "://") {
			name, raw = "", entry
		}
		name, raw = strings.TrimSpace(name), strings.TrimSpace(raw)
		u, err := url.Parse(raw)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("%s: %q is no http URL of a model server (write Name=http://host:port, separated by commas)", ServersEnv, entry)
		}
		if name == "" {
			name = u.Host
		}
		out = append(out, Server{Name: name, URL: strings.TrimRight(raw, "/"), Ollama: strings.EqualFold(name, "ollama")})
	}
	return out, nil
}
