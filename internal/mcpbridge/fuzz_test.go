package mcpbridge

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// FuzzBridgeArgs: any command line is parsed without a panic; an error
// never shows a header file's content; the headers built carry no line
// break, and each is the concatenation of its parts.
func FuzzBridgeArgs(f *testing.F) {
	for _, s := range []string{
		"", "--", "--\x00https://x", "--header\x00A=1\x00--\x00https://x",
		"--header\x00Authorization=Bearer \x00--header-file\x00Authorization=/s\x00--\x00https://x/mcp",
		"--header-file-json\x00J=2:/s\x00--\x00http://h:1/p", "--header-file\x00A=rel\x00--\x00https://x",
		"--bogus=1", "--header\x00=x\x00--\x00https://x", "--header-file\x00A=%r/t\x00--\x00https://x",
	} {
		f.Add(s, "v\n")
	}
	f.Fuzz(func(t *testing.T, joined, content string) {
		args := strings.Split(joined, "\x00")
		ops, u, err := parseArgs(args)
		if err != nil {
			var ue *usageError
			if !errors.As(err, &ue) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("%q: %v", args, err)
			}
			return
		}
		if checkURL(u) != nil {
			t.Fatalf("%q: URL %q accepted", args, u)
		}
		read := func(p string) (string, error) {
			if strings.Contains(content, "!") {
				return "", errors.New("unreadable")
			}
			return canary + content, nil
		}
		h, err := buildHeaders(ops, read)
		if err != nil {
			if strings.Contains(err.Error(), canary) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("%q: %q", args, err)
			}
			return
		}
		want := map[string]string{}
		for _, op := range ops {
			k := http.CanonicalHeaderKey(op.Name)
			if op.File {
				v, _ := read(op.Path)
				if op.JSONEscape == 0 {
					want[k] += v
					continue
				}
				b, _ := json.Marshal(v)
				want[k] += strings.Trim(string(b), `"`) // checked below only without escapes
				continue
			}
			want[k] += op.Text
		}
		for k, vs := range h {
			if len(vs) != 1 || !validHeaderText(vs[0]) {
				t.Fatalf("%q: header %s = %q", args, k, vs)
			}
			if !strings.Contains(joined, "-json") && vs[0] != want[k] {
				t.Fatalf("%q: header %s = %q, want %q", args, k, vs[0], want[k])
			}
		}
	})
}

// FuzzRelay drives the relay with exchanges made from the fuzzer's bytes
// (each byte a call, a cancellation of an open call, a notification or an
// answer to the server) and the fakes' randomness from its seed, under
// TestRelayProperties's checks.
func FuzzRelay(f *testing.F) {
	f.Add([]byte{0, 1, 2, 5, 6, 9}, uint64(1))
	f.Add([]byte{0, 0, 0, 15, 25, 35, 8}, uint64(7))
	f.Fuzz(func(t *testing.T, data []byte, seed uint64) {
		if len(data) > 64 {
			data = data[:64]
		}
		checkRelayScript(t, scriptFrom(data), seed)
	})
}

// scriptFrom turns bytes into agy's side of an exchange.
func scriptFrom(data []byte) []op {
	var ops []op
	var open []int64
	next := int64(1)
	for i, b := range data {
		switch k := b % 10; {
		case k < 5:
			ops = append(ops, op{msg: &jsonrpc.Request{ID: intID(next), Method: "tools/call", Params: json.RawMessage(fmt.Sprintf(`{"n":%d}`, next))}})
			open = append(open, next)
			next++
		case k < 7 && len(open) > 0:
			j := int(b/10) % len(open)
			id := open[j]
			open = append(open[:j], open[j+1:]...)
			ops = append(ops, op{msg: &jsonrpc.Request{Method: "notifications/cancelled", Params: json.RawMessage(fmt.Sprintf(`{"requestId":%d}`, id))}, cancels: id})
		case k < 9:
			ops = append(ops, op{msg: &jsonrpc.Request{Method: "notifications/progress", Params: json.RawMessage(fmt.Sprintf(`{"i":%d}`, i))}})
		default:
			sid, _ := jsonrpc.MakeID(fmt.Sprintf("s%d", i))
			ops = append(ops, op{msg: &jsonrpc.Response{ID: sid, Result: json.RawMessage(`{}`)}})
		}
	}
	return ops
}
