// Package endpoint reads the advisor's settings that reach beyond the
// book: the provider a question is sent to, with the key variable named
// for it (provider:), and the MCP servers whose tools a persona may call
// (mcp_servers:). It lays the writer's own config.yaml under the book's
// quire.yaml, and lets the book's apply only once the writer trusts the
// book (codex/trust): a book is untrusted, and these settings run
// commands or send keys.
package endpoint
