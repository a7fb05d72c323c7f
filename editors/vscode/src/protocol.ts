// The server's custom protocol as the extension uses it (see
// server/PROTOCOL.md). The types and method names are generated from the
// server's Go types (server/wire) into protocol.gen.ts; this file adds
// what is not a type of the protocol. Plain types, shared by pure modules
// and the vscode wiring.

export * from "./protocol.gen";

// JSON-RPC and LSP error codes the extension words for the writer.
export const ErrorCodes = {
  InvalidRequest: -32600,
  InvalidParams: -32602,
  RequestCancelled: -32800,
} as const;
