package localmodel

import (
	"fmt"
	"net"
	"net/url"
	"strings"
)

// Servers on other ports: QUIRE_LOCAL_MODELS names the servers to ask in
// place of the usual ports, for a writer whose LM Studio or llama.cpp
// listens elsewhere (and for tests, which run their own). Ollama moved by
// OLLAMA_HOST is found without it (DefaultServers).

// LocalModelsEnv names the servers to ask in place of the usual ports.
const LocalModelsEnv = "QUIRE_LOCAL_MODELS"

// ServersFromEnv is the servers to ask: those QUIRE_LOCAL_MODELS lists
// ("Name=URL" pairs separated by commas; a name holding "Ollama" is
// asked as Ollama is), else DefaultServers. An unreadable list is an
// error that names the variable, with nil servers: the caller asks the
// usual ones.
func ServersFromEnv(getenv func(string) string) ([]Server, error) {
	list := strings.TrimSpace(getenv(LocalModelsEnv))
	if list == "" {
		return DefaultServers(), nil
	}
	var servers []Server
	for item := range strings.SplitSeq(list, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		name, raw, ok := strings.Cut(item, "=")
		name = strings.TrimSpace(name)
		if !ok || name == "" {
			return nil, fmt.Errorf("%s: %q is not Name=URL (for example LM Studio=http://127.0.0.1:5678)", LocalModelsEnv, item)
		}
		u, err := serverURL(raw)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", LocalModelsEnv, name, err)
		}
		servers = append(servers, Server{Name: name, URL: u, Ollama: strings.Contains(strings.ToLower(name), "ollama")})
	}
	return servers, nil
}

// serverURL reads a server's address: the scheme defaults to http, the
// port must be named, and an address that listens everywhere (0.0.0.0,
// ::) is reached on this computer.
func serverURL(raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	if !strings.Contains(raw, "://") {
		raw = "http://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return "", fmt.Errorf("%q is not an http address", raw)
	}
	host, port := u.Hostname(), u.Port()
	switch host {
	case "", "0.0.0.0", "::":
		host = "127.0.0.1"
	}
	if port == "" {
		return "", fmt.Errorf("%q names no port", raw)
	}
	return u.Scheme + "://" + net.JoinHostPort(host, port) + strings.TrimRight(u.Path, "/"), nil
}
