package health

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/quire-ink/quire/llm/provider"
)

// ProbeTimeout bounds the one request the report sends the model's
// server: long enough for a distant provider, short enough that a
// writer waiting on `quire doctor` is not left wondering.
const ProbeTimeout = 5 * time.Second

// maxListBytes bounds what is read of a server's model list.
const maxListBytes = 4 << 20

// probe is what asking the server for its models found.
type probe struct {
	// Status is the HTTP status; 0 when no answer came.
	Status int
	// Models are the ids the server listed, when it answered with a list.
	Models []string
	// Refused says nothing listens at the address (the server is not
	// running); Timeout says it did not answer in time.
	Refused, Timeout bool
	Err              error
}

// listModels sends GET {base}/models with the key, if any: the cheapest
// request every OpenAI-compatible server answers, and it sends no
// prompt and costs no tokens.
func listModels(ctx context.Context, client *http.Client, base, key string, timeout time.Duration) probe {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(base, "/")+"/models", nil)
	if err != nil {
		return probe{Err: fmt.Errorf("the provider's address %s is not a URL: %w", base, err)}
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := client.Do(req)
	if err != nil {
		var p probe
		p.Refused = connRefused(err)
		var ne net.Error
		p.Timeout = errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout()
		// The error names the URL, never the header that holds the key.
		p.Err = err
		return p
	}
	defer resp.Body.Close()
	p := probe{Status: resp.StatusCode}
	if resp.StatusCode != http.StatusOK {
		return p
	}
	var list struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if json.NewDecoder(io.LimitReader(resp.Body, maxListBytes)).Decode(&list) == nil {
		for _, m := range list.Data {
			// The names are shown to the writer: a server that put the
			// key it was sent in one gets it taken out.
			p.Models = append(p.Models, provider.RedactKeys(m.ID, key))
		}
	}
	return p
}
