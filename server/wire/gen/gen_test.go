package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The TypeScript the extension compiles is what the Go types say today.
func TestGeneratedTypeScriptIsCurrent(t *testing.T) {
	srcs, err := readSources("..")
	require.NoError(t, err)
	want, err := generate(srcs...)
	require.NoError(t, err)
	path := filepath.Join("..", "..", "..", "editors", "vscode", "src", "protocol.gen.ts")
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	require.True(t, string(got) == string(want),
		"%s is not generated from server/wire/wire.go, ask.go, dialogue.go, outline.go and snapshot.go as they are now: run `go generate ./server/wire` and commit the result", path)
}

// Every field of every protocol type reaches TypeScript with its JSON
// name, and the method and command names all come through.
func TestGenerateNamesAndFields(t *testing.T) {
	srcs, err := readSources("..")
	require.NoError(t, err)
	out, err := generate(srcs...)
	require.NoError(t, err)
	ts := string(out)
	for _, want := range []string{
		"export interface AskParams {",
		"  workDoneToken?: string | number;",
		"  range?: Range;",
		"  evidence: Evidence[] | null;",
		"  warnings?: string[];",
		"export interface ReindexResult extends BookStatus {",
		`  askProgress: "quire/askProgress",`,
		`  createEntry: "quire.createEntry",`,
		`  status?: "pending" | "applied" | "stale";`,
	} {
		require.True(t, strings.Contains(ts, want), "generated TypeScript lacks %q", want)
	}
}

func TestGenerateRefusesWhatItCannotType(t *testing.T) {
	for name, src := range map[string]string{
		"unknown package type": "package wire\ntype X struct {\n\tA foo.Bar `json:\"a\"`\n}\n",
		"no json tag":          "package wire\ntype X struct {\n\tA string\n}\n",
		"method not quire/":    "package wire\nconst MethodX = \"other/x\"\n",
		"not a struct":         "package wire\ntype X string\n",
	} {
		t.Run(name, func(t *testing.T) {
			_, err := generate([]byte(src))
			require.Error(t, err)
		})
	}
}
