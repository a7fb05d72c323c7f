package server

import (
	"context"
	"encoding/json"
	"sync"
)

// clientConfig holds the advisor settings the editor sent (settings.go
// reads them): from initializationOptions, then from each
// workspace/didChangeConfiguration. Its zero value is ready.
type clientConfig struct {
	mu sync.Mutex
	// initial is from initializationOptions, config from the last
	// workspace/didChangeConfiguration; config wins.
	initial, config clientSettings
}

func (c *clientConfig) settings() clientSettings {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.initial.over(c.config)
}

func (c *clientConfig) setInitial(cs clientSettings) {
	c.mu.Lock()
	c.initial = cs
	c.mu.Unlock()
}

func (c *clientConfig) setChanged(cs clientSettings) {
	c.mu.Lock()
	c.config = cs
	c.mu.Unlock()
}

// didChangeConfigurationParams keep the settings as JSON: settings.go
// reads them leniently, dropping what does not decode.
type didChangeConfigurationParams struct {
	Settings json.RawMessage `json:"settings"`
}

// didChangeConfiguration takes the client's quire settings; they apply
// from the next ask on.
func (s *Server) didChangeConfiguration(ctx context.Context, p didChangeConfigurationParams) error {
	before := s.clientCfg.settings().Dialogue
	s.clientCfg.setChanged(parseClientSettings(p.Settings))
	// Dialogue's colours and hints are drawn again when their settings
	// change.
	if after := s.clientCfg.settings().Dialogue; after.highlight() != before.highlight() {
		s.refreshClient(ctx, "workspace/semanticTokens/refresh")
	} else if after.speakerHints() != before.speakerHints() {
		s.refreshClient(ctx, methodInlayHintRefresh)
	}
	return nil
}
