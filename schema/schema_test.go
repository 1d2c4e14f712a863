package schema_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/config"
	"github.com/agyconf/agyconf/schema"
)

func TestCompileAll(t *testing.T) {
	names := schema.Names()
	if len(names) == 0 {
		t.Fatal("no embedded schemas")
	}
	for _, name := range names {
		if _, err := schema.Compile(name); err != nil {
			t.Errorf("schema %s does not compile: %v", name, err)
		}
	}
}

// TestSchemaFormat keeps every embedded schema in one layout — two-space
// indentation, one value a line, a trailing newline — so that hand edits
// give small diffs.
func TestSchemaFormat(t *testing.T) {
	for _, name := range schema.Names() {
		src, err := schema.Source(name)
		if err != nil {
			t.Fatal(err)
		}
		var compact, want bytes.Buffer
		if err := json.Compact(&compact, src); err != nil {
			t.Errorf("schema %s is not JSON: %v", name, err)
			continue
		}
		if err := json.Indent(&want, compact.Bytes(), "", "  "); err != nil {
			t.Fatal(err)
		}
		want.WriteByte('\n')
		if !bytes.Equal(src, want.Bytes()) {
			t.Errorf("schema %s is not laid out as json.Indent with two spaces and a trailing newline would lay it out", name)
		}
	}
}

// TestInputSchemaDescriptions checks that the input schema explains itself:
// a top-level description, and one on every property it names.
func TestInputSchemaDescriptions(t *testing.T) {
	src, err := schema.Source(schema.Input)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(src, &doc); err != nil {
		t.Fatal(err)
	}
	if d, _ := doc["description"].(string); d == "" {
		t.Error("the input schema has no top-level description")
	}
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch v := v.(type) {
		case map[string]any:
			// Only object schemas declare properties; the properties of an
			// if, then, not or anyOf subschema restate a declared one.
			if props, ok := v["properties"].(map[string]any); ok && declaresObject(v) {
				for name, p := range props {
					ps, ok := p.(map[string]any)
					if !ok {
						continue // false: a property that must be absent
					}
					if d, _ := ps["description"].(string); d == "" {
						t.Errorf("%s/properties/%s has no description", path, name)
					}
				}
			}
			keys := make([]string, 0, len(v))
			for k := range v {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				walk(path+"/"+k, v[k])
			}
		case []any:
			for i, e := range v {
				walk(fmt.Sprintf("%s/%d", path, i), e)
			}
		}
	}
	walk("#", doc)
}

func declaresObject(s map[string]any) bool {
	switch t := s["type"].(type) {
	case string:
		return t == "object"
	case []any:
		for _, e := range t {
			if e == "object" {
				return true
			}
		}
	}
	return false
}

// equivalenceCase is one input file and what both the decoder and the
// schema must say about it.
type equivalenceCase struct {
	path   string
	accept bool
	// decoderOnly marks an invalid file whose problem no schema can see
	// (its top-level "//" starts with "semantic:"): only the decoder must
	// refuse it.
	decoderOnly bool
}

const semanticPrefix = "semantic:"

// TestEquivalence decodes every file of the corpus with the real decoder
// and validates it with the input schema: both must accept the files meant
// to be valid and both must refuse the others.
//
// The corpus is schema/testdata/equivalence/{accept,reject}/*.json, the
// bundled JSON example, and the decoder's own
// internal/config/testdata/{valid,invalid}/*.json when they exist.
func TestEquivalence(t *testing.T) {
	sch, err := schema.Compile(schema.Input)
	if err != nil {
		t.Fatal(err)
	}
	var cases []equivalenceCase
	add := func(pattern string, accept, required bool, minCount int) {
		t.Helper()
		files, err := filepath.Glob(filepath.FromSlash(pattern))
		if err != nil {
			t.Fatal(err)
		}
		if required && len(files) < minCount {
			t.Fatalf("%s: %d files, want at least %d", pattern, len(files), minCount)
		}
		sort.Strings(files)
		for _, f := range files {
			c := equivalenceCase{path: f, accept: accept}
			if !accept {
				c.decoderOnly = isSemantic(f)
			}
			cases = append(cases, c)
		}
	}
	add("testdata/equivalence/accept/*.json", true, true, 10)
	add("testdata/equivalence/reject/*.json", false, true, 25)
	add("../examples/*/*.json", true, false, 0)
	add("../internal/config/testdata/valid/*.json", true, false, 0)
	add("../internal/config/testdata/invalid/*.json", false, false, 0)

	for _, c := range cases {
		name := filepath.ToSlash(c.path)
		t.Run(name, func(t *testing.T) {
			decOK, decWhy := decoderVerdict(c.path)
			schOK, schWhy := schemaVerdict(sch, c.path)
			want := "accept"
			if !c.accept {
				want = "reject"
			}
			switch {
			case c.accept && (!decOK || !schOK),
				!c.accept && !c.decoderOnly && (decOK || schOK),
				!c.accept && c.decoderOnly && decOK:
				what := "want both to " + want
				if c.decoderOnly {
					what = "want the decoder to reject it (marked " + semanticPrefix + ": the schema may accept it)"
				}
				t.Errorf("%s: decoder %s, schema %s; %s\ndecoder: %s\nschema: %s",
					name, verdict(decOK), verdict(schOK), what, decWhy, schWhy)
			}
		})
	}
}

func verdict(ok bool) string {
	if ok {
		return "accepts"
	}
	return "rejects"
}

// decoderVerdict loads path with the real decoder.
func decoderVerdict(path string) (bool, string) {
	_, diags := config.NewParser().LoadConfig(path)
	if diags.HasErrors() {
		return false, diags.Error()
	}
	return true, "no errors"
}

// schemaVerdict validates path against the schema. A file that is not a
// JSON text (RFC 8259: UTF-8, one value) is refused before the schema sees
// it, as any JSON Schema validator must.
func schemaVerdict(sch *jsonschema.Schema, path string) (bool, string) {
	data, err := os.ReadFile(path)
	if err != nil {
		return false, err.Error()
	}
	doc, err := parseJSON(data)
	if err != nil {
		return false, "not JSON: " + err.Error()
	}
	if err := sch.Validate(doc); err != nil {
		var ve *jsonschema.ValidationError
		if errors.As(err, &ve) {
			return false, fmt.Sprintf("%v", ve)
		}
		return false, err.Error()
	}
	return true, "valid"
}

func parseJSON(data []byte) (any, error) {
	if !utf8.Valid(data) {
		return nil, errors.New("not valid UTF-8")
	}
	return jsonschema.UnmarshalJSON(bytes.NewReader(data))
}

// isSemantic reports whether the file's top-level object has a "//"
// property starting with "semantic:".
func isSemantic(path string) bool {
	data, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil {
		return false
	}
	var comment string
	if json.Unmarshal(top["//"], &comment) != nil {
		return false
	}
	return strings.HasPrefix(comment, semanticPrefix)
}

// TestLayoutKeys keeps the schema's layout block in step with the layout
// table the decoder and renderer use.
func TestLayoutKeys(t *testing.T) {
	src, err := schema.Source(schema.Input)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Defs struct {
			Layout struct {
				Properties map[string]json.RawMessage `json:"properties"`
			} `json:"layout"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(src, &doc); err != nil {
		t.Fatal(err)
	}
	var got, want []string
	for k := range doc.Defs.Layout.Properties {
		if k != "//" {
			got = append(got, k)
		}
	}
	for _, a := range agy.KindIDs() {
		want = append(want, string(a))
	}
	sort.Strings(got)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("layout properties of the input schema (-layout.Artifacts +schema):\n%s", diff)
	}
}
