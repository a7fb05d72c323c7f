package provider

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"

	"github.com/openai/openai-go/v3/option"
)

// How much of a provider's reply quire reads. The SDK reads a whole body
// before it decodes it, so a provider answering 200 MB (a 100 MB tool
// call, a hostile server a book names) would be held in memory whole; the
// body is cut while it is read instead.

// MaxReplyBytes bounds the body of a reply that is not streamed, error
// bodies included: an answer is at most 256 KB of text (the loop's
// answer bound) and a tool call's arguments 16 KB, so 8 MB leaves room
// for any honest reply and its JSON escapes.
const MaxReplyBytes = 8 << 20

// MaxStreamBytes bounds a streamed body. Each streamed piece of text
// comes wrapped in a chunk of JSON some hundred bytes long, so a stream
// carries many times the text it holds; the text itself is bounded by
// CompletionRequest.MaxAnswerBytes and what is kept beside it (reasoning,
// tool call arguments) by MaxReplyBytes.
const MaxStreamBytes = 64 << 20

// ReplyTooLargeError is a reply that passed its bound and was not read
// further.
type ReplyTooLargeError struct{ Limit int64 }

func (e *ReplyTooLargeError) Error() string {
	return fmt.Sprintf("the provider's reply passed %d MB, more than any answer needs, so quire stopped reading it and has no answer; ask again, and if it happens again check provider.base_url: the server there is not answering as a model does",
		e.Limit>>20)
}

// boundReplies is the client middleware that bounds every reply body as
// it is read, and keeps the client from retrying a refusal that waiting
// cannot cure.
func boundReplies(r *http.Request, next option.MiddlewareNext) (*http.Response, error) {
	resp, err := next(r)
	if err != nil || resp == nil || resp.Body == nil {
		return resp, err
	}
	if isEventStream(resp) {
		resp.Body = &boundedBody{rc: resp.Body, left: MaxStreamBytes, limit: MaxStreamBytes}
	} else {
		resp.Body = readWhole(resp.Body, MaxReplyBytes)
	}
	if resp.StatusCode == http.StatusTooManyRequests {
		noRetryOutOfCredit(resp)
	}
	return resp, nil
}

// readWhole reads a body that is not streamed to its end, up to limit,
// and gives back what it read as a fresh body, or a body that fails with
// ReplyTooLargeError and holds nothing once the limit is passed. The SDK
// reads such a body whole anyway, with io.ReadAll, whose slice grows by
// a quarter each time: an 8 MB body it cuts allocates some 40 MB on the
// way, five times what it kept. Here the body is read in pieces that
// double up to a size and are kept as they are, so what is allocated is
// what was sent, and a refused body costs the SDK nothing.
func readWhole(rc io.ReadCloser, limit int64) io.ReadCloser {
	b := &boundedBody{rc: rc, left: limit, limit: limit}
	var pieces []io.Reader
	size := 4 << 10
	for {
		piece := make([]byte, size)
		n, err := io.ReadFull(b, piece)
		if n > 0 {
			pieces = append(pieces, bytes.NewReader(piece[:n]))
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			_ = rc.Close()
			return errReader{err}
		}
		size = min(size*2, 1<<20)
	}
	_ = rc.Close()
	return io.NopCloser(io.MultiReader(pieces...))
}

func isEventStream(resp *http.Response) bool {
	mt, _, err := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	return err == nil && mt == "text/event-stream"
}

// outOfCreditHead is how much of a 429's body is read to find its code.
const outOfCreditHead = 64 << 10

// noRetryOutOfCredit tells the client not to retry a 429 that says the
// account has no credit (code or type insufficient_quota): a retry only
// waits to be refused again.
func noRetryOutOfCredit(resp *http.Response) {
	head, err := io.ReadAll(io.LimitReader(resp.Body, outOfCreditHead))
	rest := resp.Body
	resp.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(head), errOr(err, rest)), rest}
	if bytes.Contains(head, []byte(codeInsufficientQuota)) {
		resp.Header.Set("X-Should-Retry", "false")
	}
}

// errOr reads as r, or fails with err when err is set.
func errOr(err error, r io.Reader) io.Reader {
	if err != nil {
		return errReader{err}
	}
	return r
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

func (e errReader) Close() error { return nil }

// boundedBody reads a body up to its limit and fails past it, closing the
// connection so the provider stops sending.
type boundedBody struct {
	rc          io.ReadCloser
	left, limit int64
	err         error
}

func (b *boundedBody) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	if b.left <= 0 {
		// One byte more tells a body that ends at the limit from one
		// that goes on.
		var one [1]byte
		n, err := b.rc.Read(one[:])
		if n == 0 && errors.Is(err, io.EOF) {
			return 0, io.EOF
		}
		if n == 0 && err != nil {
			return 0, err
		}
		b.err = &ReplyTooLargeError{Limit: b.limit}
		_ = b.rc.Close()
		return 0, b.err
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	return n, err
}

func (b *boundedBody) Close() error { return b.rc.Close() }
