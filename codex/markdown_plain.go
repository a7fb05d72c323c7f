package codex

import "bytes"

// plainOutline outlines a body that holds nothing but paragraphs of
// plain lines and ATX headings ("## History"), as most codex entries
// do, without goldmark: the block parse and its inline pass were most
// of a cold start's reading of the codex. It declines (ok false) a body
// where any other Markdown could start: a line opening with a space, a
// tab, a marker of a list, quote, fence, table or thematic break, a
// setext underline or a link definition; a backtick or an angle bracket
// anywhere (code spans, autolinks, HTML); a carriage return, a NUL; a
// heading with a backslash or a closing run of #. What it accepts,
// goldmark reads as headings and paragraphs only, with no code, and the
// outline is built from the same lines by the same rules
// (FuzzPlainOutline holds the two to the same result).
func plainOutline(src []byte, body Range, firstParagraph bool) (outline, bool) {
	part := src[body.Start:body.End]
	if bytes.ContainsAny(part, "`<\r\x00") {
		return outline{}, false
	}
	b := outlineBuilder{body: body}
	// para holds the lines of the paragraph being read, only while the
	// first paragraph's text is still wanted.
	var para [][]byte
	text := func(line []byte) {
		if firstParagraph && b.o.FirstParagraph == "" {
			para = append(para, line)
		}
	}
	endParagraph := func() {
		if len(para) == 0 {
			return
		}
		// goldmark trims the paragraph's last line of its spaces.
		para[len(para)-1] = bytes.TrimRight(para[len(para)-1], " \t")
		b.o.FirstParagraph = textOfLines(para, nil)
		para = para[:0]
	}
	for start := 0; start < len(part); {
		end, next := lineAt(part, start)
		line := part[start:end]
		switch {
		case len(bytes.Trim(line, " \t")) == 0:
			endParagraph()
		case line[0] == '#':
			level, content, ok := atxHeading(line)
			if !ok {
				if level > 0 {
					return outline{}, false
				}
				// "#hashtag": text.
				text(line)
				break
			}
			endParagraph()
			if len(content) > 0 {
				b.heading(level, Range{Start: start, End: end}, textOfLines([][]byte{content}, nil))
			}
		case plainLineStart(line):
			text(line)
		default:
			return outline{}, false
		}
		if next == start {
			break
		}
		start = next
	}
	endParagraph()
	return b.finish(), true
}

// atxHeading reads a line that opens with #: its level and content when
// it is an ATX heading plainOutline may read (ok), else the level it
// would have (0: not a heading at all, "#hashtag" or "#######").
func atxHeading(line []byte) (level int, content []byte, ok bool) {
	for level < len(line) && line[level] == '#' {
		level++
	}
	if level > 6 || level < len(line) && line[level] != ' ' && line[level] != '\t' {
		return 0, nil, false
	}
	content = bytes.Trim(line[level:], " \t")
	// A closing run of # and an escaped # are goldmark's to read.
	if bytes.IndexByte(content, '\\') >= 0 || bytes.HasSuffix(content, []byte("#")) {
		return level, nil, false
	}
	return level, content, true
}

// plainLineStart says a line opens as paragraph text and nothing else:
// a letter, a quotation mark, a parenthesis or any non-ASCII character,
// or digits that are no ordered list's marker ("1999 was", not "1." or
// "2)").
func plainLineStart(line []byte) bool {
	c := line[0]
	switch {
	case c >= 0x80, c|0x20 >= 'a' && c|0x20 <= 'z', c == '"', c == '\'', c == '(':
		return true
	case c >= '0' && c <= '9':
		i := 0
		for i < len(line) && line[i] >= '0' && line[i] <= '9' {
			i++
		}
		return i == len(line) || line[i] != '.' && line[i] != ')'
	}
	return false
}
