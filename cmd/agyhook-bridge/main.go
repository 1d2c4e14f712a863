// Command agyhook-bridge is the program behind `agyhook bridge`: the
// local stdio MCP server agy starts for a remote server whose headers hold
// a secret, which reads the secrets when agy starts it and relays MCP to
// the remote server (internal/mcpbridge). It is separate from agyhook so
// that the hooks, which agy runs before every model call, do not load an
// HTTP client and the MCP SDK (docs/benchmarks.md, "Where the time goes").
package main

import (
	"os"

	"github.com/agyconf/agyconf/internal/mcpbridge"
)

func main() {
	os.Exit(mcpbridge.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, mcpbridge.Env{Environ: os.Environ()}))
}
