package dialoguebench

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// PDNC's CSV files write their list-valued columns as Python literals,
// the repr of a list, set or tuple: "[[6317, 6418]]", "['Emma', \"Mr.
// Weston's\"]", "{'Emma', 'Miss Woodhouse'}". parsePy reads the part of
// Python's literal syntax those use: lists, tuples and sets (all become
// []any), quoted strings with their escapes, integers, floats, None,
// True, False and "set()". Anything else is an error, never a guess.
func parsePy(s string) (any, error) {
	p := pyParser{s: s}
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i != len(p.s) {
		return nil, p.errorf("unexpected %q after the value", p.rest())
	}
	return v, nil
}

// maxPyDepth bounds the nesting parsePy follows (PDNC nests three deep).
const maxPyDepth = 32

type pyParser struct {
	s string
	i int
}

func (p *pyParser) errorf(format string, args ...any) error {
	return fmt.Errorf("python literal at byte %d: %s", p.i, fmt.Sprintf(format, args...))
}

func (p *pyParser) rest() string {
	r := p.s[p.i:]
	if len(r) > 20 {
		r = r[:20] + "…"
	}
	return r
}

func (p *pyParser) space() {
	for p.i < len(p.s) && strings.IndexByte(" \t\r\n", p.s[p.i]) >= 0 {
		p.i++
	}
}

func (p *pyParser) value(depth int) (any, error) {
	if depth > maxPyDepth {
		return nil, p.errorf("nested more than %d deep", maxPyDepth)
	}
	p.space()
	if p.i >= len(p.s) {
		return nil, p.errorf("a value is missing")
	}
	switch c := p.s[p.i]; {
	case c == '[':
		return p.sequence(']', depth)
	case c == '(':
		return p.sequence(')', depth)
	case c == '{':
		return p.sequence('}', depth)
	case c == '\'' || c == '"':
		return p.str()
	case c == '-' || c == '+' || c == '.' || c >= '0' && c <= '9':
		return p.number()
	}
	for _, w := range []struct {
		word string
		v    any
	}{{"None", nil}, {"True", true}, {"False", false}, {"set()", []any{}}, {"nan", nil}} {
		if strings.HasPrefix(p.s[p.i:], w.word) {
			p.i += len(w.word)
			return w.v, nil
		}
	}
	return nil, p.errorf("unexpected %q", p.rest())
}

// sequence reads a list, tuple or set up to its closing bracket.
func (p *pyParser) sequence(closing byte, depth int) (any, error) {
	p.i++ // the opening bracket
	out := []any{}
	for {
		p.space()
		if p.i < len(p.s) && p.s[p.i] == closing {
			p.i++
			return out, nil
		}
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
		p.space()
		if p.i >= len(p.s) {
			return nil, p.errorf("%q is never closed", closing)
		}
		switch p.s[p.i] {
		case ',':
			p.i++
		case closing:
		default:
			return nil, p.errorf("expected ',' or %q, found %q", closing, p.rest())
		}
	}
}

// str reads a quoted string and its escapes.
func (p *pyParser) str() (string, error) {
	q := p.s[p.i]
	p.i++
	var b strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == q:
			p.i++
			return b.String(), nil
		case c == '\n':
			return "", p.errorf("a line break inside a quoted string")
		case c != '\\':
			b.WriteByte(c)
			p.i++
			continue
		}
		p.i++ // the backslash
		if p.i >= len(p.s) {
			break
		}
		e := p.s[p.i]
		p.i++
		switch e {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case '\\', '\'', '"':
			b.WriteByte(e)
		case '\n': // a continued line
		case 'x', 'u', 'U':
			n := 2
			switch e {
			case 'u':
				n = 4
			case 'U':
				n = 8
			}
			if p.i+n > len(p.s) {
				return "", p.errorf("a short \\%c escape", e)
			}
			r, err := strconv.ParseUint(p.s[p.i:p.i+n], 16, 32)
			if err != nil || !utf8.ValidRune(rune(r)) {
				return "", p.errorf("a bad \\%c escape %q", e, p.s[p.i:p.i+n])
			}
			b.WriteRune(rune(r))
			p.i += n
		default:
			// Python keeps an unknown escape as it stands.
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	return "", p.errorf("a string is never closed")
}

func (p *pyParser) number() (any, error) {
	start := p.i
	for p.i < len(p.s) && strings.IndexByte("+-.0123456789eE", p.s[p.i]) >= 0 {
		p.i++
	}
	lit := p.s[start:p.i]
	if n, err := strconv.Atoi(lit); err == nil {
		return n, nil
	}
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil {
		p.i = start
		return nil, p.errorf("a bad number %q", lit)
	}
	return f, nil
}

// pyList reads a literal list or set whose items each convert to a T;
// what is not one names the item it stopped at.
func pyList[T any](s, what string, conv func(any) (T, bool)) ([]T, error) {
	v, err := parsePy(s)
	if err != nil {
		return nil, err
	}
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("python literal %.40q is not a list", s)
	}
	out := make([]T, 0, len(list))
	for _, it := range list {
		x, ok := conv(it)
		if !ok {
			return nil, fmt.Errorf("python literal %.40q holds %v, not %s", s, it, what)
		}
		out = append(out, x)
	}
	return out, nil
}

// pyStrings reads a literal list or set of strings.
func pyStrings(s string) ([]string, error) {
	return pyList(s, "a string", func(it any) (string, bool) {
		str, ok := it.(string)
		return str, ok
	})
}

// pySpans reads a literal list of [start, end] pairs.
func pySpans(s string) ([][2]int, error) {
	return pyList(s, "a [start, end] pair", func(it any) ([2]int, bool) {
		pair, ok := it.([]any)
		if !ok || len(pair) != 2 {
			return [2]int{}, false
		}
		a, okA := pair[0].(int)
		b, okB := pair[1].(int)
		return [2]int{a, b}, okA && okB && a >= 0 && b >= a
	})
}
