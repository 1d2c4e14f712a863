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
		if err := json.Unmarshal(src, &v); err != nil || hasDuplicateKeys(src) {
			// With a key given twice the decoder keeps the last value,
			// while the pointer may name a place in the first one.
			return
		}
		for _, raw := range strings.Split(ptr, "/")[1:] {
			key := strings.NewReplacer("~1", "/", "~0", "~").Replace(raw)
			switch x := v.(type) {
			case map[string]any:
				var found bool
				if v, found = x[key]; !found {
					t.Fatalf("%s: no member %q", ptr, key)
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

// hasDuplicateKeys reports whether an object of valid JSON src names a
// member twice.
func hasDuplicateKeys(src []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(src))
	type frame struct {
		object bool
		keys   map[string]bool
		key    bool // the next string token in an object is a key
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		top := (*frame)(nil)
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{', '[':
				if top != nil && top.object {
					top.key = true
				}
				stack = append(stack, &frame{object: t == '{', keys: map[string]bool{}, key: t == '{'})
			default:
				stack = stack[:len(stack)-1]
			}
		default:
			if top != nil && top.object {
				if top.key {
					k, _ := t.(string)
					if top.keys[k] {
						return true
					}
					top.keys[k] = true
					top.key = false
				} else {
					top.key = true
				}
			}
		}
	}
}
