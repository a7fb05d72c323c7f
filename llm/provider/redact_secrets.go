package provider

import (
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/quire-ink/quire/codex/clip"
)

// minKeyLen is the shortest configured key that is searched for by value:
// a shorter one would turn common words of an error message into
// "[redacted]" and is no secret worth the name anyway.
const minKeyLen = 4

// keyPieceLen is how much of a key a token must share with it to count as
// an echo of it: providers echo keys masked ("sk-proj-abcd****wxyz"), so
// a piece is as telling as the whole.
const keyPieceLen = 8

// lookalikeLen is the length from which a token of letters and digits
// mixed is taken for a credential even when it matches no configured key.
const lookalikeLen = 32

// maxErrorTextRunes bounds text a provider sends back in an error: it is
// shown to the writer and logged, and a provider may answer with megabytes.
const maxErrorTextRunes = 500

// RedactSecrets returns text with every credential taken out: each of keys
// (the values of the configured key variables) and every run of keyRunLen
// of their characters wherever it appears (the rule answers follow, see
// redactKeys), any token that carries a shorter piece of one of them (an
// echo, masked or cut), and any token shaped like a credential whatever
// its value: sk-… keys, the word after "Bearer", long runs of letters and
// digits mixed. Each becomes "[redacted]".
func RedactSecrets(text string, keys ...string) string {
	text = redactKeys(text, keys)
	var b strings.Builder
	prevBearer := false
	for i := 0; i < len(text); {
		j := i
		for j < len(text) && isTokenByte(text[j]) {
			j++
		}
		if j == i {
			// Not a token byte: copy one rune.
			_, n := utf8.DecodeRuneInString(text[i:])
			b.WriteString(text[i : i+n])
			if !isSpaceByte(text[i]) && text[i] != ':' {
				prevBearer = false
			}
			i += n
			continue
		}
		tok := text[i:j]
		if prevBearer || looksLikeSecret(tok, keys) {
			b.WriteString(redactedSecret)
		} else {
			b.WriteString(tok)
		}
		prevBearer = strings.EqualFold(tok, "bearer") || strings.EqualFold(tok, "basic")
		i = j
	}
	return b.String()
}

// isTokenByte: the characters keys are made of, and * of a masked key.
func isTokenByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '*'
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func looksLikeSecret(tok string, keys []string) bool {
	lower := strings.ToLower(tok)
	if (strings.HasPrefix(lower, "sk-") || strings.HasPrefix(lower, "sk_")) && len(tok) >= keyPieceLen {
		return true
	}
	if strings.Contains(tok, "****") && len(tok) >= keyPieceLen {
		return true
	}
	for _, k := range keys {
		if len(k) < keyPieceLen {
			continue
		}
		for s := 0; s+keyPieceLen <= len(tok); s++ {
			if strings.Contains(k, tok[s:s+keyPieceLen]) {
				return true
			}
		}
	}
	if len(tok) >= lookalikeLen {
		// Upper and lower case and digits mixed, as random keys are: not
		// a hex digest (the hashes quire logs) nor a lower-case file name.
		var lower, upper, digit bool
		for i := 0; i < len(tok); i++ {
			c := tok[i]
			lower = lower || c >= 'a' && c <= 'z'
			upper = upper || c >= 'A' && c <= 'Z'
			digit = digit || c >= '0' && c <= '9'
		}
		return lower && upper && digit
	}
	return false
}

// redactedError is an error whose text has had its credentials taken out;
// the error it stands for is still reachable with errors.As.
type redactedError struct {
	text string
	err  error
}

func (e *redactedError) Error() string { return e.text }
func (e *redactedError) Unwrap() error { return e.err }

// redactError takes keys and key lookalikes out of err's text. A
// Error is redacted in place (readableError built it); any other
// error is wrapped when its text had something to hide.
func redactError(err error, keys ...string) error {
	if err == nil {
		return nil
	}
	var pe *Error
	if errors.As(err, &pe) {
		pe.Code = RedactSecrets(pe.Code, keys...)
		pe.Message = clip.Runes(RedactSecrets(pe.Message, keys...), maxErrorTextRunes)
	}
	text := err.Error()
	if red := RedactSecrets(text, keys...); red != text {
		return &redactedError{text: red, err: err}
	}
	return err
}
