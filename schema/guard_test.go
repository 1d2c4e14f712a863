package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// synthetic is a docSchema for a schema given as text, published under a
// name of its own.
func synthetic(t *testing.T, name, src string) *docSchema {
	t.Helper()
	var doc any
	d := json.NewDecoder(strings.NewReader(src))
	d.UseNumber()
	if err := d.Decode(&doc); err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return &docSchema{name: name, source: doc, printer: message.NewPrinter(language.English)}
}

func decodeValue(t *testing.T, src string) any {
	t.Helper()
	var v any
	d := json.NewDecoder(strings.NewReader(src))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return v
}

// namePointers is where the findings about key names are, sorted.
func namePointers(fs []Finding) []string {
	var out []string
	for _, f := range fs {
		if strings.Contains(f.Message, "is not allowed here") {
			out = append(out, f.Pointer)
		}
	}
	slices.Sort(out)
	return out
}

// TestPropertyNamesLocated: each propertyNames failure names its own
// object, whichever way the schema reaches the propertyNames and however
// many siblings the library validates after it, and the findings are the
// same run after run (200 runs, each in Go's map order of the moment).
// The decoys hold the same name where the schema does not judge it: a
// member named by properties beside additionalProperties, a member
// properties names otherwise, an object one level off.
func TestPropertyNamesLocated(t *testing.T) {
	for i, tc := range []struct {
		schema, doc string
		want        []string
	}{
		// Reached through properties only: the nearest ancestor the
		// library located is the root.
		{`{"properties": {"servers": {"propertyNames": {"minLength": 2}}}}`,
			`{"other": {"x": 1}, "servers": {"x": 1, "ok": 2}, "zzz": {"x": 1}}`,
			[]string{"/servers/x"}},
		// additionalProperties beside properties: "_named" is not its.
		{`{"properties": {"_named": {"type": "object"}}, "additionalProperties": {"propertyNames": {"pattern": "^[a-z]+$"}}}`,
			`{"_named": {"BAD": 1}, "a": {"BAD": 1}, "b": {"good": 1, "BAD": 2}, "c": {"ok": 1}}`,
			[]string{"/a/BAD", "/b/BAD"}},
		// Items of items, two levels below the nearest located ancestor.
		{`{"properties": {"list": {"items": {"items": {"propertyNames": {"maxLength": 1}}}}}, "additionalProperties": true}`,
			`{"list": [[{"ab": 1}, {"a": 1}], [{"ab": 2, "cd": 3}]], "decoy": [[{"ab": 1}]]}`,
			[]string{"/list/0/0/ab", "/list/1/0/ab", "/list/1/0/cd"}},
		// propertyNames at three depths at once, no $ref.
		{`{"propertyNames": {"enum": ["a", "b"]}, "additionalProperties": {"propertyNames": {"enum": ["a", "b"]}, "additionalProperties": {"propertyNames": {"enum": ["a", "b"]}}}}`,
			`{"a": {"a": {"x": 1, "a": 2}, "y": {}}, "b": {"b": {"x": 1}, "z": {"q": 1}}, "c": {}}`,
			[]string{"/a/a/x", "/a/y", "/b/b/x", "/b/z", "/b/z/q", "/c"}},
		// Through a $ref: located exactly by the library's own wrapper.
		{`{"$defs": {"n": {"propertyNames": {"maxLength": 2}}}, "additionalProperties": {"$ref": "#/$defs/n"}}`,
			`{"p": {"long": 1}, "q": {"ok": 1, "longer": 2}, "r": {"long": 1}}`,
			[]string{"/p/long", "/q/longer", "/r/long"}},
		// The same name failing in many siblings, deeper than the eight
		// segments the library's first location array holds.
		{`{"additionalProperties": {"additionalProperties": {"additionalProperties": {"additionalProperties": {"additionalProperties": {"additionalProperties": {"additionalProperties": {"additionalProperties": {"additionalProperties": {"propertyNames": {"const": "k"}}}}}}}}}}}`,
			`{"1": {"2": {"3": {"4": {"5": {"6": {"7": {"8": {"9": {"x": 1}, "10": {"x": 1}, "11": {"k": 1}}}}}}}}}}`,
			[]string{"/1/2/3/4/5/6/7/8/10/x", "/1/2/3/4/5/6/7/8/9/x"}},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			ds := synthetic(t, fmt.Sprintf("located-%d", i), tc.schema)
			v := decodeValue(t, tc.doc)
			first := ds.validate(v, valueLocator{})
			if got := namePointers(first); !slices.Equal(got, tc.want) {
				t.Fatalf("names found at %q, want %q\n%v", got, tc.want, first)
			}
			for run := range 200 {
				if diff := cmp.Diff(first, ds.validate(decodeValue(t, tc.doc), valueLocator{})); diff != "" {
					t.Fatalf("run %d gave other findings (-first +now):\n%s", run, diff)
				}
			}
		})
	}
}

// TestStepsFit: the keywords on the way to a subschema say which members
// and items the value path may step through.
func TestStepsFit(t *testing.T) {
	ds := synthetic(t, "steps", `{
  "$defs": {"d": {"properties": {"a b": {"items": {"propertyNames": {}}}}}},
  "properties": {"p": {"allOf": [{"additionalProperties": {"propertyNames": {}}, "properties": {"named": {}}}]}},
  "patternProperties": {"^x": {"propertyNames": {}}}
}`)
	for _, tc := range []struct {
		url  string
		rel  []string
		want bool
	}{
		{"#/$defs/d/properties/a%20b/items/propertyNames", []string{"a b", "0"}, true},
		{"#/$defs/d/properties/a%20b/items/propertyNames", []string{"a b", "x"}, false},
		{"#/$defs/d/properties/a%20b/items/propertyNames", []string{"c", "0"}, false},
		{"#/$defs/d/properties/a%20b/items/propertyNames", []string{"anything", "a b", "0"}, true}, // before the $defs: unknown
		{"#/properties/p/allOf/0/additionalProperties/propertyNames", []string{"p", "other"}, true},
		{"#/properties/p/allOf/0/additionalProperties/propertyNames", []string{"p", "named"}, false},
		{"#/properties/p/allOf/0/additionalProperties/propertyNames", []string{"q", "other"}, false},
		{"#/patternProperties/%5Ex/propertyNames", []string{"xyz"}, true},
		{"#/propertyNames", nil, true},
	} {
		steps := ds.stepsTo(strings.TrimSuffix(URL("steps")+tc.url, "/propertyNames"))
		if got := steps.fit(tc.rel); got != tc.want {
			t.Errorf("%s fits %q: %v, want %v (steps %+v)", tc.url, tc.rel, got, tc.want, steps)
		}
	}
}

// TestUnjudgeable: a number big.Rat cannot read is refused where it is,
// whatever applies to it, before the library sees it; the library itself
// dereferences nil on it under a bound (the defect guard.go names: if this
// stops failing, the library has mended it). Numbers it reads, however
// large, go to the library.
func TestUnjudgeable(t *testing.T) {
	bounded := synthetic(t, "bounded", `{"properties": {"n": {"maximum": 600}, "m": {"multipleOf": 2}, "u": {"uniqueItems": true}, "c": {"const": 1}}}`)
	compiled, err := bounded.schema()
	if err != nil {
		t.Fatal(err)
	}
	// 21 different items, then the number: past 20 the library hashes
	// the items.
	many := `[`
	for i := range 21 {
		many += fmt.Sprintf(`"%d", `, i)
	}
	many += `1e99999999]`
	for _, doc := range []string{`{"n": 1e99999999}`, `{"u": ` + many + `}`} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("jsonschema/v6 no longer panics on %.40s: guard.go's comment no longer holds", doc)
				}
			}()
			_ = compiled.Validate(decodeValue(t, doc))
		}()
	}

	for _, tc := range []struct {
		doc  string
		want []string // pointers of the refusals
	}{
		{`{"n": 1e99999999}`, []string{"/n"}},
		{`{"n": -1e99999999}`, []string{"/n"}},
		{`{"n": 1e-99999999}`, []string{"/n"}},
		{`{"n": 10e-1000001}`, []string{"/n"}},
		{`{"n": 1e99999999999999999999999}`, []string{"/n"}},
		{`{"m": 1e99999999}`, []string{"/m"}},
		{`{"u": ` + many + `}`, []string{"/u/21"}},
		{`{"c": 1e99999999, "free": [0.5e-1000001, {"x": 1e1000001}]}`, []string{"/c", "/free/0", "/free/1/x"}},
		// Readable: to the library, which judges the bound.
		{`{"n": 1e999999}`, nil},
		{`{"n": 1e-999999, "m": 4, "c": 1.0}`, nil},
		{`{"n": ` + strings.Repeat("9", 5000) + `}`, nil},
	} {
		fs := bounded.validate(decodeValue(t, tc.doc), valueLocator{})
		var got []string
		for _, f := range fs {
			if strings.Contains(f.Message, "which no schema bound can judge") {
				got = append(got, f.Pointer)
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%.80s: refused at %q, want %q\n%v", tc.doc, got, tc.want, fs)
		}
		if tc.want != nil && len(fs) != len(tc.want) {
			t.Errorf("%.80s: the library was asked too: %v", tc.doc, fs)
		}
	}
	// A long literal is quoted short.
	long := "0." + strings.Repeat("0", 1000001) + "1"
	fs := bounded.validate(decodeValue(t, `{"n": `+long+`}`), valueLocator{})
	if len(fs) != 1 || len(fs[0].Message) > 400 {
		t.Errorf("a %d-byte literal gives %d findings, the first %d bytes long", len(long), len(fs), len(fs[0].Message))
	}
}

// TestUnjudgeableLocated: the refusal is at the number's line and column
// in a JSON document, and in the state file a render reads.
func TestUnjudgeableLocated(t *testing.T) {
	v, err := NewValidator("hooks", State)
	if err != nil {
		t.Fatal(err)
	}
	doc := "{\n  \"audit\": {\n    \"Stop\": [{\"command\": \"/bin/true\", \"timeout\": 1e99999999}]\n  }\n}\n"
	var de *DocumentError
	if err := v.ValidateJSON("hooks", []byte(doc)); !errors.As(err, &de) || len(de.Findings) != 1 {
		t.Fatalf("%v", err)
	}
	if f := de.Findings[0]; f.Line != 3 || f.Column != 50 || f.Pointer != "/audit/Stop/0/timeout" {
		t.Errorf("%+v, want 3:50 /audit/Stop/0/timeout", f)
	}
}
