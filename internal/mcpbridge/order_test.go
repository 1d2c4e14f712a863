package mcpbridge

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestOrderAtTheServer: the server handles agy's messages in agy's order
// even when the network delivers the bridge's HTTP requests out of order
// (each message is a POST of its own, on a connection of its own when the
// one before is still open). Here a notification's or a response's POST
// is held up on its way, as a proxy or a busy connection would: a client
// speaking to the server itself sends agy's next message only once the
// server has taken the one before (its 202), and so must the bridge.
func TestOrderAtTheServer(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "order", Version: "1"}, nil)
	var mu sync.Mutex
	var seen []string
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			mu.Lock()
			seen = append(seen, method)
			mu.Unlock()
			return next(ctx, method, req)
		}
	})
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			body, _ := io.ReadAll(r.Body)
			var m struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			_ = json.Unmarshal(body, &m)
			if m.ID == nil || m.Method == "" {
				// A notification, or agy's answer to the server: late.
				time.Sleep(100 * time.Millisecond)
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		h.ServeHTTP(w, r)
	}))
	defer hs.Close()

	b := startBridge(t, "--header", "X-Test=1", "--", hs.URL)
	out := bufio.NewScanner(b.stdout)
	out.Buffer(nil, 1<<20)
	lines := make(chan string, 16)
	go func() {
		for out.Scan() {
			lines <- out.Text()
		}
		close(lines)
	}()
	write := func(s string) {
		if _, err := io.WriteString(b.stdin, s+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	answered := map[string]bool{}
	answer := func(id string) {
		t.Helper()
		for !answered[id] {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("stdout ended before the answer to %s; stderr %s", id, b.stderr.String())
				}
				var m struct {
					ID json.RawMessage `json:"id"`
				}
				_ = json.Unmarshal([]byte(l), &m)
				answered[string(m.ID)] = true
			case <-time.After(10 * time.Second):
				t.Fatalf("no answer to %s; stderr %s", id, b.stderr.String())
			}
		}
	}
	write(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"roots":{"listChanged":true}},"clientInfo":{"name":"agy","version":"t"}}}`)
	answer("1")
	write(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	write(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	write(`{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}`)
	write(`{"jsonrpc":"2.0","id":3,"method":"ping"}`)
	answer("2")
	answer("3")
	// What the server takes after ping is not this test's concern: it
	// waits for the late notifications before agy goes.
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		mu.Lock()
		n := len(seen)
		mu.Unlock()
		if n >= 5 {
			break
		}
	}
	if code := b.wait(t); code != 0 {
		t.Errorf("exit %d, stderr %s", code, b.stderr.String())
	}
	mu.Lock()
	defer mu.Unlock()
	want := []string{"initialize", "notifications/initialized", "tools/list", "notifications/roots/list_changed", "ping"}
	if !slices.Equal(seen, want) {
		t.Errorf("the server handled\n  %v\nagy sent\n  %v", seen, want)
	}
}
