package agyhook

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzServeErrors: whatever agy writes, each answer is one line of JSON:
// an error response with the message, to an id that was asked, and
// nothing else.
func FuzzServeErrors(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}` + "\n",
		`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" + `{"jsonrpc":"2.0","id":"a","method":"tools/list"}`,
		`[{"jsonrpc":"2.0","id":1,"method":"x"},{"jsonrpc":"2.0","method":"y"}]` + "\n",
		"garbage\n\n{}\n", `{"id":null,"method":"x"}` + "\n",
	} {
		f.Add(s)
	}
	const msg = "agyhook bridge: cannot start"
	f.Fuzz(func(t *testing.T, in string) {
		var out bytes.Buffer
		ServeErrors(strings.NewReader(in), &out, msg)
		if out.Len() == 0 {
			return
		}
		if !strings.HasSuffix(out.String(), "\n") {
			t.Fatalf("%q: answer without a newline: %q", in, out.String())
		}
		for _, line := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
			var answers []json.RawMessage
			if strings.HasPrefix(line, "[") {
				if err := json.Unmarshal([]byte(line), &answers); err != nil || len(answers) == 0 {
					t.Fatalf("%q: batch answer %q", in, line)
				}
			} else {
				answers = []json.RawMessage{json.RawMessage(line)}
			}
			for _, a := range answers {
				var r struct {
					JSONRPC string          `json:"jsonrpc"`
					ID      json.RawMessage `json:"id"`
					Error   struct {
						Code    int    `json:"code"`
						Message string `json:"message"`
					} `json:"error"`
				}
				if err := json.Unmarshal(a, &r); err != nil || r.JSONRPC != "2.0" || r.Error.Code != CodeBridgeFailure || r.Error.Message != msg {
					t.Fatalf("%q: answer %q (%v)", in, a, err)
				}
				if len(r.ID) == 0 || string(r.ID) == "null" || !strings.Contains(in, strings.Trim(string(r.ID), `"`)) {
					t.Fatalf("%q: answer to id %s", in, r.ID)
				}
			}
		}
	})
}

// TestServeErrorsAnswersEachRequest and ends with its input.
func TestServeErrorsAnswersEachRequest(t *testing.T) {
	in := `{"jsonrpc":"2.0","id":1,"method":"initialize"}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" +
		strings.Repeat("x", maxErrorLine+10) + "\n" +
		`{"jsonrpc":"2.0","id":"b","method":"tools/list"}`
	var out bytes.Buffer
	ServeErrors(strings.NewReader(in), &out, "m")
	want := `{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"m"}}` + "\n" +
		`{"jsonrpc":"2.0","id":"b","error":{"code":-32603,"message":"m"}}` + "\n"
	if out.String() != want {
		t.Errorf("got %q\nwant %q", out.String(), want)
	}
}

// TestBridgeExecsTheProgramBeside: `agyhook bridge` replaces itself with
// agyhook-bridge beside its own executable, arguments unchanged; without
// one it answers agy's requests with why.
func TestBridgeExecsTheProgramBeside(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "agyhook")
	beside := filepath.Join(dir, BridgeProgram)
	for _, p := range []string{exe, beside} {
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var gotPath string
	var gotArgv []string
	env := Env{
		Executable: func() (string, error) { return exe, nil },
		Exec: func(p string, argv, _ []string) error {
			gotPath, gotArgv = p, argv
			return errors.New("exec refused in a test")
		},
	}
	var stdout, stderr bytes.Buffer
	in := `{"jsonrpc":"2.0","id":7,"method":"initialize"}` + "\n"
	code := Main([]string{"bridge", "--header", "A=b", "--", "https://x"}, strings.NewReader(in), &stdout, &stderr, env)
	if gotPath != beside || strings.Join(gotArgv, " ") != BridgeProgram+" --header A=b -- https://x" {
		t.Errorf("exec %q %q", gotPath, gotArgv)
	}
	if code != bridgeFailed || !strings.Contains(stderr.String(), "exec refused in a test") || !strings.Contains(stdout.String(), `"id":7`) {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}

	// Missing: looked for on PATH, then the answer says where it looked.
	os.Remove(beside)
	env.LookPath = func(string) (string, error) { return "", errors.New("not found") }
	stdout.Reset()
	stderr.Reset()
	code = Main([]string{"bridge", "--", "https://x"}, strings.NewReader(in), &stdout, &stderr, env)
	if code != bridgeFailed || !strings.Contains(stdout.String(), "not found beside agyhook") || !strings.Contains(stderr.String(), beside) {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
}
