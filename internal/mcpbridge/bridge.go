// Package mcpbridge is agyhook-bridge, the program `agyhook bridge` runs:
// a local stdio MCP server, started by agy in place of a remote server
// whose headers hold a secret (agyconf's secret_mode = "exec"), that reads
// those headers' files when agy starts it, connects to the remote server
// and relays MCP both ways. The token stays in its file (a tmpfs, for
// sops-nix and agenix) and in this process's memory; no file agyconf
// writes holds it.
//
// It is the remote counterpart of `agyhook exec-env`, which cannot serve
// here: agy sends a remote server's headers itself, from mcp_config.json.
// The transports are the MCP Go SDK's (streamable HTTP, and HTTP+SSE for
// servers that predate it; stdio towards agy); the relay passes whole
// JSON-RPC messages and reads only what routing needs, so what it does
// not carry is what the SDK's client transport, used on its own, does not
// (docs/agyhook.md, "bridge").
package mcpbridge

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agyconf/agyconf/internal/agyhook"
)

// Exit statuses: as exec-env's.
const (
	exitUsage  = 2
	exitFailed = 1
)

// Env is what the bridge takes from the process it runs in.
type Env struct {
	// Environ is the environment agy started the bridge with: secret paths
	// in the runtime folder are expanded from its XDG_RUNTIME_DIR.
	Environ []string
	// Transport carries the bridge's HTTP requests; nil is net/http's, with
	// the bridge's connection timeouts.
	Transport http.RoundTripper
}

// Main runs the bridge with args (after `agyhook bridge`) and returns its
// exit status once agy has closed stdin: 0, or 1 when the bridge could
// not connect or lost the connection (every request was answered with the
// reason), or at once 2 for a malformed command line.
func Main(args []string, stdin io.ReadCloser, stdout io.WriteCloser, stderr io.Writer, env Env) int {
	logf := func(format string, a ...any) {
		fmt.Fprintf(stderr, "agyhook bridge: "+format+"\n", a...)
	}
	ops, rawURL, err := parseArgs(args)
	if err != nil {
		var ue *usageError
		if errors.As(err, &ue) && ue.Msg == "" {
			fmt.Fprintln(stderr, Usage)
		} else {
			fmt.Fprintf(stderr, "agyhook bridge: %v (%s)\n", err, Usage)
		}
		return exitUsage
	}
	fail := func(err error) int {
		msg := "agyhook bridge: " + err.Error()
		fmt.Fprintln(stderr, msg)
		agyhook.ServeErrors(stdin, stdout, msg)
		return exitFailed
	}
	headers, err := buildHeaders(ops, func(p string) (string, error) { return agyhook.ReadSecret(p, env.Environ) })
	if err != nil {
		return fail(err)
	}
	server, err := newUpstream(rawURL, headers, headerNames(ops), env.Transport)
	if err != nil {
		return fail(err)
	}
	// No cap on a message from agy (the SDK's default is 16 MiB, past
	// which it ends the connection): agy's own connection to the server
	// has none, nor has the other direction here, and stdin is agy's.
	agy, err := (&mcp.IOTransport{Reader: stdin, Writer: stdout, MaxLineLength: -1}).Connect(context.Background())
	if err != nil {
		return fail(err)
	}
	r := newRelay(agy, server, logf)
	if err := r.run(); err != nil {
		logf("reading from agy: %v", err)
		return exitFailed
	}
	if server.failed() || r.lost() {
		return exitFailed
	}
	return 0
}

// headerNames lists the header flags for messages, with paths and never
// values: `--header-file Authorization=/run/secrets/x`.
func headerNames(ops []headerOp) string {
	var parts []string
	seen := map[string]bool{}
	for _, op := range ops {
		var s string
		switch {
		case op.JSONEscape > 0:
			s = "--header-file-json " + op.Name + "=" + showPath(op.Path)
		case op.File:
			s = "--header-file " + op.Name + "=" + showPath(op.Path)
		default:
			s = "--header " + op.Name
		}
		if !seen[s] {
			seen[s] = true
			parts = append(parts, s)
		}
	}
	if len(parts) == 0 {
		return "none sent"
	}
	return strings.Join(parts, ", ")
}
