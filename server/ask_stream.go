package server

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/quire-ink/quire/server/wire"
)

// askStream is an ask's work-done progress as its answer streams in: the
// tool rows and the answer text go out as $/progress reports, and as
// quire/askProgress notifications for clients that want them as data.
type askStream struct {
	*progress
	mu sync.Mutex
	// The answer so far as it streams, in the round it streams in, and
	// when it last went out as a report.
	round    int
	text     strings.Builder
	reported time.Time
	// pending is streamed text not yet sent as a quire/askProgress delta.
	pending strings.Builder
}

// deltaReportEvery spaces the notifications of a streaming answer: at
// most ten a second of each kind.
const deltaReportEvery = 100 * time.Millisecond

func (p *askStream) row(ctx context.Context, r wire.ToolRow) {
	if p.key == "" {
		return
	}
	p.flush(ctx)
	status := "ok"
	if !r.OK {
		status = "failed"
		if r.Code != "" {
			status = r.Code
		}
	}
	p.message(ctx, fmt.Sprintf("%s %s %s %d ms", r.Tool, r.Summary, status, r.MS))
	if !p.isEnded() {
		if err := p.s.conn.Notify(ctx, wire.MethodAskProgress, wire.AskProgressRow{Token: p.token, Row: r}); err != nil {
			p.s.log.Debug("ask progress not sent", "err", err)
		}
	}
}

// delta passes on a piece of streamed reply text, coalesced: the pieces
// go out as quire/askProgress {token, delta, round} and the text so far as
// a $/progress report, each at most every deltaReportEvery (pieces that
// come sooner wait for the next one, or for flush). A model streaming
// megabytes a word at a time must not become hundreds of thousands of
// notifications.
func (p *askStream) delta(ctx context.Context, round int, text string) {
	if p.key == "" || text == "" || p.isEnded() {
		return
	}
	p.mu.Lock()
	var flushed string
	var flushedRound int
	if round != p.round {
		// A new round: what waits of the last one goes first.
		flushed, flushedRound = p.pending.String(), p.round
		p.pending.Reset()
		p.round = round
		p.text.Reset()
	}
	p.text.WriteString(text)
	p.pending.WriteString(text)
	var piece, report string
	if time.Since(p.reported) >= deltaReportEvery {
		p.reported = time.Now()
		piece, report = p.pending.String(), p.text.String()
		p.pending.Reset()
	}
	p.mu.Unlock()
	p.sendDelta(ctx, flushedRound, flushed)
	p.sendDelta(ctx, round, piece)
	if report != "" {
		p.message(ctx, report)
	}
}

// flush sends the streamed text still waiting, before a row, the answer
// or the end.
func (p *askStream) flush(ctx context.Context) {
	if p.key == "" {
		return
	}
	p.mu.Lock()
	piece, round := p.pending.String(), p.round
	p.pending.Reset()
	p.mu.Unlock()
	if !p.isEnded() {
		p.sendDelta(ctx, round, piece)
	}
}

func (p *askStream) sendDelta(ctx context.Context, round int, text string) {
	if text == "" {
		return
	}
	if err := p.s.conn.Notify(ctx, wire.MethodAskProgress, wire.AskProgressDelta{Token: p.token, Delta: text, Round: round}); err != nil {
		p.s.log.Debug("ask progress not sent", "err", err)
	}
}

// end sends what waits of the answer, then ends the progress.
func (p *askStream) end(ctx context.Context, msg string) {
	p.flush(ctx)
	p.progress.end(ctx, msg)
}
