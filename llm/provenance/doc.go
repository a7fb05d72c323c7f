// Package provenance keeps the record of every call quire makes to a
// model: an http.RoundTripper that logs, per request, the model, status,
// token counts, finish reason and the names of the tools called, with a
// hash in place of the request body, into a bounded
// JSON-lines file in the user's cache folder (never in the book).
//
// It is book-blind: it reads only what goes over the wire, so it sees
// neither prose nor keys, and imports nothing else of quire.
package provenance
