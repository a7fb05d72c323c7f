package provider

import (
	"strings"
	"unicode/utf8"
)

// The key in use never comes back out of quire through a provider's
// answer: a provider (or a model told to) may echo the Authorization
// header in a reply that succeeds, and that text goes to the terminal,
// the editor and the answer document. Nor does a piece of it: an echo
// may drop the key's "sk-" prefix, or give its head or tail alone. Error
// texts are redacted apart (redactError), with the looser rules fit for
// a log line; an answer is prose, so only the keys and their pieces are
// taken out of it.
//
// The rule: every run of keyRunLen or more characters that stand, in
// that order, in one of the keys is replaced by "[redacted]" (a run as
// long as it goes, so the key whole, cut at either end or without its
// prefix, or twice over, is one "[redacted]" each time). keyRunLen
// characters of a key are some 60 bits of chance even in hexadecimal,
// so no prose matches them by accident; a shorter piece is no secret. A
// key shorter than keyRunLen (but at least minKeyLen) is taken out
// whole only. The text is read once, each position looked up in the set
// of the keys' keyRunLen-byte pieces: linear in the text.

// keyRunLen is the shortest run of a key's characters taken out of text.
const keyRunLen = 12

// keyMatcher finds the runs of the keys in a text.
type keyMatcher struct {
	// grams are the keyRunLen-byte pieces of the keys at least that long.
	grams map[string]struct{}
	// short are the keys of minKeyLen to keyRunLen-1 bytes, found whole.
	short []string
	// hold is how many bytes at the end of a text could still begin a
	// run that the text's continuation completes.
	hold int
}

func newKeyMatcher(keys []string) *keyMatcher {
	m := &keyMatcher{}
	for _, k := range keys {
		switch {
		case len(k) >= keyRunLen:
			if m.grams == nil {
				m.grams = map[string]struct{}{}
			}
			for i := 0; i+keyRunLen <= len(k); i++ {
				m.grams[k[i:i+keyRunLen]] = struct{}{}
			}
			m.hold = max(m.hold, keyRunLen-1)
		case len(k) >= minKeyLen:
			m.short = append(m.short, k)
			m.hold = max(m.hold, len(k)-1)
		}
	}
	return m
}

// empty says there is nothing to look for.
func (m *keyMatcher) empty() bool { return len(m.grams) == 0 && len(m.short) == 0 }

// spans are the byte ranges of s to take out, in order, each as long as
// its run goes: ranges that overlap or touch are one. Each ends on a
// whole character.
func (m *keyMatcher) spans(s string) [][2]int {
	if m.empty() || len(s) < minKeyLen {
		return nil
	}
	var cover []bool // allocated at the first match
	mark := func(from, to int) {
		if cover == nil {
			cover = make([]bool, len(s))
		}
		for i := from; i < to; i++ {
			cover[i] = true
		}
	}
	if len(m.grams) > 0 {
		for i := 0; i+keyRunLen <= len(s); i++ {
			if _, ok := m.grams[s[i:i+keyRunLen]]; ok {
				mark(i, i+keyRunLen)
			}
		}
	}
	for _, k := range m.short {
		for from := 0; ; {
			j := strings.Index(s[from:], k)
			if j < 0 {
				break
			}
			mark(from+j, from+j+len(k))
			from += j + 1
		}
	}
	if cover == nil {
		return nil
	}
	var out [][2]int
	for i := 0; i < len(s); {
		if !cover[i] {
			i++
			continue
		}
		j := i
		for j < len(s) && cover[j] {
			j++
		}
		// A key with characters beyond ASCII may match from the middle
		// of one: the span takes the whole character.
		for i > 0 && !utf8.RuneStart(s[i]) {
			i--
		}
		for j < len(s) && !utf8.RuneStart(s[j]) {
			j++
		}
		if n := len(out); n > 0 && out[n-1][1] >= i {
			out[n-1][1] = j
		} else {
			out = append(out, [2]int{i, j})
		}
		i = j
	}
	return out
}

// redact replaces each span of s with "[redacted]".
func (m *keyMatcher) redact(s string) string {
	spans := m.spans(s)
	if spans == nil {
		return s
	}
	var b strings.Builder
	last := 0
	for _, sp := range spans {
		b.WriteString(s[last:sp[0]])
		b.WriteString(redactedSecret)
		last = sp[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

// redactKeys takes every run of the keys out of s (the rule above).
func redactKeys(s string, keys []string) string {
	return newKeyMatcher(keys).redact(s)
}

// RedactKeys takes the keys, and every run of keyRunLen or more of their
// characters, out of text a server sent back after it was given them
// (the rule above): nothing else, so a model's name, say, stays as it is.
func RedactKeys(text string, keys ...string) string { return redactKeys(text, keys) }

// redactMessage takes the keys out of every text of a reply.
func redactMessage(m *Message, km *keyMatcher) {
	m.Content = km.redact(m.Content)
	m.Reasoning = km.redact(m.Reasoning)
	for i := range m.ToolCalls {
		c := &m.ToolCalls[i]
		c.Name = km.redact(c.Name)
		// "[redacted]" holds no quote or backslash: JSON stays JSON.
		c.Arguments = km.redact(c.Arguments)
	}
}

// maxStreamHold bounds what a stream holds back while a run goes on: a
// run longer than this (a key repeated over and over) is passed on in
// parts, each taken out.
const maxStreamHold = 64 << 10

// streamRedactor passes streamed text on with the keys taken out, even
// when a run arrives split across pieces: it holds back the end of the
// text that could still be, or grow, a run (the last keyRunLen-1 bytes,
// and a run that reaches them) until the next piece (or flush) settles
// it. What it passes on is what redacting the whole text gives.
type streamRedactor struct {
	km      *keyMatcher
	pending string
	emit    func(string)
}

func newStreamRedactor(km *keyMatcher, emit func(string)) *streamRedactor {
	return &streamRedactor{km: km, emit: emit}
}

func (r *streamRedactor) write(s string) {
	if s == "" {
		return
	}
	r.pending += s
	cut := len(r.pending) - r.km.hold
	if spans := r.km.spans(r.pending); len(spans) > 0 {
		if last := spans[len(spans)-1]; last[1] >= cut && len(r.pending)-last[0] <= maxStreamHold {
			// The last run reaches the held-back end: it may go on.
			cut = min(cut, last[0])
		}
	}
	// A piece ends on a whole character: an editor gets each piece as a
	// JSON string, where half a character would become U+FFFD.
	for cut > 0 && cut < len(r.pending) && !utf8.RuneStart(r.pending[cut]) {
		cut--
	}
	if cut <= 0 {
		return
	}
	out := r.km.redact(r.pending[:cut])
	r.pending = r.pending[cut:]
	r.emit(out)
}

// flush passes on what was held back: the stream has ended.
func (r *streamRedactor) flush() {
	if r.pending != "" {
		out := r.km.redact(r.pending)
		r.pending = ""
		r.emit(out)
	}
}
