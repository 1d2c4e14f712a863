package diagfmt

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestPointerAt(t *testing.T) {
	src := []byte(`{
  "mcp_server": {
    "github": {
      "args": [
        "stdio",
        1
      ],
      "comand": "x",
      "env": {"A/B~C": "v"}
    }
  },
  "tools": {}
}
`)
	at := func(needle string, nth int) int {
		i := -1
		for k := 0; k <= nth; k++ {
			j := bytes.Index(src[i+1:], []byte(needle))
			if j < 0 {
				t.Fatalf("no %q", needle)
			}
			i += j + 1
		}
		return i
	}
	for _, c := range []struct {
		offset int
		want   string
	}{
		{at(`"stdio"`, 0), "/mcp_server/github/args/0"},
		{at("        1\n", 0) + 8, "/mcp_server/github/args/1"},
		{at(`"args"`, 0), "/mcp_server/github/args"},
		{at(`"comand"`, 0) + 2, "/mcp_server/github/comand"},
		{at(`"x"`, 0), "/mcp_server/github/comand"},
		{at(`"v"`, 0), "/mcp_server/github/env/A~1B~0C"},
		{at(`"github"`, 0), "/mcp_server/github"},
		{at(`{}`, 0), "/tools"},
		{0, ""},
	} {
		got, ok := PointerAt(src, c.offset)
		if !ok || got != c.want {
			t.Errorf("PointerAt(%d: %q) = %q, %v; want %q", c.offset, src[c.offset:min(c.offset+10, len(src))], got, ok, c.want)
		}
	}
	for _, bad := range []string{``, `{`, `{"a": }`, `[1,,2]`, `{"a" 1}`, `"x`, `{} {}`} {
		if p, ok := PointerAt([]byte(bad), 0); ok {
			t.Errorf("PointerAt(%q) = %q on invalid JSON", bad, p)
		}
	}
	if _, ok := PointerAt(src, len(src)+5); ok {
		t.Error("an offset past the end found a value")
	}
}

// FuzzPointerAt: never a panic, and on valid JSON every offset inside the
// top-level value has a pointer that names a value of the document.
func FuzzPointerAt(f *testing.F) {
	f.Add([]byte(`{"a": [1, {"b": "c\"d"}], "e\u00e9": null}`), 7)
	f.Add([]byte(`[]`), 0)
	f.Fuzz(func(t *testing.T, src []byte, offset int) {
		ptr, ok := PointerAt(src, offset)
		if !ok || !json.Valid(src) {
			return
		}
		var v any
		if err := json.Unmarshal(src, &v); err != nil {
			return
		}
		for _, raw := range strings.Split(ptr, "/")[1:] {
			key := strings.NewReplacer("~1", "/", "~0", "~").Replace(raw)
			switch x := v.(type) {
			case map[string]any:
				var found bool
				if v, found = x[key]; !found {
					// A duplicate key: the decoder kept the last one.
					return
				}
			case []any:
				n := 0
				for _, c := range key {
					n = n*10 + int(c-'0')
				}
				if n >= len(x) {
					t.Fatalf("%s: index %d of %d", ptr, n, len(x))
				}
				v = x[n]
			default:
				t.Fatalf("%s descends into a scalar", ptr)
			}
		}
	})
}
