package jsonmerge

import "testing"

// TestRedactStrings: the strings at the pointers become the placeholder,
// every other byte — spacing, order, escapes, numbers — stays.
func TestRedactStrings(t *testing.T) {
	in := "{\n\t\"b\": {\"env\": {\"T\": \"s3cr\\u0065t\", \"K\": 1.0}},\r\n  \"a/x\": [\"keep\", \"gone\", {\"t~\": \"x\"}],\n  \"n\": 2\n}\n"
	got, ok := RedactStrings([]byte(in), []string{"/b/env/T", "/a~1x/1", "/a~1x/2/t~0", "/b/env/K", "/missing"}, `"<secret>"`, Syntax{})
	want := "{\n\t\"b\": {\"env\": {\"T\": \"<secret>\", \"K\": 1.0}},\r\n  \"a/x\": [\"keep\", \"<secret>\", {\"t~\": \"<secret>\"}],\n  \"n\": 2\n}\n"
	if !ok || string(got) != want {
		t.Fatalf("got %q, %v\nwant %q", got, ok, want)
	}
	if got, ok := RedactStrings([]byte(`{"a": `), []string{"/a"}, `"x"`, Syntax{}); ok || string(got) != `{"a": ` {
		t.Fatalf("invalid JSON: %q %v", got, ok)
	}
}
