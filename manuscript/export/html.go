package export

import (
	"bufio"
	"html"
	"io"
	"strings"
)

// htmlStyle is the single HTML file's stylesheet, and the EPUB's.
const htmlStyle = `body { font-family: Georgia, "Times New Roman", serif; line-height: 1.5; margin: 0 auto; max-width: 36em; padding: 1em; }
h1, h2 { text-align: center; font-weight: normal; }
h2 { margin-top: 3em; page-break-before: always; }
p { margin: 0; text-indent: 1.5em; }
p.first, p.scene-break, p.byline, blockquote p, li p { text-indent: 0; }
p.scene-break { text-align: center; margin: 1em 0; }
p.byline { text-align: center; font-style: italic; }
blockquote { margin: 1em 2em; }
ul, ol { margin: 1em 0; }
`

// writeHTML writes the book as one HTML page.
func writeHTML(w io.Writer, b *Book, o Options) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("<!DOCTYPE html>\n<html lang=\"" + html.EscapeString(b.Language) + "\">\n<head>\n<meta charset=\"utf-8\">\n")
	bw.WriteString("<title>" + html.EscapeString(b.Title) + "</title>\n<style>\n" + htmlStyle + "</style>\n</head>\n<body>\n")
	bw.WriteString("<h1>" + html.EscapeString(b.Title) + "</h1>\n")
	if b.Author != "" {
		bw.WriteString("<p class=\"byline\">by " + html.EscapeString(b.Author) + "</p>\n")
	}
	for _, ch := range b.Chapters {
		bw.WriteString("<section>\n<h2>" + html.EscapeString(ch.Title) + "</h2>\n")
		writeHTMLBlocks(bw, ch.Blocks, o.Preset, "<br>")
		bw.WriteString("</section>\n")
	}
	bw.WriteString("</body>\n</html>\n")
	return bw.Flush()
}

// writeHTMLBlocks writes blocks as HTML (or XHTML, with br "<br/>"):
// quotes and list items of a row are gathered in one blockquote or list.
// A nested item is drawn in its parent's list: the model keeps its depth,
// the page does not, which no prose has needed yet.
func writeHTMLBlocks(bw *bufio.Writer, blocks []Block, p Preset, br string) {
	open := "" // "blockquote", "ul" or "ol"
	inItem := false
	closeOpen := func() {
		if inItem {
			bw.WriteString("</li>\n")
			inItem = false
		}
		if open != "" {
			bw.WriteString("</" + open + ">\n")
			open = ""
		}
	}
	for _, bl := range blocks {
		want := ""
		switch bl.Kind {
		case Quote:
			want = "blockquote"
		case Item:
			want = "ul"
			if strings.HasSuffix(bl.Marker, ".") {
				want = "ol"
			}
			if bl.Marker == "" && open != "" {
				want = open
			}
		}
		if want != open {
			closeOpen()
			if want != "" {
				bw.WriteString("<" + want + ">\n")
				open = want
			}
		}
		switch bl.Kind {
		case SceneBreak:
			bw.WriteString("<p class=\"scene-break\">" + html.EscapeString(p.sceneMark()) + "</p>\n")
		case Item:
			if bl.Marker != "" || !inItem {
				if inItem {
					bw.WriteString("</li>\n")
				}
				bw.WriteString("<li>")
				inItem = true
			}
			bw.WriteString("<p>" + htmlRuns(bl.Runs, br) + "</p>")
		default:
			class := ""
			if bl.First && p == Reader {
				class = " class=\"first\""
			}
			bw.WriteString("<p" + class + ">" + htmlRuns(bl.Runs, br) + "</p>\n")
		}
	}
	closeOpen()
}

// htmlRuns writes runs as escaped text in em and strong.
func htmlRuns(runs []Run, br string) string {
	var sb strings.Builder
	for _, r := range runs {
		t := html.EscapeString(r.Text)
		if r.Emph {
			t = "<em>" + t + "</em>"
		}
		if r.Strong {
			t = "<strong>" + t + "</strong>"
		}
		sb.WriteString(t)
		if r.Break {
			sb.WriteString(br)
		}
	}
	return sb.String()
}
