package jsonmerge

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCanonical(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"whitespace goes", " {\n \"a\" : [ 1 , 2 ] }\n", `{"a":[1,2]}`},
		{"keys sorted, recursively", `{"b":{"z":1,"y":[{"d":1,"c":2}]},"a":0}`, `{"a":0,"b":{"y":[{"c":2,"d":1}],"z":1}}`},
		{"sorted by decoded name", `{"\u0062":1,"a":2}`, `{"a":2,"b":1}`},
		{"code point order", `{"é":1,"z":2,"Z":3,"😀":4,"\uffff":5,"":6}`, "{\"\":6,\"Z\":3,\"z\":2,\"é\":1,\"\uffff\":5,\"😀\":4}"},
		{"array order kept", `[3,1,2]`, `[3,1,2]`},
		{"numbers kept as written", `[1.0,1e3,1E+03,-0,0.10]`, `[1.0,1e3,1E+03,-0,0.10]`},
		{"needless escapes decoded", `"\u00e9\/\u0041\ud83d\ude00"`, `"é/A😀"`},
		{"needed escapes in short form", `"\u0022\u005c\u0008\u000c\u000a\u000d\u0009"`, `"\"\\\b\f\n\r\t"`},
		{"other control characters as \\u00XX", `"\u0001\u001F"`, `"\u0001\u001f"`},
		{"HTML characters and U+2028 literal", `"\u003c\u003e\u0026\u2028"`, "\"<>&\u2028\""},
		{"lone surrogate as U+FFFD, like encoding/json", `"\ud800"`, "\"\uFFFD\""},
		{"literals", `[true,false,null]`, `[true,false,null]`},
		{"scalar at the top", ` "x" `, `"x"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Canonical(json.RawMessage(tt.in))
			if err != nil {
				t.Fatalf("Canonical: %v", err)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestCanonicalIgnoresFormatting: the pairs mean the same to any JSON
// reader, so a hash of their canonical forms must match.
func TestCanonicalIgnoresFormatting(t *testing.T) {
	for _, pair := range [][2]string{
		{`{"command":"npx","args":["-y"],"env":{"A":"1","B":"2"}}`, "{\n  \"env\": {\"B\": \"2\", \"A\": \"1\"},\n  \"args\": [\"-y\"],\n  \"command\": \"npx\"\n}"},
		{`{"a":"<é>"}`, `{"\u0061":"\u003c\u00e9\u003e"}`},
	} {
		a, err := Canonical(json.RawMessage(pair[0]))
		if err != nil {
			t.Fatal(err)
		}
		b, err := Canonical(json.RawMessage(pair[1]))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(string(a), string(b)); diff != "" {
			t.Errorf("%s vs %s (-first +second):\n%s", pair[0], pair[1], diff)
		}
	}
	// And the other way: what differs in meaning differs.
	for _, pair := range [][2]string{
		{`[1,2]`, `[2,1]`},
		{`{"a":1}`, `{"a":1.0}`},
		{`{"a":"x"}`, `{"a":"X"}`},
	} {
		a, _ := Canonical(json.RawMessage(pair[0]))
		b, _ := Canonical(json.RawMessage(pair[1]))
		if string(a) == string(b) {
			t.Errorf("Canonical(%s) = Canonical(%s) = %s", pair[0], pair[1], a)
		}
	}
}

func TestCanonicalErrors(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{``, "canonical form: 1:1: unexpected end of the text; expected a value"},
		{`{"a":1,"a":1}`, `canonical form: 1:8: duplicate key "a" (first at 1:2)`},
		{`[1] [2]`, `canonical form: 1:5: unexpected '[' after the top-level value`},
		{"\xef\xbb\xbf1", "canonical form: 1:1: the text starts with a UTF-8 byte order mark (BOM); JSON must not have one, save the file without it"},
	} {
		_, err := Canonical(json.RawMessage(tt.in))
		if err == nil {
			t.Errorf("Canonical(%q) succeeded", tt.in)
			continue
		}
		if diff := cmp.Diff(tt.want, err.Error()); diff != "" {
			t.Errorf("Canonical(%q) error (-want +got):\n%s", tt.in, diff)
		}
	}
}

// encodingJSON is what apply's state hash is defined as: raw decoded by
// encoding/json (UseNumber) and encoded again without HTML escaping.
func encodingJSON(raw []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func TestEncodingJSONForm(t *testing.T) {
	tests := []struct {
		name string
		in   string
		ok   bool
	}{
		{"object, reformatted", "{\n \"b\" : [ 1.0 , 2e3 ], \"a\": {\"y\":null,\"x\":true} }\n", true},
		{"U+2028 and U+2029 escaped, HTML kept", "\"<a>&\u2028\\u2029\"", true},
		{"control characters", `"\u0000\u0008\u000c\u001f\u007f\n\r\t"`, true},
		{"escapes decoded", `{"\u0062":"\/\u00e9\ud83d\ude00\ud800"}`, true},
		{"scalar", ` -0.10E+5 `, true},
		{"empty containers", `[{},[],""]`, true},
		{"duplicate name: encoding/json keeps the last", `{"a":1,"a":2}`, false},
		{"invalid UTF-8: encoding/json reads U+FFFD", "\"\xff\"", false},
		{"a second value: a Decoder stops before it", `{} {}`, false},
		{"not JSON", `{"a":}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := EncodingJSONForm([]byte(tt.in))
			if ok != tt.ok {
				t.Fatalf("ok = %v, want %v (%q)", ok, tt.ok, got)
			}
			if !ok {
				return
			}
			want, err := encodingJSON([]byte(tt.in))
			if err != nil {
				t.Fatalf("encoding/json: %v", err)
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("(-encoding/json +EncodingJSONForm):\n%s", diff)
			}
		})
	}
}

// FuzzEncodingJSONForm holds EncodingJSONForm to its definition: whenever
// it answers, encoding/json reads the same text and writes the same bytes.
// apply's state hashes depend on it.
func FuzzEncodingJSONForm(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add([]byte(s))
	}
	for _, s := range []string{
		"\"\u2028\u2029\\u2028\"", `"\u0000\u001F\u007f"`, `[1,-0,1.5e-7,1E+400]`, `{"z":{"b":[],"a":{}},"":null}`,
		`"\ud83d\ude00\udc00\ud800x"`, `{"\u00e9":1,"e\u0301":2}`, `{"a":1,"a":1}`, "\"\xed\xa0\x80\"",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		got, ok := EncodingJSONForm(raw)
		if !ok {
			return
		}
		want, err := encodingJSON(raw)
		if err != nil {
			t.Fatalf("EncodingJSONForm read %q, encoding/json refused it: %v", raw, err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%q:\nencoding/json     %q\nEncodingJSONForm  %q", raw, want, got)
		}
	})
}
