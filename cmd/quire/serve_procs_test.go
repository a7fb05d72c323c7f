package main

import (
	"os"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
)

// quire serve runs one processor over Go's count, unless GOMAXPROCS says
// how many.
func TestServeProcs(t *testing.T) {
	before := runtime.GOMAXPROCS(0)
	t.Cleanup(func() { runtime.GOMAXPROCS(before) })
	env, set := os.LookupEnv("GOMAXPROCS")
	tests := []struct {
		name string
		env  string
		want int
	}{
		{name: "not set", want: before + 1},
		{name: "set", env: "3", want: before},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runtime.GOMAXPROCS(before)
			if tt.env != "" {
				t.Setenv("GOMAXPROCS", tt.env)
			} else if set {
				t.Setenv("GOMAXPROCS", env)
				os.Unsetenv("GOMAXPROCS")
			}
			assert.Equal(t, tt.want, serveProcs())
			assert.Equal(t, tt.want, runtime.GOMAXPROCS(0))
		})
	}
}
