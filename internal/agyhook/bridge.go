package agyhook

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/agyconf/agyconf/internal/secretpath"
)

// bridge is `agyhook bridge`, the command agyconf renders for a remote MCP
// server whose headers hold a secret (secret_mode = "exec"): it replaces
// itself (execve) with agyhook-bridge, a separate program beside agyhook,
// which reads the header secrets, connects to the server and relays MCP
// between agy and it.
//
// The bridge is a program of its own because an HTTP client cannot be
// linked into agyhook without slowing every hook: net/http alone made the
// PreInvocation path 2.2x a minimal Go hook, the MCP SDK on top 2.6x
// (docs/benchmarks.md, "Where the time goes"). agyhook stays standard-library
// only; only agy's MCP servers pay for the bridge, once per start.
const bridgeCmd = "bridge"

// BridgeProgram is the file name of the bridge's program, looked for
// beside agyhook's own executable first (the Nix package and `go install`
// put both in one folder), then on PATH.
const BridgeProgram = "agyhook-bridge"

// bridgeFailed is bridge's exit status when agyhook-bridge cannot be
// started; it is returned once agy closes stdin (ServeErrors).
const bridgeFailed = 1

func bridge(args []string, stdin io.Reader, stdout, stderr io.Writer, env Env) int {
	path, err := findBridge(env)
	if err == nil {
		if env.Exec == nil {
			err = errors.New("no exec in this environment")
		} else {
			var environ []string
			if env.Environ != nil {
				environ = env.Environ()
			}
			err = env.Exec(path, append([]string{BridgeProgram}, args...), environ)
			if err != nil {
				err = fmt.Errorf("exec %s: %w", showPath(path), err)
			}
		}
	}
	msg := "agyhook bridge: " + err.Error()
	fmt.Fprintln(stderr, msg)
	// agy waits for the server's answer to initialize: give it one that
	// says what is wrong rather than a process that died silently.
	ServeErrors(stdin, stdout, msg)
	return bridgeFailed
}

// findBridge locates agyhook-bridge: beside agyhook's executable (links
// resolved, so a profile's bin/agyhook link finds the store's folder),
// else on PATH.
func findBridge(env Env) (string, error) {
	var beside string
	if env.Executable != nil {
		if exe, err := env.Executable(); err == nil {
			if real, err := filepath.EvalSymlinks(exe); err == nil {
				exe = real
			}
			beside = filepath.Join(filepath.Dir(exe), BridgeProgram)
			if fi, err := os.Stat(beside); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
				return beside, nil
			}
		}
	}
	if env.LookPath != nil {
		if p, err := env.LookPath(BridgeProgram); err == nil {
			return p, nil
		}
	}
	if beside == "" {
		return "", fmt.Errorf("%s not found on PATH", BridgeProgram)
	}
	return "", fmt.Errorf("%s not found beside agyhook (%s) nor on PATH; it is built from ./cmd/%s and installed with agyhook", BridgeProgram, showPath(beside), BridgeProgram)
}

// ServeErrors answers every request agy sends on in (newline-delimited
// JSON-RPC, MCP's stdio transport) with a JSON-RPC error carrying msg,
// until in ends: what an MCP server that cannot start does so that agy
// shows why (it reports the error of its initialize call) instead of
// waiting for a server that will never answer. Notifications, responses
// and lines that are not JSON-RPC get no answer.
func ServeErrors(in io.Reader, out io.Writer, msg string) {
	r := bufio.NewReaderSize(in, 64<<10)
	w := bufio.NewWriter(out)
	for {
		line, err := readLine(r, maxErrorLine)
		if len(bytes.TrimSpace(line)) > 0 {
			if answer := errorAnswers(line, msg); answer != nil {
				w.Write(answer)
				w.WriteByte('\n')
				if w.Flush() != nil {
					return // agy is gone
				}
			}
		}
		if err != nil {
			return
		}
	}
}

// maxErrorLine bounds what ServeErrors keeps of one line: a request that
// deserves an answer is small, and a longer line is skipped, not buffered.
const maxErrorLine = 1 << 20

// readLine reads one line without its newline; a line longer than limit
// is read through and returned empty.
func readLine(r *bufio.Reader, limit int) ([]byte, error) {
	var line []byte
	long := false
	for {
		chunk, err := r.ReadSlice('\n')
		if !long {
			if len(line)+len(chunk) > limit {
				long, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return bytes.TrimSuffix(line, []byte("\n")), err
	}
}

// errorAnswers is the answer to one line: an error response for a
// request with an id, an array of them for a batch (JSON-RPC 2.0, which
// older MCP revisions allow), nil when nothing is to be answered.
func errorAnswers(line []byte, msg string) []byte {
	line = bytes.TrimSpace(line)
	if len(line) > 0 && line[0] == '[' {
		var batch []json.RawMessage
		if json.Unmarshal(line, &batch) != nil {
			return nil
		}
		var out []json.RawMessage
		for _, m := range batch {
			if a := errorAnswer(m, msg); a != nil {
				out = append(out, a)
			}
		}
		if len(out) == 0 {
			return nil
		}
		b, _ := json.Marshal(out)
		return b
	}
	return errorAnswer(line, msg)
}

func errorAnswer(m []byte, msg string) []byte {
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method *string         `json:"method"`
	}
	if json.Unmarshal(m, &req) != nil || req.Method == nil || len(req.ID) == 0 || string(req.ID) == "null" {
		return nil
	}
	b, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   rpcError        `json:"error"`
	}{"2.0", req.ID, rpcError{CodeBridgeFailure, msg}})
	if err != nil {
		return nil
	}
	return b
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// CodeBridgeFailure is the JSON-RPC error code of every answer the bridge
// makes up itself (the server never saw the request, or could not be
// reached): JSON-RPC's "internal error", as agy shows any error's message.
const CodeBridgeFailure = -32603

// ReadSecret reads a secret file named as agyconf renders it: an absolute
// path or one starting with the runtime folder (%r/…, ${XDG_RUNTIME_DIR}/…),
// expanded from environ as exec-env does, then read under exec-env's rules
// (a regular file of at most MaxSecretFile bytes, no NUL, one trailing
// newline removed). Errors never hold the content.
func ReadSecret(path string, environ []string) (string, error) {
	full, err := secretpath.Expand(path, runtimeEnv(environ))
	if err != nil {
		return "", err
	}
	return readSecretFile(full)
}
