package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestShellQuote(t *testing.T) {
	for _, tc := range []struct{ goos, in, want string }{
		{"linux", "/home/ana/books/harbor", "/home/ana/books/harbor"},
		{"linux", "/home/ana/My Book é", "'/home/ana/My Book é'"},
		{"linux", "it's", `'it'\''s'`},
		{"linux", "", "''"},
		{"darwin", "Darcy", "Darcy"},
		{"windows", `C:\Users\Ana\My Book`, `"C:\Users\Ana\My Book"`},
		{"windows", `C:/books/harbor`, `C:/books/harbor`},
	} {
		assert.Equal(t, tc.want, shellQuoteFor(tc.goos, tc.in), "%s %q", tc.goos, tc.in)
	}
}
