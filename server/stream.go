package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/quire-ink/quire/codex/clip"
	"go.lsp.dev/jsonrpc2"
)

// maxMessageBytes bounds one message; a larger Content-Length is a
// framing error, not an allocation.
const maxMessageBytes = 64 << 20

// stream reads and writes LSP's Content-Length framed JSON-RPC. Unlike the
// library's stream it survives bad input: a frame with a broken header or
// a body that is not a JSON-RPC message gets an error response and the
// next message is read, because the library's connection closes itself on
// the first read error, and one stray byte from a client must not end the
// session.
type stream struct {
	in     *bufio.Reader
	out    io.Writer
	closer io.Closer
	// wmu orders whole messages on out: replies from many goroutines and
	// the error responses Read writes itself.
	wmu sync.Mutex
}

func newStream(rwc io.ReadWriteCloser) *stream {
	return &stream{in: bufio.NewReaderSize(rwc, 64<<10), out: rwc, closer: rwc}
}

// frameError is a message that could not be framed or decoded; Read
// answers it and reads on.
type frameError struct {
	id   json.RawMessage
	code jsonrpc2.Code
	msg  string
}

func (e *frameError) Error() string { return e.msg }

// Read returns the next well-formed message, answering every malformed
// one on the way with a JSON-RPC error.
func (s *stream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		msg, n, err := s.readOne()
		var fe *frameError
		if errors.As(err, &fe) {
			if werr := s.writeError(fe); werr != nil {
				return nil, n, werr
			}
			continue
		}
		return msg, n, err
	}
}

func (s *stream) readOne() (jsonrpc2.Message, int64, error) {
	length, err := s.readHeader()
	if err != nil {
		return nil, 0, err
	}
	// The body grows as its bytes arrive: a header that claims 64 MiB
	// and sends nothing must not cost 64 MiB.
	var body bytes.Buffer
	body.Grow(min(length, 1<<20))
	if _, err := io.CopyN(&body, s.in, int64(length)); err != nil {
		return nil, 0, fmt.Errorf("read message body: %w", err)
	}
	data := body.Bytes()
	msg, err := jsonrpc2.DecodeMessage(data)
	if err != nil {
		return nil, int64(length), invalidMessage(data, err)
	}
	if _, ok := msg.(*jsonrpc2.Response); ok && !isResponse(data) {
		// The library reads any message without a method as a response,
		// and drops a response to nothing; a request whose method is
		// missing, null or empty would then never be answered.
		return nil, int64(length), invalidMessage(data, errors.New("a message needs a method, a result or an error"))
	}
	return msg, int64(length), nil
}

// isResponse reports whether a message has a result or an error. Like
// the library, it reads the first JSON value and ignores what follows.
func isResponse(data []byte) bool {
	var r struct {
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	return json.NewDecoder(bytes.NewReader(data)).Decode(&r) == nil && (r.Result != nil || r.Error != nil)
}

// readHeader reads header lines up to the blank line and returns the
// Content-Length. A line that holds a Content-Length header after junk
// (the rest of a body whose length was wrong) starts the header afresh,
// so the stream finds its footing again.
func (s *stream) readHeader() (int, error) {
	length := -1
	var problem string
	// lines counts header lines only: with the blank lines counted, a
	// second stray blank line ended an empty header and drew an error.
	for lines := 0; ; {
		line, err := s.in.ReadString('\n')
		if err != nil {
			if errors.Is(err, io.EOF) && line == "" && lines == 0 {
				return 0, io.EOF
			}
			return 0, fmt.Errorf("read message header: %w", err)
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			if lines == 0 {
				continue // stray blank lines between messages
			}
			break
		}
		lines++
		// asciiLower, not strings.ToLower: the index must be one into line,
		// and ToLower changes byte lengths (invalid UTF-8 becomes a 3-byte
		// U+FFFD, İ grows a byte), which sliced past the end and panicked
		// the read loop, ending the process.
		if i := strings.Index(asciiLower(line), "content-length:"); i > 0 {
			line, length, problem = line[i:], -1, ""
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			problem = fmt.Sprintf("malformed header line %q", clip.BytesMarked(line, 40))
			continue
		}
		switch strings.ToLower(strings.TrimSpace(name)) {
		case "content-length":
			n, err := strconv.Atoi(strings.TrimSpace(value))
			switch {
			case err != nil || n < 0:
				problem = fmt.Sprintf("bad Content-Length %q", clip.BytesMarked(value, 40))
			case n > maxMessageBytes:
				problem = fmt.Sprintf("Content-Length %d is over the %d-byte limit", n, maxMessageBytes)
			default:
				length = n
			}
		case "content-type":
			// Only the default (JSON-RPC in UTF-8) is spoken; clients send
			// nothing else.
		default:
			problem = fmt.Sprintf("unknown header %q", clip.BytesMarked(name, 40))
		}
	}
	if length < 0 {
		if problem == "" {
			problem = "missing Content-Length header"
		}
		return 0, &frameError{code: jsonrpc2.ParseError, msg: problem}
	}
	if problem != "" && !strings.HasPrefix(problem, "unknown header") {
		return 0, &frameError{code: jsonrpc2.ParseError, msg: problem}
	}
	return length, nil
}

// invalidMessage describes a body that is not a JSON-RPC message, with
// the request's id when one can be read, so the client can match it.
// Only a body that is not JSON at all is a ParseError: valid JSON that is
// not a request (a string, a batch, a numeric method) is InvalidRequest,
// and a field of the wrong type must not hide the id.
func invalidMessage(data []byte, err error) error {
	var v any
	if jerr := json.Unmarshal(data, &v); jerr != nil {
		return &frameError{code: jsonrpc2.ParseError, msg: "message is not valid JSON: " + jerr.Error()}
	}
	var probe struct {
		ID json.RawMessage `json:"id"`
	}
	_ = json.Unmarshal(data, &probe)
	id := probe.ID
	if !validID(id) {
		id = nil
	}
	return &frameError{id: id, code: jsonrpc2.InvalidRequest, msg: "not a JSON-RPC request or response: " + err.Error()}
}

func validID(id json.RawMessage) bool {
	if len(id) == 0 {
		return false
	}
	var v any
	if json.Unmarshal(id, &v) != nil {
		return false
	}
	switch v.(type) {
	case string, float64:
		return true
	}
	return false
}

// writeError answers a malformed message.
func (s *stream) writeError(fe *frameError) error {
	id := fe.id
	if id == nil {
		id = json.RawMessage("null")
	}
	body, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   *jsonrpc2.Error `json:"error"`
	}{"2.0", id, jsonrpc2.NewError(fe.code, fe.msg)})
	if err != nil {
		return fmt.Errorf("encode error response: %w", err)
	}
	_, err = s.writeFrame(body)
	return err
}

// Write sends one message.
func (s *stream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	body, err := json.Marshal(msg)
	if err != nil {
		return 0, fmt.Errorf("encode message: %w", err)
	}
	return s.writeFrame(body)
}

func (s *stream) writeFrame(body []byte) (int64, error) {
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "Content-Length: %d\r\n\r\n", len(body))
	buf.Write(body)
	s.wmu.Lock()
	defer s.wmu.Unlock()
	n, err := s.out.Write(buf.Bytes())
	if err != nil {
		return int64(n), fmt.Errorf("write message: %w", err)
	}
	return int64(n), nil
}

// Close closes the underlying connection.
func (s *stream) Close() error { return s.closer.Close() }

// asciiLower lowers ASCII letters only, so byte offsets into the result
// are offsets into s.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + ('a' - 'A')
		}
	}
	return string(b)
}
