// Package count writes the counts a writer reads: numbers grouped in
// thousands and nouns that agree with them. Every count the CLI, the
// server and the editors print goes through it, so "1 chapters" and
// "121804 words" beside "121,926" cannot come back in one corner.
package count

import (
	"strconv"
	"strings"
)

// Number writes n with commas between groups of three digits:
// 121804 → "121,804", -1200 → "-1,200".
func Number(n int) string {
	s := strconv.Itoa(n)
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	out := make([]byte, 0, len(s)+len(s)/3+1)
	out = append(out, sign...)
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}

// Of writes a count with a noun that agrees with it: "1 chapter",
// "61 chapters", "1,204 words". The plural adds "s" (or "es" after
// s, x, z, ch, sh); nouns that do not follow that rule use Irregular.
func Of(n int, noun string) string {
	return Number(n) + " " + Noun(n, noun)
}

// Noun is the noun alone, agreeing with n: Noun(1, "day") is "day",
// Noun(3, "day") is "days".
func Noun(n int, noun string) string {
	if n == 1 || n == -1 {
		return noun
	}
	return pluralOf(noun)
}

// Irregular writes a count with the form given for one or for many:
// Irregular(2, "entry", "entries") is "2 entries".
func Irregular(n int, one, many string) string {
	if n == 1 || n == -1 {
		return Number(n) + " " + one
	}
	return Number(n) + " " + many
}

// pluralOf is the regular English plural of a noun phrase's last word.
func pluralOf(noun string) string {
	for _, end := range []string{"s", "x", "z", "ch", "sh"} {
		if strings.HasSuffix(noun, end) {
			return noun + "es"
		}
	}
	if len(noun) >= 2 && strings.HasSuffix(noun, "y") && !strings.ContainsAny(noun[len(noun)-2:len(noun)-1], "aeiou") {
		return noun[:len(noun)-1] + "ies"
	}
	return noun + "s"
}
