package codec

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agyconf/agyconf/internal/model"
)

// fuzzKind decodes what a live file may hold into one kind: whatever it
// decodes to, encoding it and decoding that again gives the same value,
// and nothing panics.
func fuzzKind[T any](t *testing.T, e Entry[T], m map[string]any) {
	var x T
	e.Decode(m, &x)
	again := throughJSONValue(t, e.Encode(&x))
	var y T
	if ps := e.Decode(again, &y); len(ps) > 0 {
		t.Fatalf("what encode wrote does not decode: %v\n%#v", ps, again)
	}
	if d := cmp.Diff(x, y); d != "" {
		t.Fatalf("decode(encode(decode(m))) differs from decode(m):\n%s", d)
	}
}

func throughJSONValue(t *testing.T, m map[string]any) map[string]any {
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var out map[string]any
	if err := d.Decode(&out); err != nil {
		t.Fatal(err)
	}
	return out
}

// FuzzDecode reads arbitrary JSON objects as each kind of entry the
// codec knows, as import reads live files.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"command": "x", "args": ["a"], "env": {}, "type": "stdio", "$typeName": "x"}`,
		`{"serverUrl": "https://x", "oauth": {"clientId": "c", "enabled": true}, "tools": {"t": {"eager": false}}}`,
		`{"enabled": false, "Stop": [{"type": "command", "command": "x", "timeout": 5, "description": "d"}], "PreToolUse": [{"matcher": "", "hooks": []}]}`,
		`{"trigger": "glob", "globs": "*.go, *.ts", "name": "r"}`,
		`{"name": "s", "description": "d", "metadata": {"icon": "x"}, "license": "MIT"}`,
		`{"permissions": {"allow": [], "deny": ["command(rm)"]}, "gcp": {"project": "p"}}`,
		`{"timeoutSeconds": 1e3, "disabledTools": [1]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d := json.NewDecoder(bytes.NewReader(data))
		d.UseNumber()
		var m map[string]any
		if d.Decode(&m) != nil || m == nil {
			return
		}
		fuzzKind(t, MCPServer(), m)
		fuzzKind(t, Hook(), m)
		fuzzKind(t, Rule(), m)
		fuzzKind(t, Workflow(), m)
		fuzzKind(t, Agent(), m)
		fuzzKind(t, Skill(), m)
		fuzzKind(t, Plugin(), m)
		fuzzKind(t, Settings(), m)
		var o model.OAuth
		OAuth().Decode(m, &o)
	})
}
