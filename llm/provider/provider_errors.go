package provider

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/quire-ink/quire/codex/clip"
)

// What a provider's failure becomes: a status with the provider's own code
// and message, a timeout, a flex tier refusing, a server asking to retry
// later. Kept apart from sending, so every API path reports alike.

// Error is an error status from the provider, made readable.
type Error struct {
	Status     int
	Code       string
	Message    string
	RetryAfter time.Duration
}

// codeInsufficientQuota is the code (or type) OpenAI and others give a
// refusal for an account without credit.
const codeInsufficientQuota = "insufficient_quota"

// OutOfCredit reports whether the provider refused because the account
// has no credit left: no retry or wait can help, only the writer can.
func (e *Error) OutOfCredit() bool { return e.Code == codeInsufficientQuota }

func (e *Error) Error() string {
	if e.OutOfCredit() {
		return "the provider says the account behind quire's API key is out of credit (insufficient_quota), so no answer came; add credit or check the account's plan and billing with the provider, then ask again"
	}
	if e.Status == http.StatusOK {
		// A Responses API response that failed: the request was taken,
		// then the model could not finish.
		said := e.Message
		if e.Code != "" {
			said = e.Code + ": " + said
		}
		return fmt.Sprintf("the provider took the request but could not finish the answer (it said %s); ask again, and if it keeps failing check the account and the provider's status", said)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "provider returned %d", e.Status)
	if e.Code != "" {
		b.WriteString(" " + e.Code)
	}
	msg := e.Message
	if msg == "" {
		msg = http.StatusText(e.Status)
	}
	if msg != "" {
		b.WriteString(": " + msg)
	}
	if e.RetryAfter > 0 {
		fmt.Fprintf(&b, " (retry after %s)", e.RetryAfter)
	}
	return b.String()
}

// IsFlexRefusal reports whether err is the provider declining to serve a
// flex-tier request for lack of capacity: any 503, or a 429 whose code or
// message says the resource is unavailable or mentions flex (OpenAI
// answers "429 Resource Unavailable", code resource_unavailable). A plain
// rate limit or quota 429 is not a refusal: the default tier would refuse
// it too.
func IsFlexRefusal(err error) bool {
	var pe *Error
	if !errors.As(err, &pe) {
		return false
	}
	switch pe.Status {
	case http.StatusServiceUnavailable:
		return true
	case http.StatusTooManyRequests:
		text := strings.ToLower(pe.Code + " " + pe.Message)
		text = strings.NewReplacer("_", " ", "-", " ").Replace(text)
		return strings.Contains(text, "resource unavailable") ||
			strings.Contains(text, "resources unavailable") ||
			strings.Contains(text, "flex")
	}
	return false
}

// readableError turns what the client returned into an error a writer can
// read: a status with the provider's code and message, or a timeout.
func (p *Provider) readableError(ctx context.Context, err error, resp *http.Response) error {
	var big *ReplyTooLargeError
	if errors.As(err, &big) {
		return big
	}
	var apiErr *openai.Error
	if errors.As(err, &apiErr) {
		pe := &Error{Status: apiErr.StatusCode, Code: apiErr.Code, Message: apiErr.Message}
		if pe.Code == "" {
			pe.Code = apiErr.Type
		}
		// The provider's own words may echo the key (a 401 often does).
		pe.Code = clip.Runes(RedactSecrets(pe.Code, p.cfg.APIKey), maxErrorTextRunes)
		pe.Message = clip.Runes(RedactSecrets(pe.Message, p.cfg.APIKey), maxErrorTextRunes)
		pe.RetryAfter = retryAfter(apiErr.Response)
		return pe
	}
	if resp != nil && resp.StatusCode >= 400 {
		return &Error{Status: resp.StatusCode, RetryAfter: retryAfter(resp)}
	}
	if ctx.Err() == nil && (errors.Is(err, context.DeadlineExceeded) || isTimeout(err)) {
		return &TimeoutError{After: p.cfg.Timeout, Err: err}
	}
	if ctx.Err() != nil {
		return fmt.Errorf("provider request cancelled: %w", ctx.Err())
	}
	return fmt.Errorf("provider request failed: %w", err)
}

// TimeoutError is a request that got no answer in time.
type TimeoutError struct {
	After time.Duration
	Err   error
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("provider request timed out after %s", formatSeconds(e.After))
}

func (e *TimeoutError) Unwrap() error { return e.Err }

// formatSeconds renders whole seconds as "120s" and anything else as
// time.Duration does.
func formatSeconds(d time.Duration) string {
	if d%time.Second == 0 {
		return strconv.FormatInt(int64(d/time.Second), 10) + "s"
	}
	return d.String()
}

func isTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.As(err, &t) && t.Timeout()
}

// retryAfter reads Retry-After-Ms or Retry-After (seconds) from resp.
func retryAfter(resp *http.Response) time.Duration {
	if resp == nil {
		return 0
	}
	if v := resp.Header.Get("Retry-After-Ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	v := resp.Header.Get("Retry-After")
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s > 0 {
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := time.Until(t); d > 0 {
			return d.Round(time.Second)
		}
	}
	return 0
}
