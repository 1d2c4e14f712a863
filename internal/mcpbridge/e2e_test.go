package mcpbridge

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The bridge, run in-process on pipes as agy runs it on stdin and stdout,
// against the MCP SDK's own server on loopback; agy is the SDK's client.

const canary = "CANARY-bridge-t0ken"

// syncBuffer is stderr, written by the bridge's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// bridged is a bridge running on pipes.
type bridged struct {
	// client is the transport agy would have: the bridge's stdin and stdout.
	client mcp.Transport
	stdin  io.WriteCloser
	stdout io.Reader
	stderr *syncBuffer
	code   chan int
}

func startBridge(t *testing.T, args ...string) *bridged {
	t.Helper()
	return startBridgeIn(t, []string{"XDG_RUNTIME_DIR=" + t.TempDir()}, args...)
}

// startBridgeIn starts the bridge with environ as agy's environment.
func startBridgeIn(t *testing.T, environ []string, args ...string) *bridged {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	b := &bridged{client: &mcp.IOTransport{Reader: outR, Writer: inW}, stdin: inW, stdout: outR, stderr: &syncBuffer{}, code: make(chan int, 1)}
	go func() {
		code := Main(args, inR, outW, b.stderr, Env{Environ: environ})
		outW.Close()
		b.code <- code
	}()
	t.Cleanup(func() {
		inW.Close()
		select {
		case <-b.code:
		case <-time.After(10 * time.Second):
			t.Error("the bridge did not exit within 10 s of stdin closing")
		}
		if strings.Contains(b.stderr.String(), canary) {
			t.Errorf("stderr holds the secret: %s", b.stderr.String())
		}
	})
	return b
}

// wait returns the bridge's exit status once stdin is closed.
func (b *bridged) wait(t *testing.T) int {
	t.Helper()
	b.stdin.Close()
	select {
	case code := <-b.code:
		b.code <- code
		return code
	case <-time.After(10 * time.Second):
		t.Fatal("the bridge did not exit within 10 s of stdin closing")
	}
	return -1
}

// loopback is the SDK's MCP server behind a check of the Authorization
// header, recording what it saw.
type loopback struct {
	*httptest.Server
	mu        sync.Mutex
	auth      []string // Authorization headers received
	deletes   int      // session ends (DELETE)
	cancelled chan string
	stop      chan struct{} // ends the calls still waiting
}

type textIn struct {
	Text string `json:"text"`
}

type textOut struct {
	Text string `json:"text"`
}

func newLoopback(t *testing.T, want string, sse bool) *loopback {
	t.Helper()
	l := &loopback{cancelled: make(chan string, 4), stop: make(chan struct{})}
	srv := mcp.NewServer(&mcp.Implementation{Name: "loopback", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "echo", Description: "echoes its text"}, func(ctx context.Context, req *mcp.CallToolRequest, in textIn) (*mcp.CallToolResult, textOut, error) {
		return nil, textOut{Text: "echo: " + in.Text}, nil
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "progress", Description: "reports progress, then answers"}, func(ctx context.Context, req *mcp.CallToolRequest, in textIn) (*mcp.CallToolResult, textOut, error) {
		tok := req.Params.GetProgressToken()
		for i := 1; i <= 3; i++ {
			if err := req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: float64(i), Total: 3, Message: fmt.Sprintf("step %d", i)}); err != nil {
				return nil, textOut{}, err
			}
		}
		return nil, textOut{Text: "done"}, nil
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "ask", Description: "asks the client to sample"}, func(ctx context.Context, req *mcp.CallToolRequest, in textIn) (*mcp.CallToolResult, textOut, error) {
		res, err := req.Session.CreateMessage(ctx, &mcp.CreateMessageParams{MaxTokens: 10, Messages: []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: in.Text}}}})
		if err != nil {
			return nil, textOut{}, err
		}
		return nil, textOut{Text: "the client said " + res.Content.(*mcp.TextContent).Text}, nil
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "wait", Description: "waits until cancelled"}, func(ctx context.Context, req *mcp.CallToolRequest, in textIn) (*mcp.CallToolResult, textOut, error) {
		select {
		case <-ctx.Done():
			l.cancelled <- in.Text
			return nil, textOut{}, ctx.Err()
		case <-l.stop:
			return nil, textOut{Text: "stopped"}, nil
		}
	})
	var h http.Handler
	if sse {
		h = mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	} else {
		h = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	}
	l.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l.mu.Lock()
		l.auth = append(l.auth, r.Header.Get("Authorization"))
		if r.Method == http.MethodDelete {
			l.deletes++
		}
		l.mu.Unlock()
		if r.Header.Get("Authorization") != want {
			http.Error(w, "who are you?", http.StatusUnauthorized)
			return
		}
		if sse && r.Method == http.MethodPost && r.URL.RawQuery == "" {
			// What an HTTP+SSE server answers to streamable HTTP's POST.
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(func() {
		close(l.stop)
		l.Close()
	})
	return l
}

func tokenFile(t *testing.T, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func connect(t *testing.T, b *bridged, version string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "agy", Version: "test"}, opts).Connect(ctx, b.client, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("connect through the bridge: %v\nstderr: %s", err, b.stderr.String())
	}
	return cs
}

func callText(t *testing.T, cs *mcp.ClientSession, params *mcp.CallToolParams) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, params)
	if err != nil {
		t.Fatalf("%s: %v", params.Name, err)
	}
	if res.IsError {
		t.Fatalf("%s: tool error %v", params.Name, res.Content)
	}
	return res.Content[0].(*mcp.TextContent).Text
}

// TestRelay: tools listed and called, progress notifications and a
// server-to-client request passed during a call, a call cancelled, over
// streamable HTTP with each protocol revision's handshake (2025-06-18's
// initialize, and 2026-07-28's server/discover, stateless) and over the
// older HTTP+SSE transport, reached by the fallback.
func TestRelay(t *testing.T) {
	for _, c := range []struct {
		name, version string
		sse           bool
	}{
		{"streamable-2025-06-18", "2025-06-18", false},
		{"streamable-2025-11-25", "2025-11-25", false},
		{"streamable-2026-07-28", "2026-07-28", false},
		{"sse-fallback", "2025-06-18", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := newLoopback(t, "Bearer "+canary, c.sse)
			b := startBridge(t, "--header", "Authorization=Bearer ", "--header-file", "Authorization="+tokenFile(t, canary+"\n"), "--", srv.URL)
			var mu sync.Mutex
			var progress []string
			legacy := c.version < "2026-07-28"
			opts := &mcp.ClientOptions{
				ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
					mu.Lock()
					progress = append(progress, req.Params.Message)
					mu.Unlock()
				},
			}
			if legacy {
				opts.CreateMessageHandler = func(_ context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
					return &mcp.CreateMessageResult{Model: "m", Role: "assistant", Content: &mcp.TextContent{Text: "yes to " + req.Params.Messages[0].Content.(*mcp.TextContent).Text}}, nil
				}
			}
			cs := connect(t, b, c.version, opts)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			tools, err := cs.ListTools(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, tl := range tools.Tools {
				names = append(names, tl.Name)
			}
			if got := strings.Join(names, ","); got != "ask,echo,progress,wait" {
				t.Errorf("tools %s", got)
			}
			if got := callText(t, cs, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "hi"}}); got != `{"text":"echo: hi"}` {
				t.Errorf("echo: %s", got)
			}
			p := &mcp.CallToolParams{Name: "progress", Arguments: map[string]any{"text": ""}}
			p.SetProgressToken("tok-1")
			if got := callText(t, cs, p); got != `{"text":"done"}` {
				t.Errorf("progress: %s", got)
			}
			// The client handles notifications on goroutines of its own: they
			// may land after the call's result.
			for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
				mu.Lock()
				got := strings.Join(progress, ",")
				mu.Unlock()
				if got == "step 1,step 2,step 3" {
					break
				}
				if time.Now().After(deadline) {
					t.Errorf("progress notifications %q", got)
					break
				}
			}
			if legacy {
				if got := callText(t, cs, &mcp.CallToolParams{Name: "ask", Arguments: map[string]any{"text": "q"}}); got != `{"text":"the client said yes to q"}` {
					t.Errorf("ask: %s", got)
				}
			}
			// Cancellation: agy gives up on a call; the server hears of it.
			wctx, wcancel := context.WithCancel(context.Background())
			errc := make(chan error, 1)
			go func() {
				_, err := cs.CallTool(wctx, &mcp.CallToolParams{Name: "wait", Arguments: map[string]any{"text": "w1"}})
				errc <- err
			}()
			time.Sleep(200 * time.Millisecond)
			wcancel()
			if err := <-errc; !errors.Is(err, context.Canceled) {
				t.Errorf("cancelled call: %v", err)
			}
			select {
			case got := <-srv.cancelled:
				if got != "w1" {
					t.Errorf("cancelled %q", got)
				}
			case <-time.After(10 * time.Second):
				t.Error("the server never saw the cancellation")
			}
			// The connection is still good after it.
			if got := callText(t, cs, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "again"}}); got != `{"text":"echo: again"}` {
				t.Errorf("echo after a cancellation: %s", got)
			}
			cs.Close()
			if code := b.wait(t); code != 0 {
				t.Errorf("exit %d, stderr %s", code, b.stderr.String())
			}
			srv.mu.Lock()
			for _, a := range srv.auth {
				if a != "Bearer "+canary {
					t.Errorf("a request came with Authorization %q", a)
				}
			}
			srv.mu.Unlock()
		})
	}
}

func callWait(text string) *mcp.CallToolParams {
	return &mcp.CallToolParams{Name: "wait", Arguments: map[string]any{"text": text}}
}
