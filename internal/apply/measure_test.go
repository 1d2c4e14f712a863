package apply

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestRedactedHashIsDecodedHash: the fast path of redactedHash, which
// hashes jsonmerge's EncodingJSONForm, gives every hash the decoding gives,
// and a text it cannot read goes the decoding's way (the states on disk
// were written with these hashes).
func TestRedactedHashIsDecodedHash(t *testing.T) {
	for _, raw := range []string{
		`{"command":"npx","args":["-y","@x/y"],"env":{"B":"2","A":"1"}}`,
		"{\n  \"disabled\": true,\n  \"command\": \"<a&b>\u2028\"\n}",
		`[1.0,1e3,-0,{"z":null,"a":false}]`,
		`"\ud800\u00e9\/"`,
		`{"a":1,"a":2}`,    // a duplicate: the last wins
		"\"\xff\"",         // invalid UTF-8: U+FFFD
		`{"a":1} trailing`, // a Decoder reads the first value only
	} {
		got, gerr := redactedHash([]byte(raw), nil)
		want, werr := decodedHash([]byte(raw), nil)
		if got != want || (gerr == nil) != (werr == nil) {
			t.Errorf("%q: redactedHash %q, %v; decodedHash %q, %v", raw, got, gerr, want, werr)
		}
	}
	if _, err := redactedHash([]byte(`{"a":`), nil); err == nil {
		t.Error("a truncated text hashed")
	}
}

// TestWithMembersChangesNothing: leaving out the fields an entry's text
// cannot have as members changes nothing that stripFields and
// keepAgyFields return, over generated entries that have the field, spell
// it escaped, hold it as a value or nested deeper, or are not objects.
func TestWithMembersChangesNothing(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	fields := []string{"disabled"}
	names := []string{"disabled", `disa\u0062led`, "command", "Disabled", "disabled ", `x\"disabled`, "args"}
	values := []string{`true`, `"disabled"`, `{"disabled":false}`, `["disabled"]`, `1`, `null`, `"a\\b"`}
	entry := func() string {
		switch r.IntN(8) {
		case 0:
			return values[r.IntN(len(values))]
		case 1:
			return `{"a":1} x`
		}
		var b bytes.Buffer
		b.WriteByte('{')
		for i := range r.IntN(4) {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, "%q:%s", names[r.IntN(len(names))], values[r.IntN(len(values))])
			if r.IntN(3) == 0 {
				b.Reset()
				fmt.Fprintf(&b, `{"%s":%s`, names[r.IntN(len(names))], values[r.IntN(len(values))])
			}
		}
		b.WriteByte('}')
		return b.String()
	}
	checked := 0
	for range 20000 {
		live, want := json.RawMessage(entry()), json.RawMessage(entry())
		narrowed := withMembers(live, fields)
		if got, all := stripFields(live, narrowed, want), stripFields(live, fields, want); !bytes.Equal(got, all) {
			t.Fatalf("stripFields(%s, want %s): %s with %q, %s with %q", live, want, got, narrowed, all, fields)
		}
		gotOut, allOut := want, want
		if got, all := keepAgyFields(live, want, narrowed, &gotOut), keepAgyFields(live, want, fields, &allOut); !bytes.Equal(got, all) || !bytes.Equal(gotOut, allOut) {
			t.Fatalf("keepAgyFields(%s, %s): %s %s with %q, %s %s with %q", live, want, got, gotOut, narrowed, all, allOut, fields)
		}
		if len(narrowed) == 0 && json.Valid(live) {
			checked++
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d valid entries the fields were left out of: the generator tests too little", checked)
	}
}
