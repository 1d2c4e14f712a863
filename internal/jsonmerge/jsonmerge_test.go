package jsonmerge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// userFile is the kind of file agyconf merges into: written by someone
// else, with their own order, spellings and formatting.
const userFile = "{\r\n" +
	"    \"zeta\": 1.0,\n" +
	"    \"mcpServers\": {\n" +
	"        \"theirs\": {\"command\": \"npx\", \"args\": [\"-y\", \"caf\\u00e9\"], \"env\": {\"Z\": \"1\", \"A\": \"2\"}},\n" +
	"        \"ours\": {\"command\": \"old\"}\n" +
	"    },\n" +
	"    \"alpha\": [1e3, -0, 0.50, \"\\/\", {\"b\": true, \"a\": null}],\n" +
	"    \"empty\": { },\n" +
	"\t\"none\": [ ]\n" +
	"}"

// jsoncFile is an mcp_config.json as a person writes one for agy 1.1.24 and
// later: comments, trailing commas, a byte order mark, tabs.
const jsoncFile = "\xef\xbb\xbf// MCP servers, see the wiki\n{\n" +
	"\t\"mcpServers\": {\n" +
	"\t\t// GitHub: mine\n" +
	"\t\t\"github\": {\n" +
	"\t\t\t\"command\": \"gh\", // the CLI\n" +
	"\t\t\t/* its args */ \"args\": [\"mcp\", \"stdio\",],\n" +
	"\t\t\t\"env\": {\"GH_HOST\": \"github.com\"}, // for GHE\n" +
	"\t\t},\n" +
	"\t\t\"theirs\": {\"command\": \"npx\" /* pinned */},\n" +
	"\t},\n" +
	"}\n// end\n"

// TestBytesOfUneditedIsSource: a document nobody edited is written back as
// it was read, byte for byte, whatever its layout.
func TestBytesOfUneditedIsSource(t *testing.T) {
	for _, in := range []string{userFile, `{}`, " {\n\n\t} \n\n", `{"a":[1,{"b":[]}],"c":"\u0000"}`, " {\"x\" :\n\t\"y\" } ",
		`{"n":[1.0,1e3,1E+03,-0,0.10,-1.5e-7,123456789012345678901234567890]}`, "{\r\n  \"a\": 1\r\n}\r\n"} {
		if got := string(mustParse(t, in).Bytes()); got != in {
			t.Errorf("Bytes of %q = %q", in, got)
		}
	}
	d, err := ParseWith([]byte(jsoncFile), JSONC)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(d.Bytes()); got != jsoncFile {
		t.Errorf("Bytes of the JSONC file = %q", got)
	}
}

// TestBytesIsStable: what agyconf writes, it reads back to the same bytes,
// so a second run with nothing to change rewrites nothing.
func TestBytesIsStable(t *testing.T) {
	edited := mustParse(t, userFile)
	if err := edited.Set(json.RawMessage(`{"command":"new","args":[ "x" ]}`), "mcpServers", "ours"); err != nil {
		t.Fatal(err)
	}
	if err := edited.AddString("command(git *)", "permissions", "allow"); err != nil {
		t.Fatal(err)
	}
	edited.Delete("zeta")
	for name, d := range map[string]*Doc{"unedited": mustParse(t, userFile), "edited": edited} {
		first := d.Bytes()
		again := mustParse(t, string(first)).Bytes()
		if diff := cmp.Diff(string(first), string(again)); diff != "" {
			t.Errorf("%s: Bytes of Bytes (-first +second):\n%s", name, diff)
		}
	}
}

func TestSet(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		value string
		path  []string
		want  string // compact form of Bytes, for readability
	}{
		{"replace in place keeps position", `{"a":1,"b":2,"c":3}`, `"x"`, []string{"b"}, `{"a":1,"b":"x","c":3}`},
		{"replace the first", `{"a":1,"b":2}`, `null`, []string{"a"}, `{"a":null,"b":2}`},
		{"new member is appended", `{"b":1,"a":2}`, `3`, []string{"c"}, `{"b":1,"a":2,"c":3}`},
		{"new member in a nested object", `{"o":{"y":1,"x":2},"z":0}`, `3`, []string{"o", "w"}, `{"o":{"y":1,"x":2,"w":3},"z":0}`},
		{"replace in a nested object", `{"o":{"y":1,"x":2},"z":0}`, `[1]`, []string{"o", "y"}, `{"o":{"y":[1],"x":2},"z":0}`},
		{"intermediates created and appended", `{"a":1}`, `true`, []string{"p", "q", "r"}, `{"a":1,"p":{"q":{"r":true}}}`},
		{"some intermediates exist", `{"p":{"x":1},"z":2}`, `true`, []string{"p", "q", "r"}, `{"p":{"x":1,"q":{"r":true}},"z":2}`},
		{"object replaced wholesale", `{"s":{"ours":{"command":"old","keep":"no"}}}`, `{"command":"new"}`, []string{"s", "ours"}, `{"s":{"ours":{"command":"new"}}}`},
		{"value keeps its order and spellings", `{"a":1}`, "{\"z\":1.0,\n \"a\":\"\\u00e9\"}", []string{"v"}, `{"a":1,"v":{"z":1.0,"a":"\u00e9"}}`},
		{"whitespace around the value", `{}`, " \n\t7 \n", []string{"v"}, `{"v":7}`},
		{"name needing escapes", `{}`, `1`, []string{"a\"b\n\\é"}, `{"a\"b\n\\é":1}`},
		{"name matched decoded", `{"caf\u00e9":1}`, `2`, []string{"café"}, `{"caf\u00e9":2}`},
		{"empty name", `{"":1}`, `2`, []string{""}, `{"":2}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := mustParse(t, tt.in)
			if err := d.Set(json.RawMessage(tt.value), tt.path...); err != nil {
				t.Fatalf("Set: %v", err)
			}
			if diff := cmp.Diff(tt.want, compact(t, d.Bytes())); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			got, ok := d.Get(tt.path...)
			if !ok {
				t.Fatalf("Get after Set: nothing there")
			}
			if diff := cmp.Diff(compact(t, []byte(tt.value)), compact(t, got)); diff != "" {
				t.Errorf("Get after Set (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSetThenEditInside checks that an object given to Set is a real part of
// the tree, not an opaque blob.
func TestSetThenEditInside(t *testing.T) {
	d := mustParse(t, `{}`)
	if err := d.Set(json.RawMessage(`{"b":{"c":1},"a":2}`), "x"); err != nil {
		t.Fatal(err)
	}
	if err := d.Set(json.RawMessage(`3`), "x", "b", "d"); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"b", "a"}, d.Keys("x")); diff != "" {
		t.Errorf("Keys (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(`{"x":{"b":{"c":1,"d":3},"a":2}}`, compact(t, d.Bytes())); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestSetErrors(t *testing.T) {
	const in = `{"s":"str","a":[1],"o":{"n":null}}`
	tests := []struct {
		name   string
		value  string
		path   []string
		want   string
		target error // nil: only the message is checked
	}{
		{"empty path", `{}`, nil, "set: empty path; the top-level object cannot be replaced", nil},
		{"through a string", `1`, []string{"s", "x"}, "set /s/x: /s is a string, not an object", ErrNotObject},
		{"through an array", `1`, []string{"a", "0"}, "set /a/0: /a is an array, not an object", ErrNotObject},
		{"through null, deeper", `1`, []string{"o", "n", "x", "y"}, "set /o/n/x/y: /o/n is null, not an object", ErrNotObject},
		{"empty value", ``, []string{"v"}, "set /v: value: 1:1: unexpected end of the text; expected a value", nil},
		{"two values", `1 2`, []string{"v"}, "set /v: value: 1:3: unexpected \"2\" after the top-level value", nil},
		{"trailing comma in value", `[1,]`, []string{"v"}, "set /v: value: 1:3: trailing comma before ']'; JSON does not allow one", nil},
		{"duplicate in value", `{"k":1,"k":2}`, []string{"v"}, "set /v: value: 1:8: duplicate key \"k\" (first at 1:2)", nil},
		{"name not UTF-8", `1`, []string{"o", "\xff"}, "set /o/\xff: member name \"\\xff\" is not valid UTF-8", nil},
		{"pointer escapes names", `1`, []string{"s", "a/b~"}, "set /s/a~1b~0: /s is a string, not an object", ErrNotObject},
		{"too deep", `1`, make([]string, maxDepth+1), "set " + strings.Repeat("/", maxDepth+1) + ": the document would nest deeper than 10000 objects and arrays", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := mustParse(t, in)
			before := d.Bytes()
			err := d.Set(json.RawMessage(tt.value), tt.path...)
			if err == nil {
				t.Fatal("Set succeeded")
			}
			if diff := cmp.Diff(tt.want, err.Error()); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			if tt.target != nil && !errors.Is(err, tt.target) {
				t.Errorf("errors.Is(%v, %v) is false", err, tt.target)
			}
			if diff := cmp.Diff(string(before), string(d.Bytes())); diff != "" {
				t.Errorf("a failed Set changed the document (-before +after):\n%s", diff)
			}
			if got, _ := d.Get(); string(got) != in {
				t.Errorf("a failed Set made the root lose its source text: %s", got)
			}
		})
	}
}

func TestSetDepthLimit(t *testing.T) {
	d := mustParse(t, `{}`)
	deep := strings.Repeat("[", maxDepth-2) + strings.Repeat("]", maxDepth-2)
	if err := d.Set(json.RawMessage(deep), "a", "b"); err != nil {
		t.Fatalf("Set at exactly the limit: %v", err)
	}
	// Get rather than Bytes: indenting 10,000 levels writes 100 MB.
	root, _ := d.Get()
	if _, err := Parse(root); err != nil {
		t.Fatalf("the document at the limit does not parse: %v", err)
	}
	if err := d.Set(json.RawMessage(deep), "a", "b", "c"); err == nil {
		t.Fatal("Set one past the limit succeeded")
	}
	// AddString makes an array under its path.
	if err := d.AddString("x", make([]string, maxDepth-1)...); err != nil {
		t.Fatalf("AddString at exactly the limit: %v", err)
	}
	if err := d.AddString("x", make([]string, maxDepth)...); err == nil {
		t.Fatal("AddString one past the limit succeeded")
	}
}

func TestDelete(t *testing.T) {
	tests := []struct {
		name string
		in   string
		path []string
		ok   bool
		want string
	}{
		{"middle keeps the others' order", `{"c":1,"a":2,"b":3}`, []string{"a"}, true, `{"c":1,"b":3}`},
		{"last", `{"c":1,"a":2}`, []string{"a"}, true, `{"c":1}`},
		{"only", `{"a":2}`, []string{"a"}, true, `{}`},
		{"nested", `{"o":{"y":1,"x":2,"w":3},"z":0}`, []string{"o", "x"}, true, `{"o":{"y":1,"w":3},"z":0}`},
		{"nested object stays when emptied", `{"o":{"x":2}}`, []string{"o", "x"}, true, `{"o":{}}`},
		{"whole subtree", `{"o":{"x":{"y":1}},"z":0}`, []string{"o"}, true, `{"z":0}`},
		{"absent", `{"a":1}`, []string{"b"}, false, `{"a":1}`},
		{"absent parent", `{"a":1}`, []string{"b", "c"}, false, `{"a":1}`},
		{"through a non-object", `{"a":[{"c":1}]}`, []string{"a", "c"}, false, `{"a":[{"c":1}]}`},
		{"empty path", `{"a":1}`, nil, false, `{"a":1}`},
		{"matched decoded", `{"caf\u00e9":1,"b":2}`, []string{"café"}, true, `{"b":2}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := mustParse(t, tt.in)
			if got := d.Delete(tt.path...); got != tt.ok {
				t.Errorf("Delete = %v, want %v", got, tt.ok)
			}
			if diff := cmp.Diff(tt.want, compact(t, d.Bytes())); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestGet(t *testing.T) {
	const in = "{\"a\": {\"y\" : 1.0,\n \"x\": [1 , 2]}, \"s\": \"\\u00e9\", \"n\": null}"
	d := mustParse(t, in)
	tests := []struct {
		name string
		path []string
		want string
		ok   bool
	}{
		{"root, exactly as written", nil, in, true},
		{"object, exactly as written", []string{"a"}, "{\"y\" : 1.0,\n \"x\": [1 , 2]}", true},
		{"array, exactly as written", []string{"a", "x"}, "[1 , 2]", true},
		{"string keeps its escape", []string{"s"}, `"\u00e9"`, true},
		{"null is there", []string{"n"}, `null`, true},
		{"absent", []string{"b"}, "", false},
		{"through a scalar", []string{"s", "x"}, "", false},
		{"through an array", []string{"a", "x", "0"}, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := d.Get(tt.path...)
			if ok != tt.ok {
				t.Fatalf("Get ok = %v, want %v", ok, tt.ok)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}

	// An edit makes every object on its path compact, with the unedited
	// parts still as written.
	if err := d.Set(json.RawMessage(`2`), "a", "z"); err != nil {
		t.Fatal(err)
	}
	got, _ := d.Get("a")
	if diff := cmp.Diff(`{"y":1.0,"x":[1 , 2],"z":2}`, string(got)); diff != "" {
		t.Errorf("Get after an edit (-want +got):\n%s", diff)
	}
	got, _ = d.Get()
	if diff := cmp.Diff(`{"a":{"y":1.0,"x":[1 , 2],"z":2},"s":"\u00e9","n":null}`, string(got)); diff != "" {
		t.Errorf("Get of the root after an edit (-want +got):\n%s", diff)
	}

	// The result is the caller's to change.
	got, _ = d.Get("a", "x")
	copy(got, "XXX")
	if again, _ := d.Get("a", "x"); string(again) != "[1 , 2]" {
		t.Errorf("changing Get's result changed the document: %s", again)
	}
}

func TestKeys(t *testing.T) {
	d := mustParse(t, `{"z":{"b":1,"a":{},"c":2},"y":[],"e":{},"caf\u00e9":1}`)
	tests := []struct {
		name string
		path []string
		want []string
	}{
		{"root", nil, []string{"z", "y", "e", "café"}},
		{"nested, in order", []string{"z"}, []string{"b", "a", "c"}},
		{"empty object", []string{"e"}, []string{}},
		{"empty nested object", []string{"z", "a"}, []string{}},
		{"array", []string{"y"}, nil},
		{"scalar", []string{"z", "b"}, nil},
		{"absent", []string{"x"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, d.Keys(tt.path...)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestMergeKeepsTheRest is the use agyconf makes of the package: replace its
// own entries in a file it shares, and leave everything else as it was.
func TestMergeKeepsTheRest(t *testing.T) {
	d := mustParse(t, userFile)
	if err := d.Set(json.RawMessage(`{"command": "agyconf-mcp", "args": []}`), "mcpServers", "ours"); err != nil {
		t.Fatal(err)
	}
	if err := d.Set(json.RawMessage(`{"command": "added"}`), "mcpServers", "new"); err != nil {
		t.Fatal(err)
	}
	// Only "ours" changed and "new" was added, in the file's own layout
	// (its first line break is CRLF, so the new lines end in one).
	want := strings.Replace(userFile, `"ours": {"command": "old"}`,
		`"ours": {"command": "agyconf-mcp", "args": []},`+"\n"+
			"        \"new\": {\r\n            \"command\": \"added\"\r\n        }\r", 1)
	if diff := cmp.Diff(want, string(d.Bytes())); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// compact removes the indentation Bytes adds, so that expectations stay on
// one line. It is json.Compact, which keeps order and spellings.
func compact(t *testing.T, b []byte) string {
	t.Helper()
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		t.Fatalf("Bytes is not JSON: %v\n%s", err, b)
	}
	return out.String()
}

// TestManyServersLinear: agyconf looks each server up about three times
// (Get, Set, and the rebuild before the write); scanning the members made
// that quadratic. Ten times the servers take about ten times as long, not
// a hundred (checked with a wide margin), and give the same bytes a
// linear scan would (the index finds the same member).
func TestManyServersLinear(t *testing.T) {
	run := func(n int) (time.Duration, []byte) {
		var b strings.Builder
		b.WriteString("{\n  \"mcpServers\": {\n")
		for i := range n {
			if i > 0 {
				b.WriteString(",\n")
			}
			fmt.Fprintf(&b, "    \"s%05d\": {\"command\": \"c%d\"}", i, i)
		}
		b.WriteString("\n  }\n}\n")
		start := time.Now()
		d := mustParse(t, b.String())
		for i := range n {
			name := fmt.Sprintf("s%05d", i)
			if _, ok := d.Get("mcpServers", name); !ok {
				t.Fatalf("%s not found", name)
			}
			if err := d.Set(json.RawMessage(fmt.Sprintf(`{"command":"c%d","args":["x"]}`, i)), "mcpServers", name); err != nil {
				t.Fatal(err)
			}
		}
		return time.Since(start), d.Bytes()
	}
	small, _ := run(1000)
	big, out := run(10000)
	if big > 40*small+50*time.Millisecond {
		t.Errorf("10,000 servers took %s, 1,000 took %s: not linear", big, small)
	}
	if !bytes.Contains(out, []byte("\"s09999\": {\"command\": \"c9999\", \"args\": [\"x\"]}\n")) {
		t.Errorf("the last server was not merged in place: %.200s", out[len(out)-200:])
	}
}

// TestEmptiedAgain: a container emptied by deletes is written {}, and
// an entry added to it and removed again gives {} back, not the layout
// the added entry had (found by review).
func TestEmptiedAgain(t *testing.T) {
	d, err := Parse([]byte("{\n  \"p\": {\n    \"a\": 1\n  }\n}\n"))
	if err != nil {
		t.Fatal(err)
	}
	d.Delete("p", "a")
	want := "{\n  \"p\": {}\n}\n"
	if got := string(d.Bytes()); got != want {
		t.Fatalf("emptied: %q, want %q", got, want)
	}
	if err := d.Set([]byte("1"), "p", "b"); err != nil {
		t.Fatal(err)
	}
	d.Delete("p", "b")
	if got := string(d.Bytes()); got != want {
		t.Errorf("added and removed again: %q, want %q", got, want)
	}
}

// TestReplaceKeepsText: Replace puts a value back exactly as its text is
// (member order, layout, escapes), where Set would merge it into the
// value there; absent, it is appended as Set appends.
func TestReplaceKeepsText(t *testing.T) {
	src := "{\n  \"mcpServers\": {\n    \"a\": {\n      \"command\": \"theirs\"\n    },\n    \"b\": 1\n  }\n}\n"
	orig := "{\n      \"args\": [\"--x\"],\n      \"command\": \"mine\\u0021\"\n    }"
	d, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Replace(json.RawMessage(orig), "mcpServers", "a"); err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"mcpServers\": {\n    \"a\": " + orig + ",\n    \"b\": 1\n  }\n}\n"
	if got := string(d.Bytes()); got != want {
		t.Errorf("replaced:\n%s\nwant\n%s", got, want)
	}
	if err := d.Replace(json.RawMessage(`{"x": 1}`), "mcpServers", "c"); err != nil {
		t.Fatal(err)
	}
	raw, ok := d.Get("mcpServers", "c")
	if c, _ := Canonical(raw); !ok || string(c) != `{"x":1}` {
		t.Errorf("appended: %s", raw)
	}
	again, err := Parse(d.Bytes())
	if err != nil || string(again.Bytes()) != string(d.Bytes()) {
		t.Errorf("not a fixed point: %v\n%s", err, d.Bytes())
	}
	if err := d.Replace(json.RawMessage(`{"x": `), "mcpServers", "a"); err == nil {
		t.Error("a value that does not parse was accepted")
	}
}
