package codex

import "unicode/utf8"

// withinOneEdit reports whether a and b differ by at most one insertion,
// deletion, substitution or transposition of adjacent characters. It runs
// in linear time, which keeps fuzzy lookup cheap across thousands of names.
func withinOneEdit(a, b string) bool {
	if !isPlainASCII(a) || !isPlainASCII(b) {
		return runesWithinOneEdit([]rune(a), []rune(b))
	}
	return bytesWithinOneEdit(a, b)
}

func bytesWithinOneEdit(a, b string) bool {
	la, lb := len(a), len(b)
	if la > lb {
		a, b, la, lb = b, a, lb, la
	}
	if lb-la > 1 {
		return false
	}
	i := 0
	for i < la && a[i] == b[i] {
		i++
	}
	if i == la {
		return true // equal, or b has one extra byte at the end
	}
	if la == lb {
		if a[i+1:] == b[i+1:] {
			return true // substitution
		}
		return i+1 < la && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:]
	}
	return a[i:] == b[i+1:] // insertion into a
}

func runesWithinOneEdit(a, b []rune) bool {
	la, lb := len(a), len(b)
	if la > lb {
		a, b, la, lb = b, a, lb, la
	}
	if lb-la > 1 {
		return false
	}
	i := 0
	for i < la && a[i] == b[i] {
		i++
	}
	if i == la {
		return true
	}
	eq := func(x, y []rune) bool {
		if len(x) != len(y) {
			return false
		}
		for k := range x {
			if x[k] != y[k] {
				return false
			}
		}
		return true
	}
	if la == lb {
		if eq(a[i+1:], b[i+1:]) {
			return true
		}
		return i+1 < la && a[i] == b[i+1] && a[i+1] == b[i] && eq(a[i+2:], b[i+2:])
	}
	return eq(a[i:], b[i+1:])
}

// editDistanceAtMost reports whether the optimal-string-alignment distance
// between a and b is at most k. Meant for short strings such as type names.
func editDistanceAtMost(a, b string, k int) bool {
	return EditDistance(a, b, k) <= k
}

// EditDistance is the optimal-string-alignment distance of a and b (a
// letter added, dropped, changed, or two neighbours swapped), counted up
// to limit+1: any distance beyond limit is limit+1. Meant for short
// strings: names, words, type names.
func EditDistance(a, b string, limit int) int {
	// Compare lengths before converting: a string of megabytes is then
	// turned away without copying it.
	if abs(len(a)-len(b)) > limit*utf8.UTFMax || abs(runeLen(a)-runeLen(b)) > limit {
		return limit + 1
	}
	ra, rb := []rune(a), []rune(b)
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
			rowMin = min(rowMin, cur[j])
		}
		// Every later row is at least this row's least: past limit,
		// the distance is too.
		if rowMin > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return min(prev[len(rb)], limit+1)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// runeLen counts characters, for length filters on fuzzy candidates.
func runeLen(s string) int { return utf8.RuneCountInString(s) }
