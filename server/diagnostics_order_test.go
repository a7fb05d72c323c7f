package server

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"go.lsp.dev/protocol"
)

// A publication begun before another and done after it is not sent;
// one begun after is, whatever the order they finish in, and documents
// keep their own order.
func TestPublishOrder(t *testing.T) {
	const yaml, chapter = protocol.DocumentURI("file:///b/quire.yaml"), protocol.DocumentURI("file:///b/ch.md")
	var o publishOrder
	var sent []string
	send := func(uri protocol.DocumentURI, n uint64, what string) bool {
		return o.send(uri, n, func() { sent = append(sent, what) })
	}
	untrusted := o.begin(yaml)
	trusted := o.begin(yaml)
	other := o.begin(chapter)
	assert.True(t, send(yaml, trusted, "yaml cleared"))
	assert.False(t, send(yaml, untrusted, "yaml stale"), "begun before the one sent")
	assert.True(t, send(chapter, other, "chapter"), "another document's own order")
	later := o.begin(yaml)
	assert.True(t, send(yaml, later, "yaml later"))
	assert.Equal(t, []string{"yaml cleared", "chapter", "yaml later"}, sent)
}
