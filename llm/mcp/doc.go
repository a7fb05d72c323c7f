// Package mcp speaks the Model Context Protocol both ways. As a client
// (Clients) it connects to the MCP servers a book or the writer names
// (stdio or streamable HTTP), lists their tools, checks each tool's
// schema and offers them to the tool loop under mcp__<server>__<tool>,
// bounding every call in time and size. As a server (NewServer) it offers
// a tool registry to an MCP client through the same dispatcher the loop
// uses, and it drains requests still in flight when the client closes.
//
// It is book-blind: tools and server configurations arrive as data. What
// quire.yaml says about mcp_servers is read in llm, and the diff of a
// proposal is looked up through a function the caller passes, so the
// package imports only the provider and the tool loop.
package mcp
