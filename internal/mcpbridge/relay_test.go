package mcpbridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// The relay's guarantees, checked on random exchanges against fakes of
// both sides (agy's stdio, the server's transport) that answer, fail and
// dawdle at random:
//
//   - the server receives agy's messages exactly once, in agy's order;
//   - agy receives the server's messages exactly once, in the server's
//     order;
//   - every call agy makes is answered exactly once (by the server, or by
//     the bridge when the call cannot be sent or the connection is lost),
//     unless agy cancelled it, and then at most once;
//   - a cancellation reaches the server after the call it cancels, and
//     the call's exchange ends once it has;
//   - the relay returns when agy's input ends, with nothing left running.
//
// AGYCONF_RELAY_RUNS sets the number of exchanges (default 200).

func relayRuns(t *testing.T) int {
	if s := os.Getenv("AGYCONF_RELAY_RUNS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("AGYCONF_RELAY_RUNS=%q", s)
		}
		return n
	}
	return 200
}

func TestRelayProperties(t *testing.T) {
	runs := relayRuns(t)
	for seed := 0; seed < runs; seed++ {
		checkRelay(t, uint64(seed))
		if t.Failed() {
			t.Fatalf("seed %d", seed)
		}
	}
}

// script is agy's side of one exchange.
type op struct {
	msg jsonrpc.Message
	// cancels: the call this notifications/cancelled cancels.
	cancels int64
}

func intID(n int64) jsonrpc.ID {
	id, _ := jsonrpc.MakeID(float64(n))
	return id
}

func makeScript(rng *rand.Rand) []op {
	n := 1 + rng.IntN(40)
	var ops []op
	var open []int64
	next := int64(1)
	for i := 0; i < n; i++ {
		switch k := rng.IntN(10); {
		case k < 5:
			ops = append(ops, op{msg: &jsonrpc.Request{ID: intID(next), Method: "tools/call", Params: json.RawMessage(fmt.Sprintf(`{"n":%d}`, next))}})
			open = append(open, next)
			next++
		case k < 7 && len(open) > 0:
			j := rng.IntN(len(open))
			id := open[j]
			open = append(open[:j], open[j+1:]...)
			ops = append(ops, op{msg: &jsonrpc.Request{Method: "notifications/cancelled", Params: json.RawMessage(fmt.Sprintf(`{"requestId":%d}`, id))}, cancels: id})
		case k < 9:
			ops = append(ops, op{msg: &jsonrpc.Request{Method: "notifications/progress", Params: json.RawMessage(fmt.Sprintf(`{"i":%d}`, i))}})
		default:
			// agy's answer to a request of the server's.
			ops = append(ops, op{msg: &jsonrpc.Response{ID: jsonrpc.ID{}, Result: json.RawMessage(`{}`)}})
			sid, _ := jsonrpc.MakeID("s" + strconv.Itoa(i))
			ops[len(ops)-1].msg.(*jsonrpc.Response).ID = sid
		}
	}
	return ops
}

// fakeAgy plays the script, then ends its input once every call it still
// waits on is answered (or after a while).
type fakeAgy struct {
	rng    *rand.Rand
	script []op
	pos    int
	mu     sync.Mutex
	got    []jsonrpc.Message
	wait   map[jsonrpc.ID]bool // calls not cancelled and not answered
	cond   chan struct{}
}

func (a *fakeAgy) Read(ctx context.Context) (jsonrpc.Message, error) {
	if a.pos < len(a.script) {
		m := a.script[a.pos].msg
		a.pos++
		if a.rng.IntN(4) == 0 {
			time.Sleep(time.Duration(a.rng.IntN(200)) * time.Microsecond)
		}
		return m, nil
	}
	deadline := time.After(5 * time.Second)
	for {
		a.mu.Lock()
		n := len(a.wait)
		a.mu.Unlock()
		if n == 0 {
			return nil, io.EOF
		}
		select {
		case <-a.cond:
		case <-deadline:
			return nil, io.EOF
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

func (a *fakeAgy) Write(ctx context.Context, m jsonrpc.Message) error {
	a.mu.Lock()
	a.got = append(a.got, m)
	if r, ok := m.(*jsonrpc.Response); ok {
		delete(a.wait, r.ID)
	}
	a.mu.Unlock()
	select {
	case a.cond <- struct{}{}:
	default:
	}
	return nil
}

func (a *fakeAgy) Close() error { return nil }

// fakeServer receives agy's messages and answers calls after a random
// while, unless their exchange ended first; it fails sends, and the
// whole connection, at random.
type fakeServer struct {
	rng      *rand.Rand
	rngMu    sync.Mutex
	mu       sync.Mutex
	received []jsonrpc.Message
	ctxs     map[jsonrpc.ID]context.Context
	outlived []jsonrpc.ID // calls whose exchange outlived their cancellation
	out      chan jsonrpc.Message
	fatal    chan error
	lost     bool
	seq      int
	closed   chan struct{}
	once     sync.Once
}

var errSend = errors.New("send failed")

func (s *fakeServer) intn(n int) int {
	s.rngMu.Lock()
	defer s.rngMu.Unlock()
	return s.rng.IntN(n)
}

func (s *fakeServer) Send(ctx context.Context, m jsonrpc.Message, sent func()) error {
	if s.intn(3) == 0 {
		time.Sleep(time.Duration(s.intn(300)) * time.Microsecond)
	}
	call, isCall := m.(*jsonrpc.Request)
	isCall = isCall && call.IsCall()
	if isCall && s.intn(12) == 0 {
		return errSend // refused before it went out
	}
	s.mu.Lock()
	if s.lost {
		s.mu.Unlock()
		return errors.New("connection lost")
	}
	s.received = append(s.received, m)
	if isCall {
		s.ctxs[call.ID] = ctx
	}
	// Now and then, a server message of its own, in sequence.
	if s.intn(3) == 0 {
		s.seq++
		note := &jsonrpc.Request{Method: "notifications/message", Params: json.RawMessage(fmt.Sprintf(`{"seq":%d}`, s.seq))}
		s.mu.Unlock()
		s.emit(note)
		s.mu.Lock()
	}
	if s.intn(60) == 0 && !s.lost {
		s.lost = true
		s.mu.Unlock()
		sent()
		s.fatal <- errors.New("the server went away")
		return nil
	}
	s.mu.Unlock()
	sent()
	if r, ok := m.(*jsonrpc.Request); ok && r.Method == "notifications/cancelled" {
		// Once the cancellation is out, the call's exchange is over.
		id := cancelledID(r.Params)
		s.mu.Lock()
		if ctx := s.ctxs[id]; ctx != nil && ctx.Err() == nil {
			s.outlived = append(s.outlived, id)
		}
		s.mu.Unlock()
	}
	if !isCall {
		return nil
	}
	answer := func() {
		select {
		case <-time.After(time.Duration(s.intn(2000)) * time.Microsecond):
		case <-ctx.Done():
			return // the exchange ended: no answer comes back on it
		}
		s.emit(&jsonrpc.Response{ID: call.ID, Result: json.RawMessage(`{"ok":true}`)})
	}
	if s.intn(3) == 0 {
		answer() // Send returns late, as streamable HTTP's JSON answers do
		return ctx.Err()
	}
	go answer()
	return nil
}

func (s *fakeServer) emit(m jsonrpc.Message) {
	select {
	case s.out <- m:
	case <-s.closed:
	}
}

func (s *fakeServer) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case m := <-s.out:
		return m, nil
	case err := <-s.fatal:
		return nil, err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (s *fakeServer) Close() error {
	s.once.Do(func() { close(s.closed) })
	return nil
}

func checkRelay(t *testing.T, seed uint64) {
	t.Helper()
	checkRelayScript(t, makeScript(rand.New(rand.NewPCG(seed, 1))), seed)
}

func checkRelayScript(t *testing.T, script []op, seed uint64) {
	t.Helper()
	agy := &fakeAgy{rng: rand.New(rand.NewPCG(seed, 2)), script: script, wait: map[jsonrpc.ID]bool{}, cond: make(chan struct{}, 1)}
	cancelled := map[jsonrpc.ID]bool{}
	calls := map[jsonrpc.ID]bool{}
	for _, o := range script {
		if r, ok := o.msg.(*jsonrpc.Request); ok && r.IsCall() {
			agy.wait[r.ID] = true
			calls[r.ID] = true
		}
		if o.cancels != 0 {
			delete(agy.wait, intID(o.cancels))
			cancelled[intID(o.cancels)] = true
		}
	}
	srv := &fakeServer{rng: rand.New(rand.NewPCG(seed, 3)), ctxs: map[jsonrpc.ID]context.Context{}, out: make(chan jsonrpc.Message), fatal: make(chan error, 1), closed: make(chan struct{})}
	r := newRelay(agy, srv, func(string, ...any) {})
	done := make(chan error, 1)
	go func() { done <- r.run() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("run: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the relay did not return after agy's input ended")
	}

	// The server received agy's messages in agy's order: a subsequence
	// (calls refused before they went out, and everything after the
	// connection was lost, are missing), with no message twice.
	srv.mu.Lock()
	received := srv.received
	ctxs := srv.ctxs
	lost := srv.lost
	for _, id := range srv.outlived {
		t.Errorf("call %v: its exchange outlived its cancellation", id.Raw())
	}
	srv.mu.Unlock()
	j := 0
	for _, m := range received {
		for j < len(script) && script[j].msg != m {
			j++
		}
		if j == len(script) {
			t.Errorf("the server received %s out of order or twice", show(m))
			return
		}
		j++
	}
	// Every call not refused was received, unless the connection was
	// lost; a cancellation came after its call, and ended its exchange.
	pos := map[jsonrpc.Message]int{}
	for i, m := range received {
		pos[m] = i
	}
	for _, o := range script {
		if o.cancels == 0 {
			continue
		}
		cpos, cok := pos[o.msg]
		for i, m := range received {
			if r, ok := m.(*jsonrpc.Request); ok && r.IsCall() && r.ID == intID(o.cancels) {
				if cok && cpos < i {
					t.Errorf("the cancellation of call %d reached the server before the call", o.cancels)
				}
			}
		}
	}
	// agy got each call's answer exactly once (at most once when it
	// cancelled the call), and the server's own messages in order.
	agy.mu.Lock()
	defer agy.mu.Unlock()
	answers := map[jsonrpc.ID]int{}
	seq := 0
	for _, m := range agy.got {
		switch m := m.(type) {
		case *jsonrpc.Response:
			if !calls[m.ID] {
				t.Errorf("agy got an answer to %v, which it never asked", m.ID)
			}
			answers[m.ID]++
		case *jsonrpc.Request:
			var p struct{ Seq int }
			json.Unmarshal(m.Params, &p)
			if p.Seq != seq+1 {
				t.Errorf("server message %d after %d", p.Seq, seq)
			}
			seq = p.Seq
		}
	}
	for id := range calls {
		n := answers[id]
		switch {
		case cancelled[id] && n > 1, !cancelled[id] && n != 1:
			t.Errorf("call %v answered %d times (cancelled %v, connection lost %v)", id.Raw(), n, cancelled[id], lost)
		}
	}
	for id, ctx := range ctxs {
		if ctx.Err() == nil {
			t.Errorf("call %v: its exchange is still open after the relay returned", id.Raw())
		}
	}
}

func show(m jsonrpc.Message) string {
	b, _ := jsonrpc.EncodeMessage(m)
	return string(b)
}
