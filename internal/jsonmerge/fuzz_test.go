package jsonmerge

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"testing"
	"unicode/utf8"
)

// The fuzz targets check what agyconf relies on when it rewrites a shared
// file: what Parse accepts, Bytes writes back byte for byte; edits change
// only what they name, leaving every byte outside the edited entries as it
// was, comments included, and rewrite to the same bytes; Parse agrees with
// encoding/json about what JSON is, refusing only what the package comment
// says it refuses; and Read, ParseWith(JSONC) and Parse agree on what the
// text means. Run one for a while with
//
//	go test -run='^$' -fuzz=FuzzParseBytes -fuzztime=2m ./internal/jsonmerge/
//
// A failing input lands in testdata/fuzz/<Target>/ and stays there as a
// regression seed that every plain `go test` runs.

// fuzzSeeds is a function so that no test can change the list another uses.
func fuzzSeeds() []string {
	return []string{
		userFile,
		jsoncFile,
		"{\n  // only a comment\n}",
		"{\n  \"a\": 1, // one\n  /* two */ \"b\": [2, /* in */ 3,],\n}",
		`{"a":1 /* x */ , "b":2}`,
		"{\"agyconf\":{\"x\":1, // keep\n\"ours\":{\"command\":\"x\" /* c */}},\"permissions\":{\"allow\":[\"a\", // a\n\"command(git *)\"]}}",
		"{/* unclosed",
		"// c\n{}// d",
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
		strict, serr := Parse(data)
		jsonc, jerr := ParseWith(data, JSONC)
		tree, rerr := Read(data, JSONC)
		if serr != nil {
			checkRefusal(t, data, serr)
		} else if !json.Valid(data) {
			t.Fatalf("Parse accepted what encoding/json refuses: %q", data)
		}
		if serr == nil && jerr != nil {
			t.Fatalf("ParseWith(JSONC) refused strict JSON Parse accepts: %v", jerr)
		}
		if jerr == nil && rerr != nil {
			t.Fatalf("Read refused what ParseWith accepts: %v", rerr)
		}
		for _, d := range []*Doc{strict, jsonc} {
			if d == nil {
				continue
			}
			checkDoc(t, data, d, tree)
		}
	})
}

// checkDoc checks a parsed document against its source and the tolerant
// reading of it.
func checkDoc(t *testing.T, data []byte, d *Doc, tree *Tree) {
	t.Helper()
	if out := d.Bytes(); !bytes.Equal(out, data) {
		t.Fatalf("Bytes of an unedited document is not its source:\nBytes:  %q\nsource: %q", out, data)
	}
	root, _ := d.Get()
	if !json.Valid(root) {
		t.Fatalf("Get of the root is not strict JSON: %q", root)
	}
	c1, err := Canonical(root)
	if err != nil {
		t.Fatalf("Canonical of the root: %v", err)
	}
	if c3, err := Canonical(c1); err != nil || !bytes.Equal(c1, c3) {
		t.Fatalf("Canonical is not a fixed point: %s -> %s, %v", c1, c3, err)
	}
	// The members are the ones encoding/json sees in the strict text, with
	// the same text, and the value Read decodes.
	var m map[string]json.RawMessage
	if err := json.Unmarshal(root, &m); err != nil {
		t.Fatalf("encoding/json cannot decode Get of the root: %v", err)
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
	dec := json.NewDecoder(bytes.NewReader(root))
	dec.UseNumber()
	var want any
	if err := dec.Decode(&want); err != nil {
		t.Fatal(err)
	}
	if tree != nil {
		if got := tree.Value(); !reflect.DeepEqual(got, want) {
			t.Fatalf("Read decodes %#v, encoding/json %#v", got, want)
		}
	}
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
		if de.First.Byte >= de.Pos.Byte || de.First != Position(data, de.First.Byte) {
			t.Fatalf("bad first position in %v", err)
		}
	default:
		t.Fatalf("error %v is %T", err, err)
	}
	if pos.Byte < 0 || pos.Byte > len(data) || pos != Position(data, pos.Byte) || pos.Line < 1 || pos.Column < 1 {
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
		f.Add([]byte(s), []byte(`{"x":2}`), "ours", "a")
	}
	f.Fuzz(func(t *testing.T, data, value []byte, name, item string) {
		for _, syn := range []Syntax{{}, JSONC} {
			fuzzEdit(t, syn, data, value, name, item)
			fuzzReplace(t, syn, data, value, name)
		}
	})
}

// fuzzReplace: Replace puts the value back as its text is, leaves every
// other member as it was, and writes a document that reads back the same.
func fuzzReplace(t *testing.T, syn Syntax, data, value []byte, name string) {
	d, err := ParseWith(data, syn)
	if err != nil {
		return
	}
	keys := d.Keys()
	before := map[string]json.RawMessage{}
	for _, k := range keys {
		before[k], _ = d.Get(k)
	}
	if err := d.Replace(value, "agyconf", name); err != nil {
		if out := d.Bytes(); !bytes.Equal(out, data) {
			t.Fatalf("a failed Replace (%v) changed the document: %q", err, out)
		}
		return
	}
	out := d.Bytes()
	d2, err := ParseWith(out, syn)
	if err != nil {
		t.Fatalf("Replace wrote what does not parse: %v\n%q", err, out)
	}
	got, ok := d2.Get("agyconf", name)
	want, err := Canonical(bytes.TrimSpace(value))
	if c, cerr := Canonical(got); !ok || err != nil || cerr != nil || !bytes.Equal(c, want) {
		t.Fatalf("Get after Replace = %q, want %q", got, value)
	}
	if d3, err := ParseWith(out, syn); err != nil || !bytes.Equal(d3.Bytes(), out) {
		t.Fatalf("Bytes after Replace is not stable: %v", err)
	}
	for _, k := range keys {
		if k == "agyconf" {
			continue
		}
		if now, _ := d2.Get(k); !bytes.Equal(now, before[k]) {
			t.Fatalf("untouched member %q changed: %q -> %q", k, before[k], now)
		}
	}
}

// touched are the top-level members FuzzEdit edits.
var touched = []string{"agyconf", "permissions"}

func fuzzEdit(t *testing.T, syn Syntax, data, value []byte, name, item string) {
	d, err := ParseWith(data, syn)
	if err != nil {
		return
	}
	keys := d.Keys()
	before := map[string]json.RawMessage{}
	for _, k := range keys {
		before[k], _ = d.Get(k)
	}

	setErr := d.Set(value, "agyconf", name)
	if setErr == nil {
		got, _ := d.Get("agyconf", name)
		want, err := Canonical(bytes.Trim(value, " \t\r\n"))
		if c, cerr := Canonical(got); err != nil || cerr != nil || !bytes.Equal(c, want) {
			t.Fatalf("Get after Set = %q, want %q", got, value)
		}
	} else if out := d.Bytes(); !bytes.Equal(out, data) {
		t.Fatalf("a failed Set (%v) changed the document: %q", setErr, out)
	}

	added := d.AddString(item, "permissions", "allow") == nil
	if added {
		items, err := d.ArrayStrings("permissions", "allow")
		if err == nil && !slices.Contains(items, item) {
			t.Fatalf("AddString(%q) then ArrayStrings = %q", item, items)
		}
	}
	if setErr != nil && !added {
		if out := d.Bytes(); !bytes.Equal(out, data) {
			t.Fatalf("failed edits changed the document: %q", out)
		}
	}

	// Untouched members keep their text and their order; new ones go
	// at the end.
	got := d.Keys()
	if len(got) < len(keys) || !slices.Equal(got[:len(keys)], keys) {
		t.Fatalf("member order changed: %q -> %q", keys, got)
	}
	for _, k := range got[len(keys):] {
		if !slices.Contains(touched, k) {
			t.Fatalf("unexpected new member %q", k)
		}
	}
	for _, k := range keys {
		if slices.Contains(touched, k) {
			continue
		}
		if now, _ := d.Get(k); !bytes.Equal(now, before[k]) {
			t.Fatalf("untouched member %q changed: %q -> %q", k, before[k], now)
		}
	}

	out := d.Bytes()
	d2, err := ParseWith(out, syn)
	if err != nil {
		t.Fatal(err)
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
	// The same edits on the same text give the same bytes.
	again, _ := ParseWith(data, syn)
	if again.Set(value, "agyconf", name) == nil {
		_ = again.AddString(item, "permissions", "allow")
	} else {
		_ = again.AddString(item, "permissions", "allow")
	}
	if !bytes.Equal(again.Bytes(), out) {
		t.Fatalf("the same edits gave other bytes:\n%q\n%q", again.Bytes(), out)
	}

	// Every byte outside the edited members is as it was: with those
	// members deleted from both, the original and the edited document are
	// the same text, comments and all (a trailing comma the edits turned
	// into a separator is one again).
	orig, _ := ParseWith(data, syn)
	for _, k := range touched {
		again.Delete(k)
		orig.Delete(k)
	}
	// An object or array that was empty when a member went in gets the
	// text between its brackets back when emptied again.
	if a, b := orig.Bytes(), again.Bytes(); !bytes.Equal(a, b) {
		t.Fatalf("bytes outside the edited members changed:\nbefore: %q\nafter:  %q", a, b)
	}

	// Setting the same value again changes nothing.
	if setErr == nil {
		if err := d2.Set(value, "agyconf", name); err != nil || !bytes.Equal(d2.Bytes(), out) {
			t.Fatalf("setting the same value again changed the document (%v):\n%q\n%q", err, out, d2.Bytes())
		}
	}

	if added {
		if !d.RemoveString(item, "permissions", "allow") {
			t.Fatalf("RemoveString(%q) after AddString found nothing", item)
		}
		if items, err := d.ArrayStrings("permissions", "allow"); err == nil && slices.Contains(items, item) {
			t.Fatalf("RemoveString(%q) left it in %q", item, items)
		}
	}
	if _, err := ParseWith(d.Bytes(), syn); err != nil {
		t.Fatalf("Bytes after RemoveString does not parse: %v", err)
	}
}
