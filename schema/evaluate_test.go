package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"math/big"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/agyconf/agyconf/internal/frontmatter"
)

// judge is one schema as the evaluator and the library read it.
type judge struct {
	name   string
	source any
	nodes  *node
	lib    *jsonschema.Schema
}

func judges(t testing.TB) []judge {
	t.Helper()
	var out []judge
	for _, name := range Names() {
		lib, doc, err := libraryCompile(name)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, newJudge(t, name, doc, lib))
	}
	// Keywords the embedded schemas use where one keyword's verdict
	// hides another's (maximum and format int32 on hook timeouts), or
	// rarely (oneOf branches that never both pass), alone.
	for i, src := range []string{
		`{"oneOf": [{"type": "integer"}, {"minimum": 0}]}`,
		`{"type": ["integer", "null"], "maximum": 10, "minimum": -5}`,
		`{"exclusiveMinimum": 0, "exclusiveMaximum": 5}`,
		`{"format": "int32"}`,
		`{"type": "array", "maxItems": 2, "minItems": 1, "items": {"type": "string", "maxLength": 3}}`,
		`{"type": "object", "maxProperties": 1, "propertyNames": {"pattern": "^[a-z]+$"}}`,
		`{"dependentRequired": {"command": ["prompt"]}}`,
		`{"if": {"required": ["command"]}, "then": {"required": ["prompt"]}, "else": {"required": ["model"]}}`,
		`{"enum": ["x", 1, null, true, 2.5]}`,
		`{"const": 5}`,
		`{"not": {"type": "string"}}`,
		`{"allOf": [{"type": "object"}, {"required": ["command"]}]}`,
		`{"anyOf": [{"type": "string", "minLength": 2}, {"type": "integer"}]}`,
		`{"$defs": {"n": {"type": "array", "items": {"$ref": "#/$defs/n"}}}, "$ref": "#/$defs/n"}`,
		// A failed type, const or enum ends the library's check of a
		// value: nothing after it is reported.
		`{"type": "string", "enum": ["ab", "x", 1], "minLength": 2, "pattern": "^a", "not": {"const": "x"}}`,
		`{"const": "x", "maxLength": 1, "anyOf": [{"type": "integer"}, {"maxLength": 1}]}`,
		`{"type": ["string", "integer"], "minimum": 3, "maxLength": 1, "allOf": [{"const": 5}, {"enum": [5, "a"]}]}`,
		// contains and uniqueItems; {} passes every value, even one of
		// no JSON type.
		`{"properties": {"a": {}, "b": {"description": "only"}}, "items": {}}`,
		`{"uniqueItems": true, "items": {"type": ["number", "string"]}}`,
		`{"type": "array", "uniqueItems": true, "contains": {"type": "string", "minLength": 2}, "items": {"not": {"type": "null"}}}`,
		// propertyNames at more than one level, and beside the other
		// object keywords.
		`{"propertyNames": {"enum": ["a", "b", "c"]}, "additionalProperties": {"type": "object", "propertyNames": {"maxLength": 1}, "minProperties": 1}, "required": ["a"], "dependentSchemas": {"b": {"required": ["c"]}}}`,
		// Two oneOf branches that both pass, after one that failed; an
		// if whose then and else both report.
		`{"oneOf": [{"type": "null"}, {"type": "string", "minLength": 2}, {"type": "string", "maxLength": 3}, {"type": "integer"}]}`,
		`{"if": {"type": "string"}, "then": {"minLength": 2, "pattern": "b"}, "else": {"type": "integer", "maximum": 3}}`,
	} {
		doc, ok := decodeJSON(t, []byte(src))
		if !ok {
			t.Fatalf("%s: not JSON", src)
		}
		name := fmt.Sprintf("synthetic-%d", i)
		lib, err := libraryCompileDoc(name, doc)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, newJudge(t, name, doc, lib))
	}
	return out
}

func newJudge(t testing.TB, name string, doc any, lib *jsonschema.Schema) judge {
	t.Helper()
	nodes, err := compileNodes(URL(name), doc)
	if err != nil {
		t.Fatal(err)
	}
	return judge{name, doc, nodes, lib}
}

// agree fails t when the evaluator's tree of what failed in v is not the
// library's, or its quick answer (passes) is not the library's verdict.
// It reports whether the library passed v; false too for a value the
// library cannot be asked about (libraryReads).
func (j judge) agree(t testing.TB, v any, what string) bool {
	t.Helper()
	if !libraryReads(v) {
		return false
	}
	err := j.lib.Validate(v)
	if want, got := canonical(fromLibrary(err)), canonical(j.nodes.evaluate(v)); got != want {
		doc, _ := json.Marshal(v)
		t.Fatalf("%s, %s: of %T %s, the evaluator says\n%s\nthe library says\n%s", j.name, what, v, doc, got, want)
	}
	if got := j.nodes.passes(v); got != (err == nil) {
		doc, _ := json.Marshal(v)
		t.Fatalf("%s, %s: passes says %v, the library says %v, of %T %s", j.name, what, got, err, v, doc)
	}
	return err == nil
}

// libraryReads reports whether the library can be asked about v: it
// dereferences nil on a number big.Rat does not read (1e99999999) where a
// bound applies to it.
func libraryReads(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			if !libraryReads(e) {
				return false
			}
		}
	case []any:
		for _, e := range x {
			if !libraryReads(e) {
				return false
			}
		}
	case json.Number:
		_, ok := new(big.Rat).SetString(string(x))
		return ok
	}
	return true
}

func decodeJSON(t testing.TB, data []byte) (any, bool) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, false
	}
	return v, true
}

// corpus is every document this repository holds for a schema: the
// schema tests' own, and the examples' rendered output.
func corpus(t *testing.T, name string) map[string]any {
	t.Helper()
	out := map[string]any{}
	add := func(path string) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(path, ".md") {
			fm, _, _, err := frontmatter.Split(bytes.TrimPrefix(data, []byte(utf8BOM)))
			if err != nil {
				return
			}
			if v, _, err := frontmatter.ParseNode(fm); err == nil {
				out[path] = jsonValue(v)
			}
			return
		}
		if v, ok := decodeJSON(t, data); ok {
			out[path] = v
		}
	}
	dir := filepath.Join("testdata", "documents", name)
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(path, ".json") || strings.HasSuffix(path, ".md")) {
			add(path)
		}
		return nil
	})
	written := map[string]string{"mcp_config": "mcp_config.json", "hooks": "hooks.json", "plugin": "plugin.json", "cli-settings": "settings.json"}
	if base, ok := written[name]; ok {
		_ = filepath.WalkDir(filepath.Join("..", "examples"), func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && d.Name() == base && strings.Contains(path, "expected") {
				add(path)
			}
			return nil
		})
	}
	return out
}

// TestEvaluateAgrees holds the evaluator to the library on every document
// the repository has for a schema, on mutations of them and on documents
// generated from the schema itself (AGYCONF_EVALUATE_CASES per schema,
// 2,000 unless set): the same tree of failures, and the same verdict from
// the quick check every document gets first.
func TestEvaluateAgrees(t *testing.T) {
	cases := 2000
	if s := os.Getenv("AGYCONF_EVALUATE_CASES"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("AGYCONF_EVALUATE_CASES=%q: %v", s, err)
		}
		cases = n
	}
	for _, j := range judges(t) {
		t.Run(j.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, uint64(len(j.name))))
			var passed, refused int
			check := func(v any, what string) {
				if j.agree(t, v, what) {
					passed++
				} else {
					refused++
				}
			}
			docs := corpus(t, j.name)
			paths := make([]string, 0, len(docs))
			for p := range docs {
				paths = append(paths, p)
			}
			sort.Strings(paths)
			for _, p := range paths {
				check(docs[p], p)
				for i := range 20 {
					check(mutate(r, deepCopy(docs[p]), 0), fmt.Sprintf("%s, mutation %d", p, i))
				}
			}
			g := &generator{r: r, root: j.source}
			for i := range cases {
				check(g.gen(j.source, 0), fmt.Sprintf("generated %d", i))
				if strings.HasPrefix(j.name, "synthetic-") {
					check(g.junk(0), fmt.Sprintf("junk %d", i))
				}
			}
			t.Logf("the library passed %d and refused %d", passed, refused)
			if passed == 0 || refused == 0 {
				t.Errorf("the library passed %d and refused %d documents: the test exercises neither side", passed, refused)
			}
		})
	}
}

// TestEvaluatorRefuses: a schema the evaluator would read otherwise than
// the library does not compile, so that adding one to the embedded
// schemas fails TestCompileAll instead of validating documents wrongly.
func TestEvaluatorRefuses(t *testing.T) {
	for _, src := range []string{
		`{"unevaluatedProperties": false}`,
		`{"prefixItems": [{"type": "string"}]}`,
		`{"patternProperties": {"^x": {"type": "string"}}}`,
		`{"multipleOf": 2}`,
		`{"format": "uri"}`,
		`{"x-unknown": 1}`,
		`{"$ref": "https://example.com/other.json"}`,
		`{"$ref": "#/$defs/missing"}`,
		`{"items": {"$id": "https://example.com/x", "type": "string"}}`,
		`{"$schema": "http://json-schema.org/draft-07/schema#", "type": "string"}`,
		`{"$defs": {"a": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"}`,
		`{"allOf": [{"$ref": "#"}, {"$ref": "#"}]}`,
		`{"type": "strings"}`,
		`{"minLength": -1}`,
		`{"pattern": "("}`,
		`{"anyOf": []}`,
		`5`,
	} {
		doc, ok := decodeJSON(t, []byte(src))
		if !ok {
			t.Fatalf("%s: not JSON", src)
		}
		if _, err := compileNodes(URL("refused"), doc); err == nil {
			t.Errorf("%s compiles, want an error", src)
		}
	}
}

// TestPathEscapes: a location spelled without url.PathEscape is the one
// the library spells with it.
func TestPathEscapes(t *testing.T) {
	for r := rune(0); r <= 0x10FFFF; r++ {
		if r == '/' || (0xD800 <= r && r <= 0xDFFF) {
			continue
		}
		if got, want := pathEscapes(r), url.PathEscape(string(r)) != string(r); got != want {
			t.Errorf("pathEscapes(%q) = %v, url.PathEscape says %v", r, got, want)
		}
	}
	b := &nodeBuilder{base: "u"}
	for _, ptr := range []string{"", "/properties/a b", "/$defs/x", "/properties/%", "/properties/é", "/items/0", "/properties/a~1b"} {
		var want strings.Builder
		want.WriteString("u#")
		for i, tok := range strings.Split(ptr, "/") {
			if i > 0 {
				want.WriteByte('/')
			}
			want.WriteString(url.PathEscape(tok))
		}
		if got := b.location(ptr); got != want.String() {
			t.Errorf("location(%q) = %q, want %q", ptr, got, want.String())
		}
	}
}

// FuzzEvaluateAgrees: any JSON document, judged against any schema, gets
// the library's findings from the evaluator.
func FuzzEvaluateAgrees(f *testing.F) {
	js := judges(f)
	for _, seed := range []string{
		`{}`, `{"mcpServers":{"s":{"command":"x","args":["a"]}}}`, `{"mcpServers":{"s":{"serverUrl":"https://x","command":"y"}}}`,
		`{"a":{"Stop":[{"type":"command","command":"x","timeout":5}]}}`, `{"a":{"PreToolUse":[{"matcher":"m","hooks":[{"type":"prompt","prompt":"p"}]}]}}`,
		`{"name":"x","description":"d"}`, `{"permissions":{"allow":["run_command(ls)"]}}`, `[1,"a",null,true,{"x":1.5}]`,
	} {
		for i := range js {
			f.Add([]byte(seed), uint8(i))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, which uint8) {
		v, ok := decodeJSON(t, data)
		if !ok {
			return
		}
		j := js[int(which)%len(js)]
		j.agree(t, v, "fuzzed")
	})
}

// generator makes documents from a schema's source: mostly what the
// schema describes, with a wrong type, a missing member or an extra one
// often enough that both verdicts come up.
type generator struct {
	r    *rand.Rand
	root any
}

var (
	genStrings = []string{"", "x", "command", "prompt", "PreToolUse", "pretooluse", "Stop", "SessionStart", "enabled", "hooks",
		"run_command", "https://example.com/mcp", "http://localhost:8080", "ftp://x", "/usr/bin/env", "~/bin/x", "a/b", "é", "regex:^ls",
		"run_command(ls)", "mcp__srv__tool", "oauth", "model", "always_on", "glob", "manual", "model_decision", "*.go", "serverUrl", "url"}
	genNumbers = []string{"0", "1", "-1", "5", "30", "1.0", "1.5", "2147483647", "2147483648", "-2147483649", "1e2", "600", "86400",
		"10", "11", "-5", "-6", "0.5", "4.99", "5.0", "2.5", "-0"}
)

var genFloats = []any{1.5, 2.0, -0.0, math.NaN(), math.Inf(1), math.Inf(-1), float64(1 << 40)}

func (g *generator) pick(xs []string) string { return xs[g.r.IntN(len(xs))] }

func (g *generator) junk(depth int) any {
	switch g.r.IntN(8) {
	case 0:
		return nil
	case 1:
		return g.r.IntN(2) == 0
	case 2:
		return json.Number(g.pick(genNumbers))
	case 3:
		if depth > 6 {
			return map[string]any{}
		}
		return map[string]any{g.pick(genStrings): g.junk(depth + 1)}
	case 4:
		if depth > 6 {
			return []any{}
		}
		return []any{g.junk(depth + 1)}
	case 5:
		return int64(g.r.IntN(10))
	case 6:
		if g.r.IntN(2) == 0 {
			// What YAML frontmatter gives: floats, NaN and the
			// infinities among them, which the library calls no JSON
			// value.
			return genFloats[g.r.IntN(len(genFloats))]
		}
	}
	return g.pick(genStrings)
}

// resolve follows a $ref inside the document.
func (g *generator) resolve(ref string) any {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return true
	}
	v := g.root
	for _, tok := range strings.Split(strings.TrimPrefix(frag, "/"), "/") {
		if tok == "" {
			continue
		}
		m, _ := v.(map[string]any)
		v = m[strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")]
	}
	return v
}

func (g *generator) gen(s any, depth int) any {
	m, ok := s.(map[string]any)
	if !ok || depth > 10 || g.r.IntN(12) == 0 {
		return g.junk(depth)
	}
	if ref, ok := m["$ref"].(string); ok && g.r.IntN(5) != 0 {
		return g.gen(g.resolve(ref), depth+1)
	}
	for _, k := range []string{"anyOf", "oneOf", "allOf"} {
		if bs, ok := m[k].([]any); ok && len(bs) > 0 && g.r.IntN(3) != 0 {
			v := g.gen(bs[g.r.IntN(len(bs))], depth+1)
			if obj, ok := v.(map[string]any); ok {
				g.members(m, obj, depth) // the branch's members and the parent's
			}
			return v
		}
	}
	// Copies: members() adds to an object it is given, and the schema's
	// own values must stay as they are.
	if e, ok := m["enum"].([]any); ok && len(e) > 0 && g.r.IntN(8) != 0 {
		return deepCopy(e[g.r.IntN(len(e))])
	}
	if c, ok := m["const"]; ok && g.r.IntN(8) != 0 {
		return deepCopy(c)
	}
	var types []string
	switch t := m["type"].(type) {
	case string:
		types = []string{t}
	case []any:
		for _, x := range t {
			if s, ok := x.(string); ok {
				types = append(types, s)
			}
		}
	}
	t := "object"
	if len(types) > 0 {
		t = types[g.r.IntN(len(types))]
	} else if _, ok := m["properties"]; !ok {
		return g.junk(depth)
	}
	switch t {
	case "object":
		obj := map[string]any{}
		g.members(m, obj, depth)
		return obj
	case "array":
		n := g.r.IntN(4)
		xs := make([]any, n)
		for i := range xs {
			xs[i] = g.gen(m["items"], depth+1)
		}
		return xs
	case "string":
		return g.pick(genStrings)
	case "integer", "number":
		if g.r.IntN(4) == 0 {
			return int64(g.r.IntN(100) - 10)
		}
		return json.Number(g.pick(genNumbers))
	case "boolean":
		return g.r.IntN(2) == 0
	case "null":
		return nil
	}
	return g.junk(depth)
}

// members adds to obj members that s names: its properties (required
// ones nearly always), the names its other keywords depend on, and now
// and then one it does not name.
func (g *generator) members(s map[string]any, obj map[string]any, depth int) {
	req := map[string]bool{}
	if r, ok := s["required"].([]any); ok {
		for _, x := range r {
			if n, ok := x.(string); ok {
				req[n] = true
			}
		}
	}
	props, _ := s["properties"].(map[string]any)
	names := make([]string, 0, len(props))
	for n := range props {
		names = append(names, n)
	}
	for n := range req {
		if _, ok := props[n]; !ok {
			names = append(names, n)
		}
	}
	if ds, ok := s["dependentSchemas"].(map[string]any); ok {
		for n := range ds {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		p := 3
		if req[n] {
			p = 19
		}
		if g.r.IntN(20) < p {
			if ps, ok := props[n]; ok {
				obj[n] = g.gen(ps, depth+1)
			} else {
				obj[n] = g.junk(depth + 1)
			}
		}
	}
	if g.r.IntN(6) == 0 {
		n := g.pick(genStrings)
		if ap, ok := s["additionalProperties"]; ok && g.r.IntN(2) == 0 {
			obj[n] = g.gen(ap, depth+1)
		} else {
			obj[n] = g.junk(depth + 1)
		}
	}
}

// mutate changes v in one place: a member dropped, added or replaced, an
// item replaced, a scalar swapped for another.
func mutate(r *rand.Rand, v any, depth int) any {
	g := &generator{r: r}
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		if len(keys) == 0 || r.IntN(4) == 0 {
			x[g.pick(genStrings)] = g.junk(depth)
			return x
		}
		k := keys[r.IntN(len(keys))]
		switch r.IntN(3) {
		case 0:
			delete(x, k)
		case 1:
			x[k] = g.junk(depth)
		default:
			x[k] = mutate(r, x[k], depth+1)
		}
		return x
	case []any:
		if len(x) == 0 || r.IntN(4) == 0 {
			return append(x, g.junk(depth))
		}
		i := r.IntN(len(x))
		x[i] = mutate(r, x[i], depth+1)
		return x
	}
	return g.junk(depth)
}

func deepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = deepCopy(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = deepCopy(e)
		}
		return out
	}
	return v
}
