package provider

import (
	"encoding/json"
	"math"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/llm/provider/providertest"
)

// tierStep is a text reply whose body reports the service tier that served
// it ("" leaves service_tier out).
func tierStep(t *testing.T, content, tier string) providertest.Step {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal([]byte(providertest.TextStep(content).Reply.Encode()), &m))
	if tier != "" {
		m["service_tier"] = tier
	}
	b, err := json.Marshal(m)
	require.NoError(t, err)
	return providertest.Step{Body: string(b)}
}

func TestProviderOptionsMerged(t *testing.T) {
	s := providertest.New(t, providertest.TextStep("one"), providertest.TextStep("two"))
	defaults := map[string]any{"temperature": 0.7, "top_p": 0.9, "max_tokens": 512, "seed": 7}
	p := scriptedProvider(t, s, func(c *Config) { c.Defaults = defaults })
	defaults["temperature"] = 1.5 // the provider keeps its own copy

	c, err := p.Complete(t.Context(), CompletionRequest{
		Messages:  providerTestMessages()[:2],
		Overrides: map[string]any{"temperature": 0.2, "top_p": nil, "transforms": []string{"middle-out"}},
	})
	require.NoError(t, err)
	assert.Empty(t, c.Warnings)
	body := s.Requests()[0].Decoded(t)
	assert.Equal(t, 0.2, body["temperature"], "an override wins over the default")
	assert.NotContains(t, body, "top_p", "a nil override removes the default")
	assert.Equal(t, 512.0, body["max_tokens"])
	assert.Equal(t, 7.0, body["seed"])
	assert.Equal(t, []any{"middle-out"}, body["transforms"])
	assert.Contains(t, string(s.Requests()[0].Body), `"max_tokens":512`)

	// Overrides are per request: the next one gets the defaults again.
	_, err = p.Complete(t.Context(), CompletionRequest{Messages: providerTestMessages()[:2]})
	require.NoError(t, err)
	body = s.Requests()[1].Decoded(t)
	assert.Equal(t, 0.7, body["temperature"])
	assert.Equal(t, 0.9, body["top_p"])
	assert.NotContains(t, body, "transforms")
}

func TestProviderNoOptionsSendsNone(t *testing.T) {
	s := providertest.New(t, providertest.TextStep("ok"))
	p := scriptedProvider(t, s)
	_, err := p.Complete(t.Context(), CompletionRequest{Messages: providerTestMessages()[:2]})
	require.NoError(t, err)
	body := s.Requests()[0].Decoded(t)
	for _, k := range []string{"temperature", "top_p", "max_tokens", "seed", "service_tier", "stream"} {
		assert.NotContains(t, body, k)
	}
}

func TestNewProviderRejectsReservedDefaults(t *testing.T) {
	for _, key := range ReservedOptionKeys {
		t.Run(key, func(t *testing.T) {
			_, err := New(Config{Model: "m", Defaults: map[string]any{"temperature": 0.1, key: "x"}})
			require.Error(t, err)
			assert.Contains(t, err.Error(), `"`+key+`"`)
			assert.Contains(t, err.Error(), "reserved")
		})
	}
}

func TestNewProviderRejectsUnencodableDefaults(t *testing.T) {
	cases := map[string]any{"func": func() {}, "chan": make(chan int), "nan": math.NaN()}
	for name, v := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := New(Config{Model: "m", Defaults: map[string]any{"seed": v}})
			require.Error(t, err)
			assert.Contains(t, err.Error(), `"seed"`)
			assert.Contains(t, err.Error(), "JSON")
		})
	}
}

func TestProviderDropsReservedOverrides(t *testing.T) {
	s := providertest.New(t, providertest.TextStep("ok"))
	p := scriptedProvider(t, s, func(c *Config) { c.ServiceTier = ServiceTierDefault })
	req := CompletionRequest{
		Messages: providerTestMessages()[:2],
		Overrides: map[string]any{
			"model": "someone-else", "stream": true, "messages": []any{}, "tools": nil,
			"response_format": map[string]any{"type": "json_object"}, "service_tier": "flex",
			"temperature": 0.1,
		},
	}
	peek, err := p.PeekRequest(req)
	require.NoError(t, err)
	c, err := p.Complete(t.Context(), req)
	require.NoError(t, err)
	assert.Equal(t, string(peek), string(s.Requests()[0].Body))

	body := s.Requests()[0].Decoded(t)
	assert.Equal(t, "test-model", body["model"])
	assert.Len(t, body["messages"], 2)
	assert.Equal(t, "default", body["service_tier"])
	assert.Equal(t, 0.1, body["temperature"])
	for _, k := range []string{"stream", "tools", "response_format"} {
		assert.NotContains(t, body, k)
	}
	assert.Equal(t, []string{
		`request option "messages" is reserved and was not sent`,
		`request option "model" is reserved and was not sent`,
		`request option "response_format" is reserved and was not sent`,
		`request option "service_tier" is reserved and was not sent`,
		`request option "stream" is reserved and was not sent`,
		`request option "tools" is reserved and was not sent`,
	}, c.Warnings)
}

func TestProviderRejectsUnencodableOverride(t *testing.T) {
	s := providertest.New(t)
	p := scriptedProvider(t, s)
	req := CompletionRequest{Messages: providerTestMessages()[:2], Overrides: map[string]any{"logit_bias": func() {}}}
	_, err := p.Complete(t.Context(), req)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `request option "logit_bias": value is not JSON-encodable`)
	_, err = p.PeekRequest(req)
	require.Error(t, err)
	assert.Empty(t, s.Requests())
}

func TestNewProviderValidatesServiceTier(t *testing.T) {
	_, err := New(Config{Model: "m", ServiceTier: "cheap"})
	require.EqualError(t, err, `provider: unknown service tier "cheap" (known: auto, default, flex, priority)`)
	_, err = New(Config{Model: "m", ServiceTier: "priority", FlexFallback: true})
	require.EqualError(t, err, `provider: flex fallback needs service tier flex, not "priority"`)
	for _, tier := range []string{"", "auto", "default", "flex", "priority"} {
		_, err := New(Config{Model: "m", ServiceTier: tier})
		require.NoError(t, err, tier)
	}
}

func TestProviderFlexAccepted(t *testing.T) {
	s := providertest.New(t, tierStep(t, "cheap and slow", "flex"))
	p := scriptedProvider(t, s, func(c *Config) { c.ServiceTier = ServiceTierFlex; c.FlexFallback = true })
	c, err := p.Complete(t.Context(), CompletionRequest{Messages: providerTestMessages()[:2]})
	require.NoError(t, err)
	assert.Equal(t, "cheap and slow", c.Message.Content)
	assert.Equal(t, "flex", c.ServiceTier)
	assert.Empty(t, c.Warnings)
	require.Len(t, s.Requests(), 1)
	assert.Equal(t, "flex", s.Requests()[0].Decoded(t)["service_tier"])
}

func TestProviderFlexRefusedFallsBackToDefault(t *testing.T) {
	refusals := map[string]providertest.Step{
		"429 resource_unavailable": providertest.ErrorStep(http.StatusTooManyRequests, "resource_unavailable", "Resource unavailable, please try again later.", nil),
		"429 flex message":         providertest.ErrorStep(http.StatusTooManyRequests, "", "Flex capacity is exhausted", nil),
		"503":                      providertest.ErrorStep(http.StatusServiceUnavailable, "server_error", "overloaded", nil),
	}
	for name, refusal := range refusals {
		t.Run(name, func(t *testing.T) {
			s := providertest.New(t, refusal, providertest.TextStep("on default"))
			// Retries 0 means the client's default of 2: the flex attempt
			// must still go straight to the fallback.
			p := scriptedProvider(t, s, func(c *Config) {
				c.ServiceTier = ServiceTierFlex
				c.FlexFallback = true
				c.Retries = 0
				c.Defaults = map[string]any{"temperature": 0.3}
			})
			c, err := p.Complete(t.Context(), CompletionRequest{Messages: providerTestMessages()[:2]})
			require.NoError(t, err)
			assert.Equal(t, "on default", c.Message.Content)
			assert.Equal(t, "default", c.ServiceTier, "no service_tier in the body: the tier requested")
			require.Len(t, s.Requests(), 2)
			first, second := s.Requests()[0].Decoded(t), s.Requests()[1].Decoded(t)
			assert.Equal(t, "flex", first["service_tier"])
			assert.Equal(t, "default", second["service_tier"])
			assert.Equal(t, 0.3, second["temperature"], "the fallback is the same request")
			assert.Equal(t, first["messages"], second["messages"])
			require.Len(t, c.Warnings, 1)
			assert.Contains(t, c.Warnings[0], "flex tier refused")
			assert.Contains(t, c.Warnings[0], "default tier")
		})
	}
}

func TestProviderFlexFallbackThenDefaultFails(t *testing.T) {
	s := providertest.New(t,
		providertest.ErrorStep(http.StatusTooManyRequests, "resource_unavailable", "Resource unavailable", nil),
		providertest.ErrorStep(http.StatusInternalServerError, "server_error", "boom", nil))
	p := scriptedProvider(t, s, func(c *Config) { c.ServiceTier = ServiceTierFlex; c.FlexFallback = true })
	_, err := p.Complete(t.Context(), CompletionRequest{Messages: providerTestMessages()[:2]})
	require.EqualError(t, err, "flex tier refused (provider returned 429 resource_unavailable: Resource unavailable), "+
		"then the default tier failed: provider returned 500 server_error: boom")
	var pe *Error
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, 500, pe.Status)
	assert.Len(t, s.Requests(), 2)
}

func TestProviderFlexRefusedWithoutFallback(t *testing.T) {
	s := providertest.New(t, providertest.ErrorStep(http.StatusTooManyRequests, "resource_unavailable", "Resource unavailable, please try again later.", nil))
	p := scriptedProvider(t, s, func(c *Config) { c.ServiceTier = ServiceTierFlex })
	_, err := p.Complete(t.Context(), CompletionRequest{Messages: providerTestMessages()[:2]})
	require.EqualError(t, err, "provider returned 429 resource_unavailable: Resource unavailable, please try again later.")
	assert.True(t, IsFlexRefusal(err))
	assert.Len(t, s.Requests(), 1)
}

func TestProviderFlexRateLimitIsNotAFallback(t *testing.T) {
	s := providertest.New(t, providertest.ErrorStep(http.StatusTooManyRequests, "rate_limit_exceeded", "slow down", nil))
	p := scriptedProvider(t, s, func(c *Config) { c.ServiceTier = ServiceTierFlex; c.FlexFallback = true })
	_, err := p.Complete(t.Context(), CompletionRequest{Messages: providerTestMessages()[:2]})
	require.EqualError(t, err, "provider returned 429 rate_limit_exceeded: slow down")
	assert.Len(t, s.Requests(), 1)
}

func TestProviderReportsServedTier(t *testing.T) {
	s := providertest.New(t, tierStep(t, "ok", "default"), tierStep(t, "ok", ""))
	p := scriptedProvider(t, s, func(c *Config) { c.ServiceTier = ServiceTierAuto })
	c, err := p.Complete(t.Context(), CompletionRequest{Messages: providerTestMessages()[:2]})
	require.NoError(t, err)
	assert.Equal(t, "default", c.ServiceTier, "the body's service_tier wins over the request")
	c, err = p.Complete(t.Context(), CompletionRequest{Messages: providerTestMessages()[:2]})
	require.NoError(t, err)
	assert.Equal(t, "auto", c.ServiceTier)
}

func TestIsFlexRefusal(t *testing.T) {
	cases := []struct {
		err  error
		want bool
	}{
		{&Error{Status: 429, Code: "resource_unavailable"}, true},
		{&Error{Status: 429, Code: "resources_unavailable"}, true},
		{&Error{Status: 429, Message: "Resource Unavailable"}, true},
		{&Error{Status: 429, Message: "Flex processing capacity reached"}, true},
		{&Error{Status: 429, Code: "flex_capacity_exceeded"}, true},
		{&Error{Status: 503}, true},
		{&Error{Status: 503, Code: "server_error", Message: "overloaded"}, true},
		{&Error{Status: 429, Code: "rate_limit_exceeded", Message: "slow down"}, false},
		{&Error{Status: 429, Code: "insufficient_quota"}, false},
		{&Error{Status: 500, Message: "resource unavailable"}, false},
		{&Error{Status: 400, Message: "flex is not supported for this model"}, false},
		{&TimeoutError{}, false},
		{nil, false},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, IsFlexRefusal(tc.err), "%v", tc.err)
	}
}
