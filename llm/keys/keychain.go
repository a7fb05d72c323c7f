package keys

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/zalando/go-keyring"
)

// Service is the name quire's entries carry in the keychain; each
// entry's account is the normalized base URL of its provider.
const Service = "quire"

// DefaultTimeout bounds each keychain call: a Secret Service that never
// answers must not hang quire.
const DefaultTimeout = 3 * time.Second

// ErrNotFound says no key is stored for the provider.
var ErrNotFound = errors.New("no key is stored for this provider")

// ErrNoKeychain says no keychain answered: none runs (a Linux without a
// Secret Service or D-Bus), it refused, or it did not answer in time.
var ErrNoKeychain = errors.New("no keychain answered")

// Backend is a keychain as github.com/zalando/go-keyring reaches it.
type Backend interface {
	Get(service, account string) (string, error)
	Set(service, account, secret string) error
	Delete(service, account string) error
}

// OSKeychain is the system's keychain: macOS Keychain, Windows
// Credential Manager, the Secret Service on Linux (go-keyring's mock
// when a test called keyring.MockInit).
type OSKeychain struct{}

func (OSKeychain) Get(service, account string) (string, error) {
	return keyring.Get(service, account)
}

func (OSKeychain) Set(service, account, secret string) error {
	return keyring.Set(service, account, secret)
}

func (OSKeychain) Delete(service, account string) error {
	return keyring.Delete(service, account)
}

// call runs f against the keychain within timeout. A keychain that does
// not answer is left behind (the goroutine ends when it answers) and
// counts as none; go-keyring's "not found" becomes ErrNotFound.
func call[T any](ctx context.Context, timeout time.Duration, f func() (T, error)) (T, error) {
	var zero T
	if err := ctx.Err(); err != nil {
		return zero, err
	}
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := f()
		done <- result{v, err}
	}()
	select {
	case r := <-done:
		switch {
		case errors.Is(r.err, keyring.ErrNotFound):
			return zero, ErrNotFound
		case r.err != nil:
			return zero, &keychainError{cause: r.err}
		}
		return r.v, nil
	case <-ctx.Done():
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return zero, &keychainError{cause: fmt.Errorf("no answer within %s", timeout), late: timeout}
		}
		return zero, ctx.Err()
	}
}

// keychainError is a keychain that could not be asked. What a writer
// reads says that, in words; the system's own reason ("exec:
// \"dbus-launch\": executable file not found in $PATH", a D-Bus
// address) names programs a writer never installed, so it is kept for
// the log (SystemReason), not the message.
type keychainError struct {
	cause error
	// late is the timeout when the keychain did not answer in time.
	late time.Duration
}

func (e *keychainError) Error() string {
	if e.late > 0 {
		return fmt.Sprintf("%s: your computer's keychain did not answer within %s", ErrNoKeychain, e.late)
	}
	return ErrNoKeychain.Error() + " on this computer"
}

func (e *keychainError) Unwrap() []error { return []error{ErrNoKeychain, e.cause} }

// SystemReason is the system's own words for why no keychain answered,
// for a log; "" when err is not a keychain that could not be asked.
func SystemReason(err error) string {
	var ke *keychainError
	if errors.As(err, &ke) {
		return ke.cause.Error()
	}
	return ""
}
