package proposal

import (
	"fmt"
	"sort"
	"strings"
)

// diffContext is how many unchanged lines a hunk shows around a change.
const diffContext = 3

// Diff is the unified diff of a proposal's edits against the
// texts they were made from (bases, by path; a created file has none).
// It is built from the edits themselves, not by comparing whole files, so
// it costs what the edits cost however long the entry is.
func Diff(edits []FileEdit, bases map[string]string) (string, error) {
	var order []string
	byPath := map[string][]FileEdit{}
	for _, e := range edits {
		if _, ok := byPath[e.Path]; !ok {
			order = append(order, e.Path)
		}
		byPath[e.Path] = append(byPath[e.Path], e)
	}
	var b strings.Builder
	for _, path := range order {
		es := byPath[path]
		if es[0].Create {
			var text strings.Builder
			for _, e := range es {
				text.WriteString(e.NewText)
			}
			lines := splitLines(text.String())
			fmt.Fprintf(&b, "--- /dev/null\n+++ b/%s\n@@ -0,0 +1,%d @@\n", path, len(lines))
			writeLines(&b, '+', lines)
			continue
		}
		base, ok := bases[path]
		if !ok {
			return "", fmt.Errorf("diff %s: no base text", path)
		}
		hunks, err := fileHunks(base, es)
		if err != nil {
			return "", fmt.Errorf("diff %s: %w", path, err)
		}
		fmt.Fprintf(&b, "--- a/%s\n+++ b/%s\n", path, path)
		b.WriteString(hunks)
	}
	return b.String(), nil
}

// lineChange replaces the base's lines [from, to) with lines.
type lineChange struct {
	from, to int
	lines    []string
}

func fileHunks(base string, edits []FileEdit) (string, error) {
	old := splitLines(base)
	// starts[i] is the byte offset of line i; one more for the end.
	starts := make([]int, 0, len(old)+1)
	at := 0
	for _, l := range old {
		starts = append(starts, at)
		at += len(l)
	}
	starts = append(starts, at)
	lineOf := func(off int) int { return sort.Search(len(old), func(i int) bool { return starts[i+1] > off }) }

	es := append([]FileEdit(nil), edits...)
	sort.SliceStable(es, func(i, j int) bool { return es[i].Range.Start < es[j].Range.Start })
	var changes []lineChange
	for i := 0; i < len(es); {
		// A group is the edits whose whole lines touch.
		from := lineOf(es[i].Range.Start)
		to := spanEnd(base, starts, lineOf, es[i].Range.Start, es[i].Range.End)
		j := i + 1
		for j < len(es) && lineOf(es[j].Range.Start) < to {
			to = max(to, spanEnd(base, starts, lineOf, es[j].Range.Start, es[j].Range.End))
			j++
		}
		group := make([]FileEdit, 0, j-i)
		for _, e := range es[i:j] {
			e.Range.Start -= starts[from]
			e.Range.End -= starts[from]
			group = append(group, e)
		}
		text, err := ApplyEdits(base[starts[from]:starts[to]], group)
		if err != nil {
			return "", err
		}
		c := lineChange{from: from, to: to, lines: splitLines(text)}
		// Keep only the lines that differ.
		for c.from < c.to && len(c.lines) > 0 && old[c.from] == c.lines[0] {
			c.from++
			c.lines = c.lines[1:]
		}
		for c.to > c.from && len(c.lines) > 0 && old[c.to-1] == c.lines[len(c.lines)-1] {
			c.to--
			c.lines = c.lines[:len(c.lines)-1]
		}
		if c.from < c.to || len(c.lines) > 0 {
			changes = append(changes, c)
		}
		i = j
	}

	var b strings.Builder
	shift := 0 // new line number minus old, before the hunk
	for i := 0; i < len(changes); {
		j := i + 1
		for j < len(changes) && changes[j].from-changes[j-1].to <= 2*diffContext {
			j++
		}
		first, last := changes[i], changes[j-1]
		from := max(0, first.from-diffContext)
		to := min(len(old), last.to+diffContext)
		var body strings.Builder
		newCount := 0
		writeLines(&body, ' ', old[from:first.from])
		newCount += first.from - from
		for k := i; k < j; k++ {
			c := changes[k]
			if k > i {
				writeLines(&body, ' ', old[changes[k-1].to:c.from])
				newCount += c.from - changes[k-1].to
			}
			writeLines(&body, '-', old[c.from:c.to])
			writeLines(&body, '+', c.lines)
			newCount += len(c.lines)
		}
		writeLines(&body, ' ', old[last.to:to])
		newCount += to - last.to
		oldCount := to - from
		fmt.Fprintf(&b, "@@ -%s +%s @@\n", hunkRange(from, oldCount), hunkRange(from+shift, newCount))
		b.WriteString(body.String())
		for k := i; k < j; k++ {
			shift += len(changes[k].lines) - (changes[k].to - changes[k].from)
		}
		i = j
	}
	return b.String(), nil
}

// spanEnd is the line after the last line the byte range [start, end)
// touches. An insertion touches the line it lands in; a range ending
// right after a newline does not touch the next line.
func spanEnd(base string, starts []int, lineOf func(int) int, start, end int) int {
	n := len(starts) - 1
	if end > start && end > 0 && base[end-1] == '\n' {
		return min(lineOf(end-1)+1, n)
	}
	return min(lineOf(end)+1, n)
}

// hunkRange is a hunk header's "start,count", 1-based; an empty range
// names the line before it, as diff does.
func hunkRange(from, count int) string {
	if count == 0 {
		return fmt.Sprintf("%d,0", from)
	}
	return fmt.Sprintf("%d,%d", from+1, count)
}

// splitLines cuts text after each newline; the last line may lack one.
func splitLines(text string) []string {
	if text == "" {
		return nil
	}
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

func writeLines(b *strings.Builder, mark byte, lines []string) {
	for _, l := range lines {
		b.WriteByte(mark)
		b.WriteString(l)
		if !strings.HasSuffix(l, "\n") {
			b.WriteString("\n\\ No newline at end of file\n")
		}
	}
}
