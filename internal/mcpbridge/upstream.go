package mcpbridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Timeouts of the bridge's HTTP connections. Only the connection's set-up
// is bounded: an answer may take as long as the tool it runs (agy's own
// timeouts apply to it).
const (
	dialTimeout = 15 * time.Second
	tlsTimeout  = 15 * time.Second
	// sseTimeout bounds the wait for an SSE server's endpoint event.
	sseTimeout = 15 * time.Second
)

// sdkUpstream is the server's side, over the MCP Go SDK's client
// transports. It connects when agy's first message (initialize, or
// server/discover) is sent: streamable HTTP, the transport agy speaks to a
// serverUrl, and — when that first POST is answered with a 4xx other than
// an authentication failure and without a JSON-RPC error, the MCP
// specification's test for a server that predates it — the HTTP+SSE
// transport of protocol version 2024-11-05 at the same URL.
type sdkUpstream struct {
	url   string
	hdr   *headerTransport
	http  *http.Client
	names string // the header flags, for messages: "--header-file Authorization=PATH"

	first sync.Once
	ready chan struct{} // closed once conn or connErr is set
	conn  mcp.Connection
	// connErr: the first exchange failed and left no connection.
	connErr error
	life    context.CancelFunc // ends an SSE connection's GET

	initID atomic.Pointer[jsonrpc.ID] // agy's initialize call
}

func newUpstream(rawURL string, headers http.Header, names string, base http.RoundTripper) (*sdkUpstream, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, err
	}
	if base == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.DialContext = (&net.Dialer{Timeout: dialTimeout, KeepAlive: 30 * time.Second}).DialContext
		t.TLSHandshakeTimeout = tlsTimeout
		base = t
	}
	hdr := &headerTransport{base: base, origin: origin(u), headers: headers}
	return &sdkUpstream{url: rawURL, hdr: hdr, http: &http.Client{Transport: hdr}, names: names, ready: make(chan struct{})}, nil
}

func (u *sdkUpstream) Send(ctx context.Context, msg jsonrpc.Message, sent func()) error {
	if req, ok := msg.(*jsonrpc.Request); ok && req.Method == "initialize" && req.IsCall() {
		id := req.ID
		u.initID.Store(&id)
	}
	first := false
	u.first.Do(func() { first = true })
	if first {
		defer close(u.ready)
		return u.connect(ctx, msg)
	}
	select {
	case <-u.ready:
	case <-ctx.Done():
		return ctx.Err()
	}
	if u.conn == nil {
		return u.connErr
	}
	if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
		// A call is on its way once its request is written: its answer
		// may take as long as the tool, and must not hold up what follows.
		// A notification or a response is on its way once the server has
		// taken it (its 202, when Write returns), as agy's own client would
		// wait: each is a POST of its own, and one merely written can be
		// overtaken by the next on another connection (initialized by the
		// tools/list after it).
		trace := &httptrace.ClientTrace{WroteRequest: func(httptrace.WroteRequestInfo) { sent() }}
		ctx = httptrace.WithClientTrace(ctx, trace)
	}
	if err := u.conn.Write(ctx, msg); err != nil {
		return u.describe(err)
	}
	return nil
}

// connect sends agy's first message, over streamable HTTP, else SSE.
func (u *sdkUpstream) connect(ctx context.Context, msg jsonrpc.Message) error {
	st := &mcp.StreamableClientTransport{Endpoint: u.url, HTTPClient: u.http}
	conn, err := st.Connect(context.Background())
	if err != nil {
		u.connErr = u.describe(err)
		return u.connErr
	}
	status := u.hdr.watch()
	err = conn.Write(ctx, msg)
	code := status()
	switch {
	case err == nil, serverError(err) != nil:
		// Connected: the server answered, perhaps with a JSON-RPC error
		// for this request, which goes back to agy as it is.
		u.conn = conn
		u.hdr.streamable.Store(true)
		return err
	case ctx.Err() != nil:
		conn.Close()
		u.connErr = ctx.Err()
		return u.connErr
	case !legacyStatus(code):
		conn.Close()
		u.connErr = u.firstFailure(code, err)
		return u.connErr
	}
	conn.Close()
	sconn, life, serr := u.connectSSE()
	if serr == nil {
		if werr := sconn.Write(ctx, msg); werr == nil {
			u.conn, u.life = sconn, life
			return nil
		} else {
			serr = werr
			sconn.Close()
			life()
		}
	}
	u.connErr = fmt.Errorf("%s answered %d %s to MCP's streamable HTTP (a POST), and the older HTTP+SSE transport (a GET) failed too: %v", u.url, code, http.StatusText(code), serr)
	return u.connErr
}

// connectSSE opens the GET stream of the HTTP+SSE transport, which lives
// as long as the context it is opened with: only its set-up is bounded.
func (u *sdkUpstream) connectSSE() (mcp.Connection, context.CancelFunc, error) {
	life, cancel := context.WithCancel(context.Background())
	timer := time.AfterFunc(sseTimeout, cancel)
	st := &mcp.SSEClientTransport{Endpoint: u.url, HTTPClient: u.http}
	conn, err := st.Connect(life)
	if !timer.Stop() && err == nil {
		conn.Close()
		err = fmt.Errorf("no endpoint event within %v", sseTimeout)
	}
	if err != nil {
		cancel()
		return nil, nil, err
	}
	return conn, cancel, nil
}

// legacyStatus: a 4xx to the first POST that the specification's
// backwards-compatibility rule reads as "speaks HTTP+SSE only" — not an
// authentication failure, a timeout or a rate limit.
func legacyStatus(code int) bool {
	switch code {
	case http.StatusUnauthorized, http.StatusForbidden, http.StatusRequestTimeout, http.StatusTooManyRequests:
		return false
	}
	return code >= 400 && code < 500
}

// firstFailure describes a failed first exchange by what the server did.
func (u *sdkUpstream) firstFailure(code int, err error) error {
	switch {
	case code == http.StatusUnauthorized || code == http.StatusForbidden:
		return fmt.Errorf("%s answered %d %s: the server refused the credentials in the headers (%s); check the files and that the token is still valid", u.url, code, http.StatusText(code), u.names)
	case code != 0:
		return fmt.Errorf("%s answered %d %s: %v", u.url, code, http.StatusText(code), err)
	}
	return fmt.Errorf("cannot reach %s: %v", u.url, unwrapNet(err))
}

// describe adds the server's URL to an error of the SDK's, except to a
// JSON-RPC error, which is the server's own answer.
func (u *sdkUpstream) describe(err error) error {
	if err == nil || serverError(err) != nil {
		return err
	}
	return fmt.Errorf("%s: %w", u.url, err)
}

// codeRejected is the code of the SDK's own "rejected by transport"
// error, a *jsonrpc.Error that is no answer of the server's.
const codeRejected = -32005

// serverError is the JSON-RPC error the server answered with, found in
// err's chain, or nil.
func serverError(err error) *jsonrpc.Error {
	if err == nil {
		return nil
	}
	if w, ok := err.(*jsonrpc.Error); ok && w.Code != codeRejected {
		return w
	}
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		return serverError(u.Unwrap())
	case interface{ Unwrap() []error }:
		for _, e := range u.Unwrap() {
			if w := serverError(e); w != nil {
				return w
			}
		}
	}
	return nil
}

// failed reports whether the connection never came up.
func (u *sdkUpstream) failed() bool {
	select {
	case <-u.ready:
		return u.conn == nil
	default:
		return false
	}
}

// unwrapNet shortens a transport error to its cause: the SDK wraps it in
// "sending …: rejected: Post …: dial tcp …".
func unwrapNet(err error) error {
	var op *net.OpError
	if errors.As(err, &op) {
		return op
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

func (u *sdkUpstream) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-u.ready:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if u.conn == nil {
		// Nothing to read: the first exchange failed, and every call is
		// answered with why as it comes (Send).
		<-ctx.Done()
		return nil, ctx.Err()
	}
	msg, err := u.conn.Read(ctx)
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s closed the connection", u.url)
		}
		return nil, u.describe(err)
	}
	if resp, ok := msg.(*jsonrpc.Response); ok {
		if id := u.initID.Load(); id != nil && *id == resp.ID && resp.Error == nil {
			var r struct {
				ProtocolVersion string `json:"protocolVersion"`
			}
			if json.Unmarshal(resp.Result, &r) == nil {
				u.hdr.protocolVersion.Store(&r.ProtocolVersion)
			}
		}
	}
	return msg, nil
}

func (u *sdkUpstream) Close() error {
	select {
	case <-u.ready:
	default:
		return nil // never connected
	}
	var err error
	if u.conn != nil {
		err = u.conn.Close()
	}
	if u.life != nil {
		u.life()
	}
	return err
}

// headerTransport adds the configured headers to the requests the SDK's
// transports make, on the server's origin only (scheme, host and port): a
// redirect or an SSE endpoint elsewhere gets none of them. The headers the
// transport sets itself (Content-Type, Accept, Mcp-Session-Id,
// Mcp-Protocol-Version, Last-Event-ID) are the transport's.
//
// It also sets Mcp-Protocol-Version from agy's initialize exchange: the
// SDK's transport sets it only for its own client's sessions, and a
// server of protocol 2025-06-18 or later expects it on every request after
// initialize.
type headerTransport struct {
	base    http.RoundTripper
	origin  string
	headers http.Header

	streamable      atomic.Bool
	protocolVersion atomic.Pointer[string]
	// status is the last POST's status while watched (watch).
	status  atomic.Int64
	watched atomic.Bool
}

func (t *headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	r := req.Clone(req.Context())
	if origin(r.URL) == t.origin {
		for k, v := range t.headers {
			if _, set := r.Header[k]; !set {
				r.Header[k] = v
			}
		}
		if pv := t.protocolVersion.Load(); pv != nil && *pv != "" && t.streamable.Load() && r.Header.Get("Mcp-Protocol-Version") == "" {
			r.Header.Set("Mcp-Protocol-Version", *pv)
		}
	}
	resp, err := t.base.RoundTrip(r)
	if err == nil && req.Method == http.MethodPost && t.watched.Load() {
		t.status.Store(int64(resp.StatusCode))
	}
	return resp, err
}

// watch records the status of the POSTs that follow (the first exchange
// has one), until the returned func is called, which gives it (0 if no
// answer came).
func (t *headerTransport) watch() func() int {
	t.status.Store(0)
	t.watched.Store(true)
	return func() int {
		t.watched.Store(false)
		return int(t.status.Load())
	}
}

func origin(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[strings.ToLower(u.Scheme)]
	}
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Hostname()) + ":" + port
}
