package frontmatter

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"go.yaml.in/yaml/v3"
)

func TestSplit(t *testing.T) {
	for _, tc := range []struct {
		name, doc, fm, body string
		err                 bool
		none                bool
	}{
		{name: "plain", doc: "---\nname: x\n---\n\nBody.\n", fm: "name: x\n", body: "\nBody.\n"},
		{name: "crlf", doc: "---\r\nname: x\r\n---\r\nBody\r\n", fm: "name: x\r\n", body: "Body\r\n"},
		{name: "empty", doc: "---\n---\n", fm: "", body: ""},
		{name: "no-body", doc: "---\na: 1\n---", fm: "a: 1\n", body: ""},
		{name: "none", doc: "# Title\n", none: true},
		{name: "unclosed", doc: "---\na: 1\n", err: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fm, body, _, err := Split([]byte(tc.doc))
			switch {
			case tc.none:
				if !errors.Is(err, ErrNone) {
					t.Fatalf("err = %v, want ErrNone", err)
				}
			case tc.err:
				if err == nil || errors.Is(err, ErrNone) {
					t.Fatalf("err = %v, want an unclosed frontmatter error", err)
				}
			default:
				if err != nil || string(fm) != tc.fm || string(body) != tc.body {
					t.Fatalf("Split = %q, %q, %v; want %q, %q", fm, body, err, tc.fm, tc.body)
				}
			}
		})
	}
}

func TestParse(t *testing.T) {
	m, err := Parse([]byte("# comment only\n"))
	if err != nil || len(m) != 0 {
		t.Fatalf("comment-only frontmatter: %v, %v", m, err)
	}
	m, err = Parse([]byte("name: x\ndescription: \"yes\"\n"))
	if err != nil || m["description"] != "yes" {
		t.Fatalf("Parse = %v, %v", m, err)
	}
	if _, err := Parse([]byte("- a\n- b\n")); err == nil {
		t.Fatal("a list is not frontmatter")
	}
}

// FuzzSplitParse: no input panics, and what Split returns are parts of the
// document in order.
func FuzzSplitParse(f *testing.F) {
	for _, s := range []string{"---\nname: x\n---\nbody\n", "---\n", "", "---\r\n---\r\n", "---\na: [\n---\n",
		"---\n# only a comment\n---\n", "---\na: 1\na: 2\n---\n", "---\n- a\n---\n", "---\na: &x [1]\nb: *x\n---\n", "---\n!!str 1\n---\n", "---\na: !!int x\n---\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		fm, body, _, err := Split(doc)
		if err != nil {
			return
		}
		if !bytes.Contains(doc, fm) || !bytes.HasSuffix(doc, body) {
			t.Fatalf("Split(%q) = %q, %q: not parts of the document", doc, fm, body)
		}
		sameAsUnmarshal(t, fm)
	})
}

// sameAsUnmarshal fails t unless Parse, which parses to a node and decodes
// that, gives what decoding the text with yaml.Unmarshal gives: the same
// value, or an error with the same message.
func sameAsUnmarshal(t *testing.T, fm []byte) {
	t.Helper()
	got, err := Parse(fm)
	var v any
	uerr := yaml.Unmarshal(fm, &v)
	var want map[string]any
	if uerr == nil {
		switch m := v.(type) {
		case nil:
			want = map[string]any{}
		case map[string]any:
			want = m
		default:
			uerr = fmt.Errorf("frontmatter is %T, not a mapping of keys to values", v)
		}
	}
	switch {
	case (err == nil) != (uerr == nil):
		t.Fatalf("Parse(%q): error %v; yaml.Unmarshal: %v", fm, err, uerr)
	case err != nil && err.Error() != uerr.Error():
		t.Fatalf("Parse(%q): error %q; yaml.Unmarshal: %q", fm, err, uerr)
	case err == nil && !reflect.DeepEqual(got, want):
		t.Fatalf("Parse(%q) = %#v; yaml.Unmarshal: %#v", fm, got, want)
	}
}
