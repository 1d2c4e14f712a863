package mcpbridge

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"agy","version":"test"}}}`

// ask writes one line on the bridge's stdin and returns the line it
// answers, failing after 10 s.
func ask(t *testing.T, b *bridged, r *bufio.Reader, line string) string {
	t.Helper()
	go b.stdin.Write([]byte(line + "\n"))
	got := make(chan string, 1)
	go func() {
		s, _ := r.ReadString('\n')
		got <- s
	}()
	select {
	case s := <-got:
		return s
	case <-time.After(10 * time.Second):
		t.Fatalf("no answer to %.200s within 10 s; stderr: %s", line, b.stderr.String())
	}
	return ""
}

// rpcError decodes an error answer to id 1.
func rpcError(t *testing.T, answer string) string {
	t.Helper()
	var resp struct {
		ID    int `json:"id"`
		Error *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(answer), &resp); err != nil || resp.ID != 1 || resp.Error == nil {
		t.Fatalf("want an error answer to id 1, got %q (%v)", answer, err)
	}
	return resp.Error.Message
}

// TestFailuresAnswerInitialize: whatever keeps the bridge from the server
// is the answer to agy's initialize (what agy shows) and one line on
// stderr (agy's log), without the secret; the bridge exits when stdin
// closes.
func TestFailuresAnswerInitialize(t *testing.T) {
	srv := newLoopback(t, "Bearer right", false)
	closed := httptest.NewServer(http.NotFoundHandler())
	closedURL := closed.URL
	closed.Close()
	dir := t.TempDir()
	for _, c := range []struct {
		name string
		args []string
		want []string // in the message and on stderr
	}{
		{"missing file", []string{"--header-file", "Authorization=" + filepath.Join(dir, "absent"), "--", srv.URL},
			[]string{"--header-file Authorization=" + filepath.Join(dir, "absent"), "no such file"}},
		{"a folder", []string{"--header-file", "Authorization=" + dir, "--", srv.URL},
			[]string{"not a regular file"}},
		{"a line break inside", []string{"--header-file", "Authorization=" + tokenFile(t, canary+"\nsecond line\n"), "--", srv.URL},
			[]string{"line break"}},
		{"unset runtime folder", []string{"--header-file", "Authorization=%r/absent", "--", srv.URL},
			[]string{"--header-file Authorization=%r/absent"}},
		{"unreachable", []string{"--header-file", "Authorization=" + tokenFile(t, canary), "--", closedURL},
			[]string{"cannot reach " + closedURL, "connection refused"}},
		{"401", []string{"--header", "Authorization=Bearer ", "--header-file", "Authorization=" + tokenFile(t, canary), "--", srv.URL},
			[]string{"401 Unauthorized", "--header Authorization, --header-file Authorization="}},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := startBridge(t, c.args...)
			r := bufio.NewReader(b.stdout)
			msg := rpcError(t, ask(t, b, r, initialize))
			// A second request gets the same answer: the bridge serves
			// errors until agy gives up, never a silence.
			msg2 := rpcError(t, ask(t, b, r, strings.Replace(initialize, `"id":1`, `"id":1`, 1)))
			if msg2 != msg {
				t.Errorf("second answer %q, first %q", msg2, msg)
			}
			code := b.wait(t)
			if code != exitFailed {
				t.Errorf("exit %d, want %d", code, exitFailed)
			}
			stderr := b.stderr.String()
			for _, w := range c.want {
				if !strings.Contains(msg, w) || !strings.Contains(stderr, w) {
					t.Errorf("want %q in the answer %q and on stderr %q", w, msg, stderr)
				}
			}
			if !strings.HasPrefix(msg, "agyhook bridge: ") {
				t.Errorf("answer %q", msg)
			}
			if strings.Contains(msg, canary) || strings.Contains(stderr, canary) {
				t.Errorf("the secret shows: %q %q", msg, stderr)
			}
		})
	}
}

// TestUsage: a malformed command line exits 2 at once, naming the flag,
// never the text after it.
func TestUsage(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"--", "ftp://x"},
		{"--", "https://a", "https://b"},
		{"--header", "Authorization " + canary, "--", "https://x"},
		{"--header-file", "Authorization=relative/path", "--", "https://x"},
		{"--header", "Bad Name=x", "--", "https://x"},
		{"--header", "A=" + canary + "\r\nX: y", "--", "https://x"},
		{"--token=" + canary, "--", "https://x"},
		{"https://x"},
	} {
		var stderr syncBuffer
		code := Main(args, nopReader{}, nopWriter{}, &stderr, Env{})
		if code != exitUsage {
			t.Errorf("%q: exit %d, want %d", args, code, exitUsage)
		}
		if !strings.Contains(stderr.String(), "agyhook bridge") || strings.Contains(stderr.String(), canary) {
			t.Errorf("%q: stderr %q", args, stderr.String())
		}
	}
}

type nopReader struct{}

func (nopReader) Read([]byte) (int, error) { return 0, net.ErrClosed }
func (nopReader) Close() error             { return nil }

type nopWriter struct{}

func (nopWriter) Write(p []byte) (int, error) { return len(p), nil }
func (nopWriter) Close() error                { return nil }

// TestHeadersStayOnTheOrigin: a redirect to another origin gets none of
// the configured headers.
func TestHeadersStayOnTheOrigin(t *testing.T) {
	var leaked atomic.Value
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		leaked.Store(r.Header.Get("Authorization"))
		http.Error(w, "gone", http.StatusGone)
	}))
	defer other.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/mcp", http.StatusTemporaryRedirect)
	}))
	defer srv.Close()
	b := startBridge(t, "--header-file", "Authorization="+tokenFile(t, canary), "--", srv.URL)
	r := bufio.NewReader(b.stdout)
	rpcError(t, ask(t, b, r, initialize))
	if v, _ := leaked.Load().(string); v != "" {
		t.Errorf("the other origin got Authorization %q", v)
	}
	if leaked.Load() == nil {
		t.Error("the redirect was not followed: the test shows nothing")
	}
}

// TestExitsWhenStdinCloses with a call still running on the server.
func TestExitsWhenStdinCloses(t *testing.T) {
	srv := newLoopback(t, "Bearer "+canary, false)
	b := startBridge(t, "--header", "Authorization=Bearer ", "--header-file", "Authorization="+tokenFile(t, canary), "--", srv.URL)
	cs := connect(t, b, "2025-06-18", nil)
	go cs.CallTool(t.Context(), callWait("stuck"))
	select {
	case <-time.After(200 * time.Millisecond):
	case <-srv.cancelled:
	}
	start := time.Now()
	if code := b.wait(t); code != 0 {
		t.Errorf("exit %d: %s", code, b.stderr.String())
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v to exit", d)
	}
	// The session was ended, as agy's own client ends it.
	srv.mu.Lock()
	defer srv.mu.Unlock()
	if srv.deletes != 1 {
		t.Errorf("%d DELETE requests, want 1", srv.deletes)
	}
}

// TestExitsWhenTheServerNeverAnswers: a server that takes the connection
// and never answers (a hung backend behind a proxy) holds agy's first
// message, and a cancellation agy sends after it, forever; the bridge
// still sees stdin close and exits, with every goroutine it started done.
func TestExitsWhenTheServerNeverAnswers(t *testing.T) {
	hung := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-hung:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(hung)
	b := startBridge(t, "--header", "Authorization=Bearer ", "--header-file", "Authorization="+tokenFile(t, canary), "--", srv.URL)
	if _, err := io.WriteString(b.stdin, initialize+"\n"+`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`+"\n"); err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, b.stdout)
	time.Sleep(200 * time.Millisecond)
	b.stdin.Close()
	select {
	case code := <-b.code:
		b.code <- code
	case <-time.After(10 * time.Second):
		t.Fatalf("the bridge did not exit within 10 s of stdin closing; stderr %s", b.stderr.String())
	}
	noBridgeGoroutines(t)
}

// noBridgeGoroutines fails if, a few seconds after the bridge returned,
// a goroutine of the bridge's or of the SDK's is still running.
func noBridgeGoroutines(t *testing.T) {
	t.Helper()
	var left []string
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		buf := make([]byte, 1<<20)
		buf = buf[:runtime.Stack(buf, true)]
		left = left[:0]
		for _, g := range strings.Split(string(buf), "\n\n") {
			if strings.Contains(g, "internal/mcpbridge.") && !strings.Contains(g, "_test.go") || strings.Contains(g, "modelcontextprotocol/go-sdk") {
				left = append(left, g)
			}
		}
		if len(left) == 0 {
			return
		}
	}
	t.Errorf("%d goroutines outlived the bridge:\n%s", len(left), strings.Join(left, "\n\n"))
}

// TestLargeMessages: a message agy sends past the MCP SDK's default line
// limit (16 MiB: a tool call carrying a large file) reaches the server, as
// it would over agy's own connection, and so does the server's answer of
// that size; the bridge goes on serving after both.
func TestLargeMessages(t *testing.T) {
	size := 16<<20 + 1
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Text string `json:"text"`
			} `json:"params"`
		}
		if err := json.NewDecoder(r.Body).Decode(&m); err != nil || m.ID == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"got":%d,"back":%q}}`, m.ID, len(m.Params.Text), m.Params.Text)
	}))
	defer srv.Close()
	b := startBridge(t, "--header", "X-Test=1", "--", srv.URL)
	r := bufio.NewReaderSize(b.stdout, 1<<20)
	if got := ask(t, b, r, initialize); !strings.Contains(got, `"got":0`) {
		t.Fatalf("initialize: %.200s", got)
	}
	// Not ask: under the race detector 16 MiB each way takes longer
	// than its 10 s.
	big := strings.Repeat("x", size)
	go b.stdin.Write([]byte(`{"jsonrpc":"2.0","id":2,"method":"x/big","params":{"text":"` + big + `"}}` + "\n"))
	gotc := make(chan string, 1)
	go func() {
		s, _ := r.ReadString('\n')
		gotc <- s
	}()
	var got string
	select {
	case got = <-gotc:
	case <-time.After(2 * time.Minute):
		t.Fatalf("no answer to the large call; stderr %s", b.stderr.String())
	}
	if !strings.Contains(got, fmt.Sprintf(`"got":%d`, size)) || !strings.Contains(got, big) {
		t.Fatalf("the large call: %.200s; stderr %s", got, b.stderr.String())
	}
	if got := ask(t, b, r, `{"jsonrpc":"2.0","id":3,"method":"x/small","params":{"text":"s"}}`); !strings.Contains(got, `"got":1`) {
		t.Fatalf("after it: %.200s; stderr %s", got, b.stderr.String())
	}
}

// TestRawPassThrough: a method and params no revision of MCP defines, a
// number no float64 holds and positional params reach the server as agy
// wrote them, and the server's answer, error data included, reaches agy
// as the server wrote it.
func TestRawPassThrough(t *testing.T) {
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			http.Error(w, "", http.StatusMethodNotAllowed)
			return
		}
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		dec := json.NewDecoder(r.Body)
		dec.UseNumber()
		if err := dec.Decode(&req); err != nil || len(req.ID) == 0 {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		got = append(got, req.Method+" "+string(req.Params))
		w.Header().Set("Content-Type", "application/json")
		if req.Method == "x-vendor/fail" {
			io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(req.ID)+`,"error":{"code":-32099,"message":"vendor says no","data":{"big":98765432109876543210,"why":["a",1.5e300]}}}`)
			return
		}
		io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(req.ID)+`,"result":{"echo":`+string(req.Params)+`,"big":12345678901234567890}}`)
	}))
	defer srv.Close()
	b := startBridge(t, "--header-file", "Authorization="+tokenFile(t, canary), "--", srv.URL)
	r := bufio.NewReader(b.stdout)
	compact := func(s string) string {
		var buf bytes.Buffer
		if err := json.Compact(&buf, []byte(s)); err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		return buf.String()
	}
	for _, c := range []struct{ req, want string }{
		{`{"jsonrpc":"2.0","id":1,"method":"x-vendor/echo","params":{"big":12345678901234567890,"arr":[1,"a",{"k":null}],"u":"\u00e9\u2028"}}`,
			`{"jsonrpc":"2.0","id":1,"result":{"echo":{"big":12345678901234567890,"arr":[1,"a",{"k":null}],"u":"é\u2028"},"big":12345678901234567890}}`},
		{`{"jsonrpc":"2.0","id":"s-2","method":"x-vendor/echo","params":[1,2,3]}`,
			`{"jsonrpc":"2.0","id":"s-2","result":{"echo":[1,2,3],"big":12345678901234567890}}`},
		{`{"jsonrpc":"2.0","id":3,"method":"x-vendor/fail","params":{}}`,
			`{"jsonrpc":"2.0","id":3,"error":{"code":-32099,"message":"vendor says no","data":{"big":98765432109876543210,"why":["a",1.5e300]}}}`},
	} {
		answer := ask(t, b, r, c.req)
		var a, w any
		da, dw := json.NewDecoder(strings.NewReader(answer)), json.NewDecoder(strings.NewReader(c.want))
		da.UseNumber()
		dw.UseNumber()
		if da.Decode(&a) != nil || dw.Decode(&w) != nil || !reflect.DeepEqual(a, w) {
			t.Errorf("answer %s\nwant   %s", answer, c.want)
		}
	}
	want := []string{
		`x-vendor/echo {"big":12345678901234567890,"arr":[1,"a",{"k":null}],"u":"\u00e9\u2028"}`,
		`x-vendor/echo [1,2,3]`,
		`x-vendor/fail {}`,
	}
	for i := range want {
		if i >= len(got) || compact(got[i][strings.IndexByte(got[i], ' ')+1:]) != compact(want[i][strings.IndexByte(want[i], ' ')+1:]) {
			t.Errorf("the server received %q, want %q", got, want)
			break
		}
	}
}

// TestRuntimeFolderPath: a header file named as sops-nix writes it, %r/…,
// is read from the runtime folder of the environment agy started the
// bridge with.
func TestRuntimeFolderPath(t *testing.T) {
	run := t.TempDir()
	if err := os.MkdirAll(filepath.Join(run, "secrets"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(run, "secrets", "tok"), []byte(canary+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := newLoopback(t, "Bearer "+canary, false)
	b := startBridgeIn(t, []string{"XDG_RUNTIME_DIR=" + run}, "--header", "Authorization=Bearer ", "--header-file", "Authorization=%r/secrets/tok", "--", srv.URL)
	r := bufio.NewReader(b.stdout)
	answer := ask(t, b, r, initialize)
	if !strings.Contains(answer, `"serverInfo":{"name":"loopback"`) {
		t.Errorf("answer %s; stderr %s", answer, b.stderr.String())
	}
}
