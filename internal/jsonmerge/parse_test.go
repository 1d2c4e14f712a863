package jsonmerge

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func mustParse(t *testing.T, src string) *Doc {
	t.Helper()
	d, err := Parse([]byte(src))
	if err != nil {
		t.Fatalf("Parse(%q): %v", src, err)
	}
	return d
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"empty", "", "1:1: unexpected end of the text; expected a value"},
		{"only whitespace", " \n\t", "2:2: unexpected end of the text; expected a value"},
		{"BOM", "\xef\xbb\xbf{}", "1:1: the text starts with a UTF-8 byte order mark (BOM); JSON must not have one, save the file without it"},
		{"BOM after whitespace", " \xef\xbb\xbf{}", "1:2: unexpected byte order mark; expected a value"},
		{"trailing comma in object", "{\n  \"a\": 1,\n}", "2:9: trailing comma before '}'; JSON does not allow one"},
		{"trailing comma in array", `{"a": [1, 2, ]}`, "1:12: trailing comma before ']'; JSON does not allow one"},
		{"line comment", "{\n  // mine\n  \"a\": 1\n}", "2:3: unexpected comment; JSON has no comments"},
		{"block comment after value", `{"a": 1 /* x */}`, "1:9: unexpected comment; JSON has no comments"},
		{"comment after the object", "{}\n// end\n", "2:1: unexpected comment after the top-level value; JSON has no comments"},
		{"array root", `[{"a": 1}]`, "1:1: the top level is an array; it must be an object"},
		{"string root", ` "a"`, "1:2: the top level is a string; it must be an object"},
		{"number root", `12`, "1:1: the top level is a number; it must be an object"},
		{"null root", `null`, "1:1: the top level is null; it must be an object"},
		{"trailing data", "{}\n x", `2:2: unexpected "x" after the top-level value`},
		{"second object", `{}{}`, "1:3: unexpected '{' after the top-level value"},
		{"NaN", `{"a": NaN}`, `1:7: unexpected "NaN"; expected a value`},
		{"Infinity", `{"a": -Infinity}`, `1:8: unexpected "Infinity"; expected a digit`},
		{"single quotes", `{'a': 1}`, "1:2: unexpected single quote; JSON strings use double quotes"},
		{"bare key", `{a: 1}`, `1:2: unexpected "a"; expected a member name in double quotes`},
		{"leading zero", `{"a": -012}`, "1:8: a number must not start with 0 unless it is 0 itself"},
		{"leading plus", `{"a": +1}`, "1:7: unexpected '+'; expected a value"},
		{"bare decimal point", `{"a": .5}`, "1:7: unexpected '.'; expected a value"},
		{"no fraction digits", `{"a": 1.}`, "1:9: unexpected '}'; expected a digit after the decimal point"},
		{"no exponent digits", `{"a": 1e+}`, "1:10: unexpected '}'; expected a digit in the exponent"},
		{"hex number", `{"a": 0x10}`, `1:8: unexpected "x10"; expected ',' or '}'`},
		{"truncated literal", `{"a": tru}`, `1:7: unexpected "tru"; expected a value`},
		{"capitalised literal", `{"a": True}`, `1:7: unexpected "True"; expected a value`},
		{"missing colon", `{"a" 1}`, `1:6: unexpected "1"; expected ':' after the member name`},
		{"missing comma", "{\"a\": 1\n \"b\": 2}", "2:2: unexpected '\"'; expected ',' or '}'"},
		{"unclosed object", `{"a": 1`, "1:8: unexpected end of the text; expected ',' or '}'"},
		{"unclosed array", `{"a": [1`, "1:9: unexpected end of the text; expected ',' or ']'"},
		{"unclosed string", `{"a": "x}`, "1:7: string is never closed"},
		{"newline in string", "{\"a\": \"x\ny\"}", "1:9: control character U+000A in a string; write it as an escape such as \\n"},
		{"tab in string", "{\"a\": \"\t\"}", "1:8: control character U+0009 in a string; write it as an escape such as \\n"},
		{"invalid UTF-8 in string", "{\"a\": \"\xff\"}", "1:8: invalid UTF-8 byte 0xff in a string"},
		{"invalid UTF-8 outside strings", "{\xc3}", "1:2: unexpected byte 0xc3, which is not UTF-8; expected a member name in double quotes"},
		{"non-ASCII outside strings", "{\"a\": é}", `1:7: unexpected 'é'; expected a value`},
		{"invalid escape", `{"a": "\x41"}`, `1:8: invalid escape \x in a string`},
		{"short unicode escape", `{"a": "\u12"}`, `1:8: \u must be followed by four hexadecimal digits`},
		{"escape at end", `{"a": "\`, `1:8: unfinished escape at the end of the text`},
		// Columns count characters, not bytes: "é" and "😀" are one each.
		{"column counts characters", `{"é😀": 1,}`, "1:9: trailing comma before '}'; JSON does not allow one"},
		{"tab is one column", "{\t\t,}", "1:4: unexpected ','; expected a member name in double quotes"},
		{"CRLF lines", "{\r\n  \"a\": 1,\r\n}", "2:9: trailing comma before '}'; JSON does not allow one"},
		{"too deep", `{"a":` + strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth) + "}", "1:10005: nesting deeper than 10000 objects and arrays"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.in))
			if err == nil {
				t.Fatalf("Parse(%q) succeeded", tt.in)
			}
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error %v is %T, want *SyntaxError", err, err)
			}
			if diff := cmp.Diff(tt.want, err.Error()); diff != "" {
				t.Errorf("Parse(%q) error (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestParseDuplicateKey(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want *DuplicateKeyError
	}{
		{
			name: "top level",
			in:   "{\n  \"a\": 1,\n  \"b\": 2,\n  \"a\": 3\n}",
			want: &DuplicateKeyError{Key: "a", Pos: Pos{4, 3, 24}, First: Pos{2, 3, 4}},
		},
		{
			name: "nested in an array",
			in:   `{"x": [{"k": 1}, {"k": 1, "k": 2}]}`,
			want: &DuplicateKeyError{Key: "k", Pos: Pos{1, 27, 26}, First: Pos{1, 19, 18}},
		},
		{
			// The same name however it is spelled: encoding/json would
			// read both as "a".
			name: "spelled with an escape",
			in:   `{"a": 1, "\u0061": 2}`,
			want: &DuplicateKeyError{Key: "a", Pos: Pos{1, 10, 9}, First: Pos{1, 2, 1}},
		},
		{
			// Lone surrogates both decode to U+FFFD, as in encoding/json.
			name: "two lone surrogates",
			in:   `{"\ud800": 1, "\udc00": 2}`,
			want: &DuplicateKeyError{Key: "\uFFFD", Pos: Pos{1, 15, 14}, First: Pos{1, 2, 1}},
		},
		{
			name: "after multibyte text",
			in:   "{\"é\": {\"ü\": 1,\n\t\"ü\": 2}}",
			want: &DuplicateKeyError{Key: "ü", Pos: Pos{2, 2, 18}, First: Pos{1, 8, 8}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.in))
			var got *DuplicateKeyError
			if !errors.As(err, &got) {
				t.Fatalf("Parse(%q) = %v, want a *DuplicateKeyError", tt.in, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	_, err := Parse([]byte("{\n  \"a\": 1,\n  \"a\": 2\n}"))
	if diff := cmp.Diff(`3:3: duplicate key "a" (first at 2:3)`, err.Error()); diff != "" {
		t.Errorf("message (-want +got):\n%s", diff)
	}
}

// TestParseAccepts holds the corners of strict JSON that Parse must take,
// and checks encoding/json agrees they are JSON.
func TestParseAccepts(t *testing.T) {
	for _, in := range []string{
		`{}`,
		" \t\r\n{ } \t\r\n",
		`{"": ""}`,
		`{"a": [], "b": {}, "c": [[]], "d": [{}]}`,
		`{"n": [0, -0, 1.5, -1.5e-10, 1E+2, 1e3, 0.0, 12345678901234567890123]}`,
		`{"l": [true, false, null]}`,
		`{"s": "\" \\ \/ \b \f \n \r \t \u0000 \u00e9 \uD83D\uDE00 \ud800 é 😀 ` + "\x7f" + `"}`,
		`{"a": {"b": {"c": {"d": [1, {"e": null}]}}}}`,
		`{"a/b": 1, "a.b": 2, "~": 3}`,
		`{"k": 1, "K": 2}`,
		`{"a":` + strings.Repeat("[", maxDepth-1) + strings.Repeat("]", maxDepth-1) + "}",
	} {
		if !json.Valid([]byte(in)) {
			t.Errorf("encoding/json rejects the case %q", in)
		}
		if _, err := Parse([]byte(in)); err != nil {
			t.Errorf("Parse(%q): %v", in, err)
		}
	}
}

// TestDepthLimitMatchesEncodingJSON pins the limit to encoding/json's, which
// Bytes depends on through json.Indent.
func TestDepthLimitMatchesEncodingJSON(t *testing.T) {
	for _, depth := range []int{maxDepth, maxDepth + 1} {
		in := []byte(strings.Repeat(`{"a":`, depth-1) + "{}" + strings.Repeat("}", depth-1))
		_, err := Parse(in)
		if got, want := err == nil, json.Valid(in); got != want {
			t.Errorf("depth %d: Parse error %v, json.Valid %v", depth, err, want)
		}
	}
}

// TestNamesDecodeAsEncodingJSON checks that the names callers pass in paths
// are the names encoding/json reads from the same text.
func TestNamesDecodeAsEncodingJSON(t *testing.T) {
	for _, name := range []string{
		`plain`,
		`caf\u00e9`,
		`\uD83D\uDE00`,
		`\ud83d\ude00`,
		`\ud800`,
		`\udc00\ud800`,
		`\ud800\u0041`,
		`\ud800\ud800\udc00`,
		`\ud800x`,
		`tab\there\nnl \"q\" \\ \/`,
		`\u0000`,
		`é😀`,
	} {
		src := `{"` + name + `": 1}`
		var m map[string]json.RawMessage
		if err := json.Unmarshal([]byte(src), &m); err != nil {
			t.Fatalf("encoding/json: %v", err)
		}
		var want []string
		for k := range m {
			want = append(want, k)
		}
		if diff := cmp.Diff(want, mustParse(t, src).Keys()); diff != "" {
			t.Errorf("%s (-encoding/json +Keys):\n%s", src, diff)
		}
	}
}

func TestParseCopiesInput(t *testing.T) {
	in := []byte(`{"a": "x"}`)
	d, err := Parse(in)
	if err != nil {
		t.Fatal(err)
	}
	copy(in, `{"b": "y"}`)
	if diff := cmp.Diff(`{"a": "x"}`, string(d.Bytes())); diff != "" {
		t.Errorf("changing the input changed the Doc (-want +got):\n%s", diff)
	}
}

// TestDuplicateFirst: in objects small and large (the parser searches an
// object's members until it has searchUpTo of them, then keeps a map),
// each repeated name is reported against the occurrence before it, in a
// strict parse (the first repeat) and in a tolerant read (every repeat).
func TestDuplicateFirst(t *testing.T) {
	for size := 1; size <= 3*searchUpTo; size++ {
		for seed := range 4 {
			r := rand.New(rand.NewPCG(uint64(size), uint64(seed)))
			var b strings.Builder
			b.WriteString("{")
			var want []Duplicate
			last := map[string]int{}
			for i := range size {
				if i > 0 {
					b.WriteString(", ")
				}
				name := fmt.Sprintf("k%d", r.IntN(size))
				off := b.Len()
				if prev, ok := last[name]; ok {
					want = append(want, Duplicate{Key: name, Pos: Pos{1, off + 1, off}, First: Pos{1, prev + 1, prev}})
				}
				last[name] = off
				fmt.Fprintf(&b, "%q: %d", name, i)
			}
			b.WriteString("}")
			doc := []byte(b.String())
			tree, err := Read(doc, JSONC)
			if err != nil {
				t.Fatalf("Read(%s): %v", doc, err)
			}
			var got []Duplicate
			for _, d := range tree.Notes.Duplicates {
				d.Path = nil
				got = append(got, d)
			}
			if len(want) > MaxDuplicates {
				want = want[:MaxDuplicates]
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("Read(%s) duplicates:\n%+v\nwant\n%+v", doc, got, want)
			}
			_, err = Parse(doc)
			var de *DuplicateKeyError
			switch {
			case len(want) == 0 && err != nil:
				t.Fatalf("Parse(%s): %v", doc, err)
			case len(want) > 0 && (!errors.As(err, &de) || de.Key != want[0].Key || de.Pos != want[0].Pos || de.First != want[0].First):
				t.Fatalf("Parse(%s): %v; want the repeat of %q at %v, first at %v", doc, err, want[0].Key, want[0].Pos, want[0].First)
			}
		}
	}
}

// TestSlabGrows: a slab's blocks double from 8 to slabMax, so a large
// document is allocated a few values at a time only at its start.
func TestSlabGrows(t *testing.T) {
	var s slab[node]
	blocks := 0
	for range 2000 {
		if len(s.free) == 0 {
			blocks++
		}
		s.new(node{})
	}
	// 8+16+32+64+128 = 248, then (2000-248)/256 rounds up to 7.
	if blocks != 12 || s.size != slabMax {
		t.Fatalf("2,000 values took %d blocks, the last of %d; want 12, the last of %d", blocks, s.size, slabMax)
	}
}
