package jsonmerge

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"testing"
	"unicode/utf8"
)

// The fuzz targets check what agyconf relies on when it rewrites a shared
// file: what Parse accepts, Bytes writes back as JSON that reads the same and
// rewrites to the same bytes; edits change only what they name; and Parse
// agrees with encoding/json about what JSON is, refusing only what the
// package comment says it refuses. Run one for a while with
//
//	go test -run='^$' -fuzz=FuzzParseBytes -fuzztime=2m ./internal/jsonmerge/
//
// A failing input lands in testdata/fuzz/<Target>/ and stays there as a
// regression seed that every plain `go test` runs.

// fuzzSeeds is a function so that no test can change the list another uses.
func fuzzSeeds() []string {
	return []string{
		userFile,
		userFileBytes,
		`{}`,
		`{"a":1,"a":2}`,
		`{"\u0061":1,"a":2}`,
		`{"s":"\ud800\udc00\ud800\u0041\\\/\b\f\n\r\t"}`,
		`{"n":[0,-0,1.5e-10,1E+2,0.10]}`,
		`{"a":[],"b":{},"c":[[{}]]}`,
		`{"p":{"allow":["command(git *)",1,null]}}`,
		"{\"é😀\": \"é😀\"}",
		`[1]`,
		`{"a":1,}`,
		"{\n// c\n}",
		"\xef\xbb\xbf{}",
		"{\"a\":\"\xff\"}",
		`{} {}`,
		`{"a":01}`,
	}
}

func FuzzParseBytes(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := Parse(data)
		if err != nil {
			checkRefusal(t, data, err)
			return
		}
		if !json.Valid(data) {
			t.Fatalf("Parse accepted what encoding/json refuses: %q", data)
		}

		out := d.Bytes()
		var want bytes.Buffer
		if err := json.Indent(&want, bytes.Trim(data, " \t\r\n"), "", "  "); err != nil {
			t.Fatal(err)
		}
		want.WriteByte('\n')
		if !bytes.Equal(out, want.Bytes()) {
			t.Fatalf("Bytes of an unedited document is not json.Indent of it:\nBytes:  %q\nIndent: %q", out, want.Bytes())
		}
		d2, err := Parse(out)
		if err != nil {
			t.Fatalf("Bytes does not parse: %v\n%s", err, out)
		}
		if out2 := d2.Bytes(); !bytes.Equal(out, out2) {
			t.Fatalf("Bytes is not stable:\nfirst:  %q\nsecond: %q", out, out2)
		}
		root, _ := d.Get()
		root2, _ := d2.Get()
		c1, err := Canonical(root)
		if err != nil {
			t.Fatalf("Canonical of the root: %v", err)
		}
		c2, err := Canonical(root2)
		if err != nil {
			t.Fatalf("Canonical of the re-parsed root: %v", err)
		}
		if !bytes.Equal(c1, c2) {
			t.Fatalf("Canonical changed across Bytes:\nbefore: %s\nafter:  %s", c1, c2)
		}
		if c3, err := Canonical(c1); err != nil || !bytes.Equal(c1, c3) {
			t.Fatalf("Canonical is not a fixed point: %s -> %s, %v", c1, c3, err)
		}

		// The members are the ones encoding/json sees, with the same text.
		var m map[string]json.RawMessage
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatalf("encoding/json cannot decode what Parse accepted: %v", err)
		}
		keys := d.Keys()
		if len(keys) != len(m) {
			t.Fatalf("Keys %q, encoding/json decoded %d members", keys, len(m))
		}
		for _, k := range keys {
			got, _ := d.Get(k)
			if !bytes.Equal(got, m[k]) {
				t.Fatalf("member %q: Get %q, encoding/json %q", k, got, m[k])
			}
		}
	})
}

// checkRefusal: an error always has a real position, and JSON that
// encoding/json accepts is refused only for a documented reason.
func checkRefusal(t *testing.T, data []byte, err error) {
	t.Helper()
	var se *SyntaxError
	var de *DuplicateKeyError
	var pos Pos
	switch {
	case errors.As(err, &se):
		pos = se.Pos
	case errors.As(err, &de):
		pos = de.Pos
		if de.First.Byte >= de.Pos.Byte || de.First != position(data, de.First.Byte) {
			t.Fatalf("bad first position in %v", err)
		}
	default:
		t.Fatalf("error %v is %T", err, err)
	}
	if pos.Byte < 0 || pos.Byte > len(data) || pos != position(data, pos.Byte) || pos.Line < 1 || pos.Column < 1 {
		t.Fatalf("bad position in %v: %+v", err, pos)
	}
	if !json.Valid(data) || de != nil {
		return
	}
	// Valid JSON: a SyntaxError must be invalid UTF-8 or a root that is not
	// an object.
	if rest := bytes.TrimLeft(data, " \t\r\n"); utf8.Valid(data) && rest[0] == '{' {
		t.Fatalf("Parse refused JSON encoding/json accepts: %v", err)
	}
}

func FuzzEdit(f *testing.F) {
	seeds := fuzzSeeds()
	for i, s := range seeds {
		f.Add([]byte(s), []byte(`{"command":"x","args":["-y"]}`), "ours", "command(git *)")
		f.Add([]byte(s), []byte(seeds[(i+1)%len(seeds)]), "a", "\"\\\n\x01é")
	}
	f.Fuzz(func(t *testing.T, data, value []byte, name, item string) {
		d, err := Parse(data)
		if err != nil {
			return
		}
		keys := d.Keys()
		before := map[string]json.RawMessage{}
		for _, k := range keys {
			before[k], _ = d.Get(k)
		}

		if err := d.Set(value, "agyconf", name); err == nil {
			got, _ := d.Get("agyconf", name)
			if want := bytes.Trim(value, " \t\r\n"); !bytes.Equal(got, want) {
				t.Fatalf("Get after Set = %q, want %q", got, want)
			}
		} else if root, _ := d.Get(); !bytes.Equal(root, bytes.Trim(data, " \t\r\n")) {
			t.Fatalf("a failed Set (%v) changed the document: %q", err, root)
		}

		added := d.AddString(item, "permissions", "allow") == nil
		if added {
			items, err := d.ArrayStrings("permissions", "allow")
			if err == nil && !slices.Contains(items, item) {
				t.Fatalf("AddString(%q) then ArrayStrings = %q", item, items)
			}
		}

		// Untouched members keep their text and their order; new ones go
		// at the end.
		got := d.Keys()
		if len(got) < len(keys) || !slices.Equal(got[:len(keys)], keys) {
			t.Fatalf("member order changed: %q -> %q", keys, got)
		}
		for _, k := range got[len(keys):] {
			if k != "agyconf" && k != "permissions" {
				t.Fatalf("unexpected new member %q", k)
			}
		}
		for _, k := range keys {
			if k == "agyconf" || k == "permissions" {
				continue
			}
			if now, _ := d.Get(k); !bytes.Equal(now, before[k]) {
				t.Fatalf("untouched member %q changed: %q -> %q", k, before[k], now)
			}
		}

		out := d.Bytes()
		d2, err := Parse(out)
		if err != nil {
			t.Fatalf("Bytes after edits does not parse: %v\n%s", err, out)
		}
		if out2 := d2.Bytes(); !bytes.Equal(out, out2) {
			t.Fatalf("Bytes after edits is not stable:\nfirst:  %q\nsecond: %q", out, out2)
		}
		root, _ := d.Get()
		root2, _ := d2.Get()
		c1, err1 := Canonical(root)
		c2, err2 := Canonical(root2)
		if err1 != nil || err2 != nil || !bytes.Equal(c1, c2) {
			t.Fatalf("Canonical changed across Bytes: %s (%v) vs %s (%v)", c1, err1, c2, err2)
		}

		if added {
			if !d.RemoveString(item, "permissions", "allow") {
				t.Fatalf("RemoveString(%q) after AddString found nothing", item)
			}
			if items, err := d.ArrayStrings("permissions", "allow"); err == nil && slices.Contains(items, item) {
				t.Fatalf("RemoveString(%q) left it in %q", item, items)
			}
		}
		if _, err := Parse(d.Bytes()); err != nil {
			t.Fatalf("Bytes after RemoveString does not parse: %v", err)
		}
	})
}
