// Command stdioserver is the smallest stdio MCP server: it answers each
// request line with a canned initialize result, until stdin ends. The
// bridge's start-up benchmark starts it through agyhook exec-env, the
// local counterpart of agyhook bridge.
package main

import (
	"bufio"
	"encoding/json"
	"os"
)

func main() {
	r := bufio.NewReader(os.Stdin)
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			var req struct {
				ID json.RawMessage `json:"id"`
			}
			if json.Unmarshal(line, &req) == nil && len(req.ID) > 0 {
				os.Stdout.Write([]byte(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"stub","version":"1"}}}` + "\n"))
			}
		}
		if err != nil {
			return
		}
	}
}
