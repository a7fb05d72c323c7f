package localmodel

import (
	"fmt"
	"net"
	"net/url"
	"strings"
)

// Servers on other ports: Ollama reads OLLAMA_HOST to know where it
// listens, and its own client reads the same variable to find it, so
// quire does too; QUIRE_LOCAL_MODELS names the servers to ask in place
// of the usual ports, for a writer whose LM Studio or llama.cpp listens
// elsewhere (and for tests, which run their own).

// Environment variables ServersFromEnv reads.
const (
	EnvOllamaHost  = "OLLAMA_HOST"
	EnvLocalModels = "QUIRE_LOCAL_MODELS"
)

// ServersFromEnv is the servers to ask: those QUIRE_LOCAL_MODELS lists
// ("Name=URL" pairs separated by commas; a name holding "Ollama"
// is asked as Ollama is), else DefaultServers with Ollama where
// OLLAMA_HOST puts it. An unreadable value is an error that names the
// variable; the caller falls back to the defaults.
func ServersFromEnv(getenv func(string) string) ([]Server, error) {
	if list := strings.TrimSpace(getenv(EnvLocalModels)); list != "" {
		var servers []Server
		for item := range strings.SplitSeq(list, ",") {
			item = strings.TrimSpace(item)
			if item == "" {
				continue
			}
			name, raw, ok := strings.Cut(item, "=")
			name = strings.TrimSpace(name)
			if !ok || name == "" {
				return nil, fmt.Errorf("%s: %q is not Name=URL (for example Ollama=http://127.0.0.1:11434)", EnvLocalModels, item)
			}
			u, err := serverURL(raw, "")
			if err != nil {
				return nil, fmt.Errorf("%s: %s: %w", EnvLocalModels, name, err)
			}
			servers = append(servers, Server{Name: name, URL: u, Ollama: strings.Contains(strings.ToLower(name), "ollama")})
		}
		return servers, nil
	}
	servers := DefaultServers()
	if host := strings.TrimSpace(getenv(EnvOllamaHost)); host != "" {
		u, err := serverURL(host, "11434")
		if err != nil {
			return servers, fmt.Errorf("%s: %w", EnvOllamaHost, err)
		}
		for i := range servers {
			if servers[i].Ollama {
				servers[i].URL = u
			}
		}
	}
	return servers, nil
}

// serverURL reads a server's address as Ollama's client reads
// OLLAMA_HOST: the scheme defaults to http and the port to defaultPort,
// and an address that listens everywhere (0.0.0.0, ::) is reached on
// this computer.
func serverURL(raw, defaultPort string) (string, error) {
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
		port = defaultPort
	}
	if port == "" {
		return "", fmt.Errorf("%q names no port", raw)
	}
	return u.Scheme + "://" + net.JoinHostPort(host, port) + strings.TrimRight(u.Path, "/"), nil
}
