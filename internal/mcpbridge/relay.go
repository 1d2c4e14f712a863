package mcpbridge

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/agyconf/agyconf/internal/agyhook"
)

// conn is one side of the relay as the MCP SDK's transports give it:
// whole JSON-RPC messages, read and written.
type conn interface {
	Read(context.Context) (jsonrpc.Message, error)
	Write(context.Context, jsonrpc.Message) error
	Close() error
}

// upstream is the server's side. Send is Write, with sent called once the
// message is on its way to the server (a call's HTTP request written; a
// notification or a response taken by the server), and at the latest when
// Send returns: the relay hands agy's next message over only then, so the
// server receives agy's messages in agy's order while calls still run
// side by side.
type upstream interface {
	Send(ctx context.Context, msg jsonrpc.Message, sent func()) error
	Read(context.Context) (jsonrpc.Message, error)
	Close() error
}

// relay passes MCP messages between agy (stdin and stdout, as agy started
// the bridge) and the server, both ways and in order, without reading
// them beyond what routing needs: requests, notifications and responses
// of either side pass whole, so anything the protocol adds passes too.
//
// The relay itself keeps only the calls agy is waiting on: each has a
// context that carries its HTTP exchange; it ends when the server's
// response has been passed on, when agy cancels the call
// (notifications/cancelled, after that has been sent on), or when agy
// closes stdin. A call the server cannot be asked, or that the connection
// loses, is answered with a JSON-RPC error, so agy never waits on a
// request nobody will answer.
type relay struct {
	agy    conn
	server upstream
	// logf writes one line on stderr, agy's log of the server.
	logf func(format string, a ...any)
	// closeWait bounds how long closing the server's connection may take
	// once agy has closed stdin (the streamable transport's DELETE).
	closeWait time.Duration

	ctx    context.Context
	cancel context.CancelFunc

	mu      sync.Mutex
	pending map[jsonrpc.ID]context.CancelFunc
	broken  error // the connection to the server is lost for good
	sends   sync.WaitGroup
}

func newRelay(agy conn, server upstream, logf func(string, ...any)) *relay {
	ctx, cancel := context.WithCancel(context.Background())
	return &relay{agy: agy, server: server, logf: logf, closeWait: 2 * time.Second,
		ctx: ctx, cancel: cancel, pending: map[jsonrpc.ID]context.CancelFunc{}}
}

// lost reports whether the connection to the server was lost.
func (r *relay) lost() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.broken != nil
}

// run relays until agy closes stdin (or it cannot be read any more), then
// ends every call, closes the server's connection and returns. Its error
// is what ended agy's side, nil for a plain end of input.
//
// stdin is read on a goroutine of its own into an inbox, and agy's
// messages are passed on from there one after the other: a message the
// server does not take (a server that holds the connection and never
// answers) holds up the messages after it, never the end of stdin. Once
// stdin has ended, what is still in the inbox has closeWait to go out
// before the relay ends every exchange.
func (r *relay) run() error {
	down := make(chan struct{})
	go func() {
		defer close(down)
		r.down()
	}()
	in := &inbox{wake: make(chan struct{}, 1)}
	read := make(chan struct{})
	go func() {
		defer close(read)
		for {
			msg, err := r.agy.Read(r.ctx)
			if err != nil {
				if !errors.Is(err, io.EOF) && r.ctx.Err() == nil {
					in.end(err)
				} else {
					in.end(nil)
				}
				break
			}
			in.push(msg)
		}
		// What is still to go out has closeWait, then every exchange ends.
		select {
		case <-time.After(r.closeWait):
			r.cancel()
		case <-r.ctx.Done():
		}
	}()
	for {
		msg, ok := in.next(r.ctx.Done())
		if !ok {
			break
		}
		r.up(msg)
	}
	r.cancel()
	<-read
	closed := make(chan struct{})
	go func() {
		r.server.Close()
		close(closed)
	}()
	select {
	case <-closed:
	case <-time.After(r.closeWait):
	}
	<-down
	r.sends.Wait()
	r.agy.Close()
	return in.err
}

// inbox is agy's messages read from stdin and not yet passed on, and
// whether stdin has ended (err: how, nil for its end).
type inbox struct {
	mu   sync.Mutex
	msgs []jsonrpc.Message
	done bool
	err  error
	wake chan struct{} // a message or the end arrived
}

func (in *inbox) push(m jsonrpc.Message) {
	in.mu.Lock()
	in.msgs = append(in.msgs, m)
	in.mu.Unlock()
	in.signal()
}

func (in *inbox) end(err error) {
	in.mu.Lock()
	in.done, in.err = true, err
	in.mu.Unlock()
	in.signal()
}

func (in *inbox) signal() {
	select {
	case in.wake <- struct{}{}:
	default:
	}
}

// next is agy's next message; false once stdin has ended and every
// message read before is out, or when stop is closed.
func (in *inbox) next(stop <-chan struct{}) (jsonrpc.Message, bool) {
	for {
		in.mu.Lock()
		if len(in.msgs) > 0 {
			m := in.msgs[0]
			in.msgs[0] = nil
			in.msgs = in.msgs[1:]
			in.mu.Unlock()
			return m, true
		}
		done := in.done
		in.mu.Unlock()
		if done {
			return nil, false
		}
		select {
		case <-in.wake:
		case <-stop:
			return nil, false
		}
	}
}

// up passes one of agy's messages to the server and returns once it is on
// its way (or could not be sent).
func (r *relay) up(msg jsonrpc.Message) {
	switch m := msg.(type) {
	case *jsonrpc.Request:
		if m.IsCall() {
			r.call(m)
			return
		}
		var cancels jsonrpc.ID
		if m.Method == "notifications/cancelled" {
			cancels = cancelledID(m.Params)
		}
		r.send(m, func() {
			// The server has been told; the call's own exchange can go.
			if cancels.IsValid() {
				r.finish(cancels)
			}
		}, nil)
	case *jsonrpc.Response:
		// An answer to one of the server's requests (sampling,
		// elicitation, roots).
		r.send(m, nil, nil)
	}
}

// call passes one of agy's calls on and keeps it until it is answered.
func (r *relay) call(m *jsonrpc.Request) {
	r.mu.Lock()
	if err := r.broken; err != nil {
		r.mu.Unlock()
		r.answer(m.ID, err)
		return
	}
	ctx, cancel := context.WithCancel(r.ctx)
	if prev := r.pending[m.ID]; prev != nil {
		prev() // agy reused an id: the older call's exchange is over for it
	}
	r.pending[m.ID] = cancel
	r.mu.Unlock()
	r.sendCtx(ctx, m, nil, func(err error) {
		// An error after the call was finished (answered, cancelled by
		// agy, or the relay ending) is nobody's concern any more.
		if err != nil && ctx.Err() == nil && r.take(m.ID) {
			r.answer(m.ID, err)
		}
	})
}

// send passes a notification or response on, in a context of its own
// that ends when the exchange does.
func (r *relay) send(m jsonrpc.Message, onSent func(), onDone func(error)) {
	r.mu.Lock()
	broken := r.broken != nil
	r.mu.Unlock()
	if broken {
		if onSent != nil {
			onSent()
		}
		return // nobody to tell, and agy expects no answer
	}
	ctx, cancel := context.WithCancel(r.ctx)
	r.sendCtx(ctx, m, onSent, func(err error) {
		cancel()
		if err != nil && r.ctx.Err() == nil {
			r.logf("%v", err)
		}
		if onDone != nil {
			onDone(err)
		}
	})
}

// sendCtx runs Send in its own goroutine, so that a call whose answer
// takes long does not hold up the messages after it, and waits until the
// message is on its way (or the relay ends).
func (r *relay) sendCtx(ctx context.Context, m jsonrpc.Message, onSent func(), onDone func(error)) {
	sent := make(chan struct{})
	var once sync.Once
	markSent := func() {
		once.Do(func() {
			if onSent != nil {
				onSent()
			}
			close(sent)
		})
	}
	r.sends.Add(1)
	go func() {
		defer r.sends.Done()
		err := r.server.Send(ctx, m, markSent)
		markSent()
		if onDone != nil {
			onDone(err)
		}
	}()
	select {
	case <-sent:
	case <-r.ctx.Done():
	}
}

// down passes the server's messages to agy until the connection ends.
func (r *relay) down() {
	for {
		msg, err := r.server.Read(r.ctx)
		if err != nil {
			if r.ctx.Err() != nil {
				return // agy closed stdin
			}
			r.lose(err)
			return
		}
		if err := r.agy.Write(r.ctx, msg); err != nil {
			if r.ctx.Err() == nil {
				r.logf("writing to agy: %v", err)
			}
			return
		}
		if resp, ok := msg.(*jsonrpc.Response); ok {
			r.finish(resp.ID)
		}
	}
}

// lose records that the connection to the server is gone: every call agy
// is waiting on, and every later one, is answered with why.
func (r *relay) lose(err error) {
	r.mu.Lock()
	if r.broken == nil {
		r.broken = err
	}
	ids := make([]jsonrpc.ID, 0, len(r.pending))
	for id, cancel := range r.pending {
		cancel()
		ids = append(ids, id)
	}
	clear(r.pending)
	r.mu.Unlock()
	r.logf("connection to the server lost: %v", err)
	for _, id := range ids {
		r.answer(id, err)
	}
}

// finish ends a call's exchange: answered, or cancelled by agy.
func (r *relay) finish(id jsonrpc.ID) {
	r.mu.Lock()
	cancel := r.pending[id]
	delete(r.pending, id)
	r.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// take removes a call agy is still waiting on and reports whether it was.
func (r *relay) take(id jsonrpc.ID) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	cancel, ok := r.pending[id]
	if ok {
		cancel()
		delete(r.pending, id)
	}
	return ok
}

// answer tells agy that its call failed: the server's own JSON-RPC error
// when it sent one, otherwise one made up here, with a line on stderr.
func (r *relay) answer(id jsonrpc.ID, err error) {
	wire := serverError(err)
	if wire == nil {
		r.logf("%v", err)
		wire = &jsonrpc.Error{Code: agyhook.CodeBridgeFailure, Message: "agyhook bridge: " + err.Error()}
	}
	if werr := r.agy.Write(r.ctx, &jsonrpc.Response{ID: id, Error: wire}); werr != nil && r.ctx.Err() == nil {
		r.logf("writing to agy: %v", werr)
	}
}

// cancelledID is the requestId of notifications/cancelled's params, or
// an invalid ID.
func cancelledID(params json.RawMessage) jsonrpc.ID {
	var p struct {
		RequestID any `json:"requestId"`
	}
	if json.Unmarshal(params, &p) != nil {
		return jsonrpc.ID{}
	}
	id, err := jsonrpc.MakeID(p.RequestID)
	if err != nil {
		return jsonrpc.ID{}
	}
	return id
}
