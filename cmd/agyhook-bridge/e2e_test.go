//go:build unix

package main_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agyconf/agyconf/internal/cli"
	"github.com/agyconf/agyconf/internal/testhome"
)

// agyconf renders a config whose remote server's header holds a secret;
// the test then starts the command that mcp_config.json names, as agy
// starts an MCP server (an argv, no shell, MCP on stdin and stdout), with
// the real agyhook and agyhook-bridge side by side (the tools block names
// agyhook; agyconf finds the bridge beside it).

var binDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "agyhook-bridge-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binDir = dir
	for _, b := range [][2]string{{"agyhook", "../agyhook"}, {"agyhook-bridge", "."}, {"stdioserver", "./testdata/stdioserver"}} {
		// Built as package.nix builds them: static (no cgo, so net's
		// resolver is Go's and nothing is linked at start) and stripped.
		build := exec.Command("go", "build", "-ldflags=-s -w", "-o", filepath.Join(dir, b[0]), b[1])
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		build.Stderr = os.Stderr
		if err := build.Run(); err != nil {
			fmt.Fprintln(os.Stderr, "building", b[0]+":", err)
			os.RemoveAll(dir)
			os.Exit(1)
		}
	}
	code := testhome.Run(m) // agyconf's default config, state and root are never the user's
	os.RemoveAll(dir)
	os.Exit(code)
}

const token = "CANARY-tok3n-at-rest"

// rendered is a home agyconf rendered into, and the server's command.
type rendered struct {
	home, secrets string
	argv          []string
	outputs       string // agyconf's stdout and stderr
}

func renderRemote(t *testing.T, url string) rendered {
	t.Helper()
	dir := t.TempDir()
	r := rendered{home: filepath.Join(dir, "home"), secrets: filepath.Join(dir, "run", "secrets")}
	if err := os.MkdirAll(r.home, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(r.secrets, 0o700); err != nil {
		t.Fatal(err)
	}
	tok := filepath.Join(r.secrets, "remote-token")
	if err := os.WriteFile(tok, []byte(token+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "agyconf.hcl")
	src := fmt.Sprintf(`agyconf {
  scope   = "global"
  product = "cli"
}
tools {
  agyhook = %q
}
mcp_server "remote" {
  server_url = %q
  headers    = { Authorization = "Bearer ${secret_file(%q)}", X-Team = "blue" }
}
`, filepath.Join(binDir, "agyhook"), url, tok)
	if err := os.WriteFile(cfg, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	for _, args := range [][]string{{"render"}, {"status"}, {"diff"}, {"render", "--check"}} {
		var stdout, stderr bytes.Buffer
		code := cli.Main(append(append([]string{"agyconf"}, args...), "--config", cfg, "--root", r.home), &stdout, &stderr)
		fmt.Fprintf(&out, "%s%s", stdout.String(), stderr.String())
		if code != 0 {
			t.Fatalf("agyconf %s: exit %d\n%s%s", args[0], code, stdout.String(), stderr.String())
		}
	}
	r.outputs = out.String()
	data, err := os.ReadFile(filepath.Join(r.home, ".gemini/config/mcp_config.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		MCPServers map[string]struct {
			Command   string   `json:"command"`
			Args      []string `json:"args"`
			ServerURL string   `json:"serverUrl"`
			Headers   any      `json:"headers"`
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	s := doc.MCPServers["remote"]
	if s.Command == "" || s.ServerURL != "" || s.Headers != nil {
		t.Fatalf("the server is not rendered as a bridge: %s", data)
	}
	r.argv = append([]string{s.Command}, s.Args...)
	return r
}

// noToken: nothing under the home (the rendered files, the state, any
// backup), and none of agyconf's output, holds the token.
func noToken(t *testing.T, r rendered) {
	t.Helper()
	if strings.Contains(r.outputs, token) {
		t.Errorf("agyconf's output holds the token")
	}
	n := 0
	err := filepath.WalkDir(r.home, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		n++
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if bytes.Contains(data, []byte(token)) {
			t.Errorf("%s holds the token", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 2 {
		t.Fatalf("only %d files under the home: the scan shows nothing", n)
	}
}

// startAsAgy starts argv as agy starts an MCP server.
func startAsAgy(t *testing.T, argv []string) (*exec.Cmd, io.WriteCloser, *bufio.Reader, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=/nonexistent"}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			t.Error("the server command did not exit within 10 s of stdin closing")
		}
		if strings.Contains(stderr.String(), token) {
			t.Errorf("stderr holds the token: %s", stderr.String())
		}
	})
	return cmd, stdin, bufio.NewReader(stdout), &stderr
}

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"agy","version":"test"}}}`

const stubAnswer = `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"stub","version":"1"}}}`

// TestTheBar: with the default secret_mode nothing under the home holds
// the token, and the command mcp_config.json names, started as agy starts
// it, sends the header to a stub server on loopback and returns its
// answer to initialize.
func TestTheBar(t *testing.T) {
	var mu sync.Mutex
	var seen []http.Header
	stub := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Clone())
		mu.Unlock()
		if r.Method != http.MethodPost {
			http.Error(w, "", http.StatusMethodNotAllowed)
			return
		}
		body, _ := io.ReadAll(r.Body)
		if !bytes.Contains(body, []byte(`"initialize"`)) {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, stubAnswer)
	}))
	defer stub.Close()
	r := renderRemote(t, stub.URL+"/mcp")
	noToken(t, r)
	cmd, stdin, stdout, stderr := startAsAgy(t, r.argv)
	if _, err := io.WriteString(stdin, initialize+"\n"); err != nil {
		t.Fatal(err)
	}
	line, err := readLine(stdout, 10*time.Second)
	if err != nil {
		t.Fatalf("no answer to initialize: %v; stderr %s", err, stderr.String())
	}
	var got, want any
	json.Unmarshal([]byte(line), &got)
	json.Unmarshal([]byte(stubAnswer), &want)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("answer %s, want the stub's %s", line, stubAnswer)
	}
	mu.Lock()
	if len(seen) == 0 || seen[0].Get("Authorization") != "Bearer "+token || seen[0].Get("X-Team") != "blue" {
		t.Errorf("the stub saw %v", seen)
	}
	mu.Unlock()
	stdin.Close()
	if err := waitExit(cmd, 10*time.Second); err != nil {
		t.Errorf("exit: %v; stderr %s", err, stderr.String())
	}
}

// TestThroughTheRenderedCommand: the SDK's server on loopback, the SDK's
// client as agy, the rendered command between: tools listed and called, a
// server-to-client request answered, a call cancelled.
func TestThroughTheRenderedCommand(t *testing.T) {
	cancelled := make(chan struct{}, 1)
	srv := mcp.NewServer(&mcp.Implementation{Name: "loopback", Version: "1"}, nil)
	type in struct {
		Text string `json:"text"`
	}
	type out struct {
		Text string `json:"text"`
	}
	mcp.AddTool(srv, &mcp.Tool{Name: "echo"}, func(ctx context.Context, req *mcp.CallToolRequest, a in) (*mcp.CallToolResult, out, error) {
		return nil, out{Text: "echo: " + a.Text}, nil
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "ask"}, func(ctx context.Context, req *mcp.CallToolRequest, a in) (*mcp.CallToolResult, out, error) {
		res, err := req.Session.CreateMessage(ctx, &mcp.CreateMessageParams{MaxTokens: 5, Messages: []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: a.Text}}}})
		if err != nil {
			return nil, out{}, err
		}
		return nil, out{Text: res.Content.(*mcp.TextContent).Text}, nil
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "wait"}, func(ctx context.Context, req *mcp.CallToolRequest, a in) (*mcp.CallToolResult, out, error) {
		<-ctx.Done()
		cancelled <- struct{}{}
		return nil, out{}, ctx.Err()
	})
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+token {
			http.Error(w, "", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	}))
	defer ts.Close()
	r := renderRemote(t, ts.URL)
	noToken(t, r)

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.Command(r.argv[0], r.argv[1:]...)
	cmd.Env = []string{"PATH=/usr/bin:/bin"}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "agy", Version: "test"}, &mcp.ClientOptions{
		CreateMessageHandler: func(_ context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			return &mcp.CreateMessageResult{Model: "m", Role: "assistant", Content: &mcp.TextContent{Text: "sampled " + req.Params.Messages[0].Content.(*mcp.TextContent).Text}}, nil
		},
	})
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatalf("connect: %v; stderr %s", err, stderr.String())
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) != 3 {
		t.Fatalf("tools %v, %v", tools, err)
	}
	for name, want := range map[string]string{"echo": `{"text":"echo: hi"}`, "ask": `{"text":"sampled hi"}`} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: map[string]any{"text": "hi"}})
		if err != nil || res.IsError || res.Content[0].(*mcp.TextContent).Text != want {
			t.Errorf("%s: %v %v", name, res, err)
		}
	}
	wctx, wcancel := context.WithCancel(ctx)
	go func() {
		time.Sleep(200 * time.Millisecond)
		wcancel()
	}()
	if _, err := cs.CallTool(wctx, &mcp.CallToolParams{Name: "wait", Arguments: map[string]any{"text": ""}}); err == nil {
		t.Error("the cancelled call succeeded")
	}
	select {
	case <-cancelled:
	case <-time.After(10 * time.Second):
		t.Error("the server never saw the cancellation")
	}
	if err := cs.Close(); err != nil {
		t.Errorf("close: %v; stderr %s", err, stderr.String())
	}
	if strings.Contains(stderr.String(), token) {
		t.Errorf("stderr holds the token: %s", stderr.String())
	}
}

func readLine(r *bufio.Reader, d time.Duration) (string, error) {
	type res struct {
		s   string
		err error
	}
	c := make(chan res, 1)
	go func() {
		s, err := r.ReadString('\n')
		c <- res{s, err}
	}()
	select {
	case x := <-c:
		return x.s, x.err
	case <-time.After(d):
		return "", fmt.Errorf("nothing within %v", d)
	}
}

func waitExit(cmd *exec.Cmd, d time.Duration) error {
	c := make(chan error, 1)
	go func() { c <- cmd.Wait() }()
	select {
	case err := <-c:
		return err
	case <-time.After(d):
		cmd.Process.Kill()
		return fmt.Errorf("still running after %v", d)
	}
}
