// The end-to-end test's Go driver: a module of its own under
// editors/vscode (itself a module only to keep node_modules out of the
// repository's ./...), so it can import quire's packages through the
// replace below while `go test ./...` at the top stays fast: this slow
// test runs only from `make vscode-e2e`.
module github.com/quire-ink/quire/editors/vscode/e2e

go 1.26.0

require (
	github.com/quire-ink/quire v0.0.0
	github.com/stretchr/testify v1.12.1
)

require go.yaml.in/yaml/v3 v3.0.6 // indirect

replace github.com/quire-ink/quire => ../../..
