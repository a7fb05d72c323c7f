// Not Go code: this file makes editors/vscode a module of its own, so that
// `go test ./...` and `go vet ./...` in the repository skip node_modules,
// where some npm packages ship Go sources.
module github.com/quire-ink/quire/editors/vscode

go 1.26
