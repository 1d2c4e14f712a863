package apply

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// FuzzParseState: a state file is input a cloned workspace may carry.
// Whatever its bytes, ParseState returns a state or an error naming the
// file, never panics; a state it accepts has no nil entry (what crashed
// decideStale) and survives its own encoding unchanged.
func FuzzParseState(f *testing.F) {
	for _, seed := range []string{
		`{"version":1,"files":{}}`,
		`{"version":2,"instance":"default","config":"/x","files":{"a.md":{"sha256":"` + strings.Repeat("a", 64) + `","origin":"found","original":"` + strings.Repeat("c", 32) + `","pending":["` + strings.Repeat("b", 64) + `"]}},"backups":[{"id":"` + strings.Repeat("c", 32) + `","path":"a.md","reason":"found"}]}`,
		`{"version":1,"files":{"x":null}}`,
		`{"version":1,"files":{"a.md":{"sha256":"` + strings.Repeat("a", 64) + `","pending":"` + strings.Repeat("b", 64) + `"}}}`,
		`{"version":1,"files":{"m.json#/mcpServers/gh":{"sha256":"","secrets":["/env/T"],"item":true,"block":false}}}`,
		`{"version":2,"files":{}}`,
		`{"version":1,"files":{"a":{"sha256":42}}}`,
		`{"version":1,"files":`,
		`[]`, `null`, ``, `{"version":1,"files":{"a":{}},"version":1}`,
		// As agyconf writes them: the version read where it stands first.
		"{\n  \"version\": 4,\n  \"files\": {}\n}\n",
		"{\n  \"version\": 3,\n  \"files\": {\n    \"a.md\": {\n      \"sha256\": \"" + strings.Repeat("a", 64) + "\",\n      \"origin\": \"created\"\n    }\n  }\n}\n",
		"{\n  \"version\": 1,\n  \"files\": {}\n}\n",
		"{\n  \"version\": 4,\n  \"files\": {},\n  \"version\": 1\n}\n",
		"{\n  \"version\": 04,\n  \"files\": {}\n}\n",
		"{\n  \"version\": 9999999,\n  \"files\": {}\n}\n",
		"{\n  \"version\": 4,\n  \"files\": {} // x\n}\n",
		"{\n  \"version\": 4,",
		// What version 5 added.
		`{"version":5,"files":{"m.json#/mcpServers/a":{"sha256":"` + strings.Repeat("a", 64) + `","origin":"found","written":true,"earlier":["` + strings.Repeat("b", 64) + `"],"secrets_before":["/env/T"]}},"layout":{"skills":["s"]},"shared":{"m.json":{"created":true,"sha256":"` + strings.Repeat("c", 64) + `","others":true}},"folders":["s","s/x"],"gone":[{"key":"m.json#/mcpServers/b","hashes":["` + strings.Repeat("d", 64) + `"],"origin":"adopted","original":"` + strings.Repeat("e", 32) + `"}]}`,
		`{"version":5,"files":{},"gone":[{"key":"m.json#/x","hashes":[]}]}`,
		`{"version":4,"files":{},"shared":{}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		st, err := ParseState("state.json", data)
		// The version read where agyconf writes it changes nothing: the
		// long way gives the same state, or the same error.
		long, lerr := parseStateLong(nil, "state.json", data)
		if fmt.Sprint(err) != fmt.Sprint(lerr) {
			t.Fatalf("ParseState: %v; the long way: %v", err, lerr)
		}
		if d := cmp.Diff(st, long, cmpopts.EquateEmpty(), cmp.AllowUnexported(State{})); d != "" {
			t.Fatalf("ParseState and the long way differ (-ParseState +long):\n%s", d)
		}
		if err != nil {
			if !strings.Contains(err.Error(), "state.json") {
				t.Fatalf("the error does not name the file: %v", err)
			}
			return
		}
		for k, fs := range st.Files {
			if fs == nil {
				t.Fatalf("accepted a nil entry %q", k)
			}
		}
		if st.Files == nil {
			st.Files = map[string]*FileState{}
		}
		enc, err := st.encode()
		if err != nil {
			t.Fatal(err)
		}
		again, err := ParseState("state.json", enc)
		if err != nil {
			t.Fatalf("its own encoding does not parse: %v\n%s", err, enc)
		}
		if d := cmp.Diff(st, again, cmpopts.EquateEmpty(), cmpopts.IgnoreUnexported(State{})); d != "" {
			t.Fatalf("changed by a round trip (-first +second):\n%s", d)
		}
	})
}
