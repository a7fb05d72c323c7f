// Package keys keeps the writer's API keys outside every book: in the
// system keychain, or, only when the writer asks for it because no
// keychain answers, in a file in the user config folder readable by the
// writer alone. Each key belongs to one provider, named by its
// normalized base URL, so a key is only ever found for the server it was
// stored for. Nothing here logs or prints a key.
package keys

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
)

// Store is where quire keeps keys.
type Store struct {
	// Keychain is the system keychain; nil is none.
	Keychain Backend
	// File is the key file's path (DefaultFile); "" is none.
	File string
	// Timeout bounds each keychain call; 0 is DefaultTimeout.
	Timeout time.Duration
}

// Default is the system keychain and the key file in the user config
// folder.
func Default() *Store {
	file, _ := DefaultFile()
	return &Store{Keychain: OSKeychain{}, File: file}
}

// Get finds the key stored for the provider at base (any spelling of
// its URL): the keychain's first, then the key file's. err is
// ErrNotFound when neither holds one, or wraps ErrNoKeychain when the
// keychain did not answer and the file holds none.
func (s *Store) Get(ctx context.Context, base string) (string, Source, error) {
	account, err := Normalize(base)
	if err != nil {
		return "", Source{}, err
	}
	kerr := ErrNotFound
	if s.Keychain != nil {
		key, err := call(ctx, s.Timeout, func() (string, error) { return s.Keychain.Get(Service, account) })
		if err == nil && key != "" {
			return key, Source{Kind: Keychain}, nil
		}
		if err != nil && !errors.Is(err, ErrNotFound) {
			kerr = err
		}
	}
	if s.File != "" {
		kf, err := readFile(s.File)
		if err != nil {
			return "", Source{}, err
		}
		if key := kf.Keys[account]; key != "" {
			return key, Source{Kind: File, Name: s.File}, nil
		}
	}
	return "", Source{}, kerr
}

// Set stores key for the provider at base: in the keychain, or in the
// key file when toFile (the writer's explicit choice; the keychain is
// not tried). Where no keychain answers, nothing is stored and the error
// says what to do.
func (s *Store) Set(ctx context.Context, base, key string, toFile bool) (Source, error) {
	account, err := Normalize(base)
	if err != nil {
		return Source{}, err
	}
	key, err = CleanKey(key)
	if err != nil {
		return Source{}, err
	}
	if toFile {
		if s.File == "" {
			return Source{}, errors.New("quire knows no user config folder to keep the key file in; nothing was stored")
		}
		kf, err := readFile(s.File)
		if err != nil {
			return Source{}, err
		}
		kf.Keys[account] = key
		if err := writeFile(s.File, kf); err != nil {
			return Source{}, fmt.Errorf("%w; nothing was stored", err)
		}
		return Source{Kind: File, Name: s.File}, nil
	}
	if s.Keychain == nil {
		return Source{}, s.noKeychain(ErrNoKeychain)
	}
	_, err = call(ctx, s.Timeout, func() (struct{}, error) { return struct{}{}, s.Keychain.Set(Service, account, key) })
	if err != nil {
		return Source{}, s.noKeychain(err)
	}
	return Source{Kind: Keychain}, nil
}

// noKeychain is the error a writer reads when a key could not be put in
// the keychain: what happened, and the two ways on.
func (s *Store) noKeychain(err error) error {
	msg := "%w; quire stored nothing. Start your system's keychain (on Linux a Secret Service such as gnome-keyring or KeePassXC, in a desktop session with D-Bus)"
	if s.File != "" {
		msg += ", or run quire key set --file to keep the key in " + s.File + ", a file only you can read"
	}
	return fmt.Errorf(msg, err)
}

// Remove deletes the keys stored for the provider at base, from the
// keychain and from the key file, and says where it found them. No key
// stored is ErrNotFound; a keychain that did not answer is an error
// wrapping ErrNoKeychain, after the file's key is removed.
func (s *Store) Remove(ctx context.Context, base string) ([]Source, error) {
	account, err := Normalize(base)
	if err != nil {
		return nil, err
	}
	var removed []Source
	var kerr error
	if s.Keychain != nil {
		_, err := call(ctx, s.Timeout, func() (struct{}, error) { return struct{}{}, s.Keychain.Delete(Service, account) })
		switch {
		case err == nil:
			removed = append(removed, Source{Kind: Keychain})
		case !errors.Is(err, ErrNotFound):
			kerr = err
		}
	}
	if s.File != "" {
		kf, err := readFile(s.File)
		if err != nil {
			return removed, err
		}
		if _, ok := kf.Keys[account]; ok {
			delete(kf.Keys, account)
			if err := writeFile(s.File, kf); err != nil {
				return removed, err
			}
			removed = append(removed, Source{Kind: File, Name: s.File})
		}
	}
	if kerr != nil {
		return removed, kerr
	}
	if len(removed) == 0 {
		return nil, ErrNotFound
	}
	return removed, nil
}

// maxKeyBytes bounds a key: real ones are a few hundred bytes.
const maxKeyBytes = 4096

// CleanKey is key as typed or piped, without the spaces and line end
// around it; an empty key, one with spaces or control characters inside,
// or an oversized one is refused (and not repeated in the error).
func CleanKey(key string) (string, error) {
	key = strings.TrimSpace(key)
	switch {
	case key == "":
		return "", errors.New("no key was given; nothing was stored")
	case len(key) > maxKeyBytes:
		return "", fmt.Errorf("the key is longer than %d bytes, which no provider's key is; nothing was stored", maxKeyBytes)
	case strings.IndexFunc(key, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0:
		return "", errors.New("the key has spaces or control characters inside it, so it is not one key; nothing was stored")
	}
	return key, nil
}

// KeychainAnswers asks the keychain for the key of base without
// expecting one, to learn before a writer types a key whether it could
// be stored there: nil when the keychain answered (with a key or
// without), else an error wrapping ErrNoKeychain that says what to do.
func (s *Store) KeychainAnswers(ctx context.Context, base string) error {
	account, err := Normalize(base)
	if err != nil {
		return err
	}
	if s.Keychain == nil {
		return s.noKeychain(ErrNoKeychain)
	}
	_, err = call(ctx, s.Timeout, func() (string, error) { return s.Keychain.Get(Service, account) })
	if err != nil && !errors.Is(err, ErrNotFound) {
		return s.noKeychain(err)
	}
	return nil
}
