// Package localmodel finds the models of servers running on the
// writer's own computer (Ollama, LM Studio, llama.cpp, vLLM), so that a
// writer who runs one need not type its address and a model name, and
// writes the writer's choice into their own config.yaml. A local server
// needs no key and no trust: nothing leaves the computer.
package localmodel

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"time"
)

// Server is a local server to ask for its models.
type Server struct {
	// Name is what the writer knows it as ("Ollama").
	Name string
	// URL is its root, without /v1 (http://127.0.0.1:11434).
	URL string
	// Ollama servers are asked through their own GET /api/tags, which
	// every version answers; the others through GET /v1/models.
	Ollama bool
}

// BaseURL is the server's OpenAI-compatible API root, provider.base_url.
func (s Server) BaseURL() string { return strings.TrimRight(s.URL, "/") + "/v1" }

// OllamaHostEnv is the variable Ollama's own programs read for where it
// listens; a writer who moved Ollama to another port has it set, and
// quire looks there too.
const OllamaHostEnv = "OLLAMA_HOST"

// DefaultServers are the usual ports of local servers on this computer,
// Ollama's where OLLAMA_HOST says.
func DefaultServers() []Server {
	return []Server{
		{Name: "Ollama", URL: OllamaURL(os.Getenv(OllamaHostEnv)), Ollama: true},
		{Name: "LM Studio", URL: "http://127.0.0.1:1234"},
		{Name: "llama.cpp", URL: "http://127.0.0.1:8080"},
		{Name: "vLLM", URL: "http://127.0.0.1:8000"},
	}
}

// OllamaURL is where Ollama listens, read as Ollama reads OLLAMA_HOST
// ("host", "host:port", "http://host:port"): http and port 11434 unless
// named (443 for https); a listen-on-everything address (0.0.0.0, ::) is
// asked on 127.0.0.1; unset or not http(s), the default
// http://127.0.0.1:11434.
func OllamaURL(host string) string {
	const def = "http://127.0.0.1:11434"
	v := strings.TrimSpace(host)
	if v == "" {
		return def
	}
	scheme := "http"
	if i := strings.Index(v, "://"); i >= 0 {
		scheme, v = strings.ToLower(v[:i]), v[i+3:]
	}
	if scheme != "http" && scheme != "https" {
		return def
	}
	if i := strings.IndexByte(v, '/'); i >= 0 {
		v = v[:i]
	}
	h, port, err := net.SplitHostPort(v)
	if err != nil {
		h, port = v, ""
	}
	h = strings.Trim(h, "[]")
	if h == "" || h == "0.0.0.0" || h == "::" {
		h = "127.0.0.1"
	}
	if port == "" {
		port = "11434"
		if scheme == "https" {
			port = "443"
		}
	}
	return scheme + "://" + net.JoinHostPort(h, port)
}

// DefaultTimeout bounds each server's answer: a local server answers in
// milliseconds, and a port nobody listens on refuses at once; the bound
// is for a port held by something else that never answers.
const DefaultTimeout = 500 * time.Millisecond

// Model is one model a local server offers.
type Model struct {
	Server  string `json:"server"`
	BaseURL string `json:"baseURL"`
	Model   string `json:"model"`
}

// Options say where to look; the zero value looks at DefaultServers.
type Options struct {
	Servers []Server
	Timeout time.Duration
	HTTP    *http.Client
}

// maxListBytes bounds what is read of one server's list.
const maxListBytes = 4 << 20

// Find asks every server at once and lists the models found, in the
// servers' order, each server's sorted by name. A server that does not
// answer is left out: most writers run one or none.
func Find(ctx context.Context, o Options) []Model {
	servers := o.Servers
	if servers == nil {
		servers = DefaultServers()
	}
	timeout := cmp.Or(o.Timeout, DefaultTimeout)
	client := o.HTTP
	if client == nil {
		client = &http.Client{}
	}
	found := make([][]Model, len(servers))
	var wg sync.WaitGroup
	for i, s := range servers {
		wg.Go(func() {
			names, err := list(ctx, client, s, timeout)
			if err != nil {
				return
			}
			slices.Sort(names)
			for _, n := range slices.Compact(names) {
				found[i] = append(found[i], Model{Server: s.Name, BaseURL: s.BaseURL(), Model: n})
			}
		})
	}
	wg.Wait()
	return slices.Concat(found...)
}

// list asks one server for its models' names.
func list(ctx context.Context, client *http.Client, s Server, timeout time.Duration) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	url := s.BaseURL() + "/models"
	if s.Ollama {
		url = strings.TrimRight(s.URL, "/") + "/api/tags"
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s answered HTTP %d", url, resp.StatusCode)
	}
	// Ollama's /api/tags: {"models":[{"name":"llama3.2:latest","model":…}]};
	// OpenAI's /v1/models: {"data":[{"id":"…"}]}.
	var body struct {
		Models []struct {
			Name  string `json:"name"`
			Model string `json:"model"`
		} `json:"models"`
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxListBytes)).Decode(&body); err != nil {
		return nil, fmt.Errorf("%s: %w", url, err)
	}
	var names []string
	for _, m := range body.Models {
		if n := cmp.Or(m.Model, m.Name); n != "" {
			names = append(names, n)
		}
	}
	for _, m := range body.Data {
		if m.ID != "" {
			names = append(names, m.ID)
		}
	}
	return names, nil
}
