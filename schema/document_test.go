package schema_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/config"
	"github.com/agyconf/agyconf/internal/harness"
	"github.com/agyconf/agyconf/internal/layout"
	"github.com/agyconf/agyconf/internal/render"
	"github.com/agyconf/agyconf/schema"
)

// documentSchemas are the schemas of the files Antigravity reads, and
// whether their documents are JSON or markdown with YAML frontmatter.
var documentSchemas = map[string]string{
	render.SchemaOf(agy.MCPConfig):  ".json",
	render.SchemaOf(agy.Hooks):      ".json",
	render.SchemaOf(agy.Plugins):    ".json",
	render.SchemaOf(agy.Skills):     ".md",
	render.SchemaOf(agy.Rules):      ".md",
	render.SchemaOf(agy.Agents):     ".md",
	render.SchemaOf(agy.Workflows):  ".md",
	render.SchemaOf(agy.Settings):   ".json",
	"acp-settings":                  ".json",
	render.SchemaOf(agy.UserConfig): ".json",
	schema.State:                    ".json",
	schema.StateV1:                  ".json",
	schema.StateV2:                  ".json",
	schema.StateV3:                  ".json",
	schema.StateV4:                  ".json",
	schema.StateV5:                  ".json",
}

func newValidator(t *testing.T) *schema.Validator {
	t.Helper()
	names := make([]string, 0, len(documentSchemas))
	for n := range documentSchemas {
		names = append(names, n)
	}
	v, err := schema.NewValidator(names...)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func validate(v *schema.Validator, name, ext string, data []byte) error {
	if ext == ".md" {
		return v.ValidateMarkdown(name, data)
	}
	return v.ValidateJSON(name, data)
}

// TestDocumentSchemasDescribed checks each document schema's header and
// that every property it declares carries a description.
func TestDocumentSchemasDescribed(t *testing.T) {
	for name := range documentSchemas {
		checkDescribed(t, name)
	}
}

// checkDescribed checks a schema's header — draft 2020-12, its $id, a
// top-level description — and that every property it declares carries a
// description.
func checkDescribed(t *testing.T, name string) {
	t.Helper()
	src, err := schema.Source(name)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(src, &doc); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if doc["$schema"] != "https://json-schema.org/draft/2020-12/schema" {
		t.Errorf("%s: $schema is %v, want draft 2020-12", name, doc["$schema"])
	}
	if doc["$id"] != schema.URL(name) {
		t.Errorf("%s: $id is %v, want %s", name, doc["$id"], schema.URL(name))
	}
	if d, _ := doc["description"].(string); d == "" {
		t.Errorf("%s: no top-level description", name)
	}
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch v := v.(type) {
		case map[string]any:
			if props, ok := v["properties"].(map[string]any); ok {
				for p, ps := range props {
					m, ok := ps.(map[string]any)
					if !ok {
						t.Errorf("%s: %s/properties/%s is not an object with a description", name, path, p)
						continue
					}
					if d, _ := m["description"].(string); d == "" {
						t.Errorf("%s: %s/properties/%s has no description", name, path, p)
					}
				}
			}
			for k, e := range v {
				walk(path+"/"+k, e)
			}
		case []any:
			for i, e := range v {
				walk(fmt.Sprintf("%s/%d", path, i), e)
			}
		}
	}
	walk("#", doc)
}

// want is one expected finding of an invalid fixture: a line of its
// sidecar .want file, "LINE:COLUMN POINTER MESSAGE-PART", with "-" for
// the empty pointer.
type want struct {
	line, col int
	pointer   string
	part      string
}

func (w want) String() string {
	return fmt.Sprintf("%d:%d %s %q", w.line, w.col, w.pointer, w.part)
}

func readWant(t *testing.T, path string) []want {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("an invalid fixture needs its expected findings: %v", err)
	}
	defer f.Close()
	var out []want
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		text := sc.Text()
		if strings.TrimSpace(text) == "" || strings.HasPrefix(text, "#") {
			continue
		}
		pos, rest, ok1 := strings.Cut(text, " ")
		ptr, part, ok2 := strings.Cut(rest, " ")
		ls, cs, ok3 := strings.Cut(pos, ":")
		line, err1 := strconv.Atoi(ls)
		col, err2 := strconv.Atoi(cs)
		if !ok1 || !ok2 || !ok3 || err1 != nil || err2 != nil || part == "" {
			t.Fatalf("%s:%d: want LINE:COLUMN POINTER MESSAGE-PART, got %q", path, n, text)
		}
		if ptr == "-" {
			ptr = ""
		}
		out = append(out, want{line, col, ptr, part})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatalf("%s lists no finding", path)
	}
	return out
}

// TestDocumentFixtures validates testdata/documents/<schema>/valid/* (no
// finding) and invalid/* (exactly the findings of the sidecar .want file:
// same count, each at its line and column, on its pointer, its message
// containing the given text). A schema that lets a trap through fails
// here, and so does one that reports it twice or somewhere else.
func TestDocumentFixtures(t *testing.T) {
	v := newValidator(t)
	for name, ext := range documentSchemas {
		for _, kind := range []string{"valid", "invalid"} {
			dir := filepath.Join("testdata", "documents", name, kind)
			files, err := filepath.Glob(filepath.Join(dir, "*"+ext))
			if err != nil {
				t.Fatal(err)
			}
			if len(files) == 0 {
				t.Errorf("%s: no %s fixtures", dir, ext)
			}
			wants, _ := filepath.Glob(filepath.Join(dir, "*.want"))
			for _, w := range wants {
				if _, err := os.Stat(strings.TrimSuffix(w, ".want")); err != nil || kind == "valid" {
					t.Errorf("%s: a .want file belongs next to an invalid fixture", w)
				}
			}
			entries, err := os.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range entries {
				if n := e.Name(); !strings.HasSuffix(n, ext) && !strings.HasSuffix(n, ".want") {
					t.Errorf("%s: unexpected file %s (fixtures of %s are %s files)", dir, n, name, ext)
				}
			}
			for _, f := range files {
				t.Run(filepath.ToSlash(f), func(t *testing.T) {
					data, err := os.ReadFile(f)
					if err != nil {
						t.Fatal(err)
					}
					err = validate(v, name, ext, data)
					if kind == "valid" {
						if err != nil {
							t.Errorf("want no finding, got %v", err)
						}
						return
					}
					checkFindings(t, err, readWant(t, f+".want"))
				})
			}
		}
	}
}

func checkFindings(t *testing.T, err error, wants []want) {
	t.Helper()
	var de *schema.DocumentError
	if !errors.As(err, &de) {
		t.Fatalf("want findings %v, got error %v", wants, err)
	}
	got := de.Findings
	matched := make([]bool, len(got))
	for _, w := range wants {
		found := false
		for i, f := range got {
			if !matched[i] && f.Line == w.line && f.Column == w.col && f.Pointer == w.pointer && strings.Contains(f.Message, w.part) {
				matched[i], found = true, true
				break
			}
		}
		if !found {
			t.Errorf("no finding %v", w)
		}
	}
	if len(got) != len(wants) {
		t.Errorf("got %d findings, want %d", len(got), len(wants))
	}
	if t.Failed() {
		var b strings.Builder
		for _, f := range got {
			fmt.Fprintf(&b, "\n\t%d:%d %s %s", f.Line, f.Column, orDash(f.Pointer), f.Message)
		}
		t.Logf("findings:%s", b.String())
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// TestFixturesCoverSchemas keeps the fixture tree in step with the schema
// list: a folder per document schema and nothing else. Hook contracts
// have no folder: hook_contract_test.go checks them.
func TestFixturesCoverSchemas(t *testing.T) {
	entries, err := os.ReadDir(filepath.Join("testdata", "documents"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	var want []string
	for n := range documentSchemas {
		want = append(want, n)
	}
	sort.Strings(want)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("testdata/documents holds %v, want %v", got, want)
	}
	for _, n := range schema.Names() {
		// Hook contracts (stdin and stdout of hook processes) are not
		// files: hook_contract_test.go checks them with inline examples.
		if _, ok := documentSchemas[n]; !ok && n != schema.Input && !hookContractSchemas[n] {
			t.Errorf("schema %s has no fixtures in testdata/documents", n)
		}
	}
}

// TestRenderedDocumentsValidate renders configs using every block render
// supports, and the bundled examples, and validates every document that
// names a schema: agyconf's own output must pass its own schemas.
func TestRenderedDocumentsValidate(t *testing.T) {
	v := newValidator(t)
	// tests/render holds small configs that together use every block
	// render supports, in both scopes and all products.
	paths, err := filepath.Glob("../tests/render/*.hcl")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no configs in tests/render: %v", err)
	}
	sort.Strings(paths)
	paths = append(paths, "../examples/global", "../examples/workspace")
	seen := map[string]int{}
	for _, p := range paths {
		cfg, diags := config.NewParser().LoadConfig(p)
		if diags.HasErrors() {
			t.Errorf("%s: %v", p, diags)
			continue
		}
		// Harnesses render as the blocks they expand to.
		if diags := harness.Expand(cfg); diags.HasErrors() {
			t.Errorf("%s: %v", p, diags)
			continue
		}
		plan, diags := render.Render(cfg, layout.New(cfg.Agyconf))
		if diags.HasErrors() {
			t.Errorf("%s: render: %v", p, diags)
			continue
		}
		for _, d := range plan.Documents {
			if d.Schema == "" {
				continue
			}
			ext, ok := documentSchemas[d.Schema]
			if !ok {
				t.Errorf("%s: %s names schema %q, which is not a document schema", p, d.Path, d.Schema)
				continue
			}
			if (d.JSON != nil) != (ext == ".json") {
				t.Errorf("%s: %s: a %s document with schema %s", p, d.Path, map[bool]string{true: "JSON", false: "text"}[d.JSON != nil], d.Schema)
				continue
			}
			data, err := d.Bytes(render.Redact)
			if err != nil {
				t.Fatal(err)
			}
			seen[d.Schema]++
			if err := validate(v, d.Schema, ext, data); err != nil {
				t.Errorf("%s: %s: %v\n%s", p, d.Path, err, data)
			}
		}
	}
	// agyconf's own state is not a rendered document: the examples'
	// states are checked instead.
	states, _ := filepath.Glob("../examples/*/expected/.local/state/agyconf/*.json")
	ws, _ := filepath.Glob("../examples/*/expected/.agyconf/*.json")
	for _, p := range append(states, ws...) {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		seen[schema.State]++
		if err := v.ValidateJSON(schema.State, data); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
	for name := range documentSchemas {
		if seen[name] == 0 && name != schema.StateV1 && name != schema.StateV2 && name != schema.StateV3 && name != schema.StateV4 && name != schema.StateV5 { // read only to migrate: fixtures cover them
			t.Errorf("no rendered document used schema %s", name)
		}
	}
	if t.Failed() {
		return
	}
	t.Logf("validated rendered documents per schema: %v", seen)
}

// TestValidatorAPI covers what the fixtures do not: package-level
// helpers, unknown names, validators compiled for some schemas only,
// and the error text.
func TestValidatorAPI(t *testing.T) {
	if err := schema.ValidateJSON("plugin", []byte(`{"name":"ok"}`)); err != nil {
		t.Errorf("ValidateJSON: %v", err)
	}
	if err := schema.ValidateMarkdown("workflow-frontmatter", []byte("---\ndescription: x\n---\nbody\n")); err != nil {
		t.Errorf("ValidateMarkdown: %v", err)
	}
	err := schema.ValidateJSON("nosuch", []byte(`{}`))
	var de *schema.DocumentError
	if err == nil || errors.As(err, &de) || !strings.Contains(err.Error(), `no schema named "nosuch"`) {
		t.Errorf("unknown schema: got %v", err)
	}
	v, err := schema.NewValidator("plugin")
	if err != nil {
		t.Fatal(err)
	}
	if err := v.ValidateJSON("hooks", []byte(`{}`)); err == nil || errors.As(err, &de) {
		t.Errorf("schema not compiled in: got %v", err)
	}
	err = v.ValidateJSON("plugin", []byte("{\n  \"name\": \".x\",\n  \"name\": \"y\",\n  \"permissions\": []\n}\n"))
	if !errors.As(err, &de) {
		t.Fatalf("got %v, want a *DocumentError", err)
	}
	if de.Schema != "plugin" || len(de.Findings) != 2 {
		t.Fatalf("got %+v", de)
	}
	wantText := "not a valid plugin document: 2 problems\n\t3:3: /name: duplicate key \"name\" (first at 2:3)"
	if !strings.HasPrefix(err.Error(), wantText) {
		t.Errorf("error text:\n%s\nwant it to start with\n%s", err, wantText)
	}
	if got := de.Findings[1].String(); !strings.HasPrefix(got, "4:3: /permissions: ") {
		t.Errorf("second finding: %s", got)
	}
	err = v.ValidateJSON("plugin", []byte(`{"name": 1}`))
	if !errors.As(err, &de) || len(de.Findings) != 1 || !strings.HasPrefix(err.Error(), "not a valid plugin document: 1:10: /name: ") {
		t.Errorf("one finding: got %v", err)
	}
	all, err := schema.NewValidator()
	if err != nil {
		t.Fatal(err)
	}
	if err := all.ValidateJSON(schema.Input, []byte(`{"agyconf": {"scope": "global"}}`)); err != nil {
		t.Errorf("the input schema through a full validator: %v", err)
	}
}

// TestColumnsCountCharacters pins the column unit: characters, not bytes.
func TestColumnsCountCharacters(t *testing.T) {
	err := schema.ValidateJSON("plugin", []byte(`{"description": "é—日本", "logo": 1, "name": "x"}`))
	var de *schema.DocumentError
	if !errors.As(err, &de) || len(de.Findings) != 1 {
		t.Fatalf("got %v", err)
	}
	if f := de.Findings[0]; f.Line != 1 || f.Column != 33 || f.Pointer != "/logo" {
		t.Errorf("got %+v, want 1:33 /logo", f)
	}
	// A byte order mark is reported at 1:1 and takes no column itself.
	err = schema.ValidateJSON("plugin", []byte("\uFEFF{\"name\": 1}"))
	if !errors.As(err, &de) || len(de.Findings) != 2 {
		t.Fatalf("got %v", err)
	}
	if f := de.Findings[0]; f.Line != 1 || f.Column != 1 || f.Pointer != "" {
		t.Errorf("got %+v, want the BOM at 1:1", f)
	}
	if f := de.Findings[1]; f.Line != 1 || f.Column != 10 || f.Pointer != "/name" {
		t.Errorf("got %+v, want 1:10 /name", f)
	}
}

// TestRenderSchemaNames keeps the renderer's schema names and the
// embedded schemas in step.
func TestRenderSchemaNames(t *testing.T) {
	names := map[string]bool{}
	for _, n := range schema.Names() {
		names[n] = true
	}
	for n := range documentSchemas {
		if !names[n] {
			t.Errorf("no embedded schema %s", n)
		}
	}
	src, err := schema.Source(render.SchemaOf(agy.Hooks))
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range agy.EventNames() {
		if !bytes.Contains(src, []byte(`"`+string(ev)+`"`)) {
			t.Errorf("hooks schema does not name event %s", ev)
		}
	}
}

// TestFindingsDeterministic: the same document gives the same findings,
// run after run. The validator reported a propertyNames failure at the
// path of whichever sibling it validated last, in Go's map order, so which
// hooks' bad event names were reported, and with which message, changed
// from run to run; each is now at its own hook.
func TestFindingsDeterministic(t *testing.T) {
	doc := []byte(`{
  "alpha": {"SessionEnd": [{"type": "command", "command": "/bin/a"}]},
  "bravo": {"pretooluse": [], "Stop": [{"type": "command", "command": "/bin/b", "timeout": 1.5}]},
  "charlie": {"onStop": [{"type": "command", "command": "/bin/c"}], "enabled": "yes"},
  "delta": {"SessionEnd": [], "Bogus": 1}
}
`)
	v, err := schema.NewValidator("hooks")
	if err != nil {
		t.Fatal(err)
	}
	var first []schema.Finding
	for run := range 200 {
		var de *schema.DocumentError
		if err := v.ValidateJSON("hooks", doc); !errors.As(err, &de) {
			t.Fatalf("run %d: %v, want findings", run, err)
		}
		if run == 0 {
			first = de.Findings
			continue
		}
		if diff := cmp.Diff(first, de.Findings); diff != "" {
			t.Fatalf("run %d gave other findings (-first +now):\n%s", run, diff)
		}
	}
	// Each bad name is reported at its own hook.
	for _, want := range []string{"/alpha/SessionEnd", "/bravo/pretooluse", "/charlie/onStop", "/delta/SessionEnd", "/delta/Bogus"} {
		if !slices.ContainsFunc(first, func(f schema.Finding) bool {
			return f.Pointer == want && strings.Contains(f.Message, "is not allowed here")
		}) {
			t.Errorf("no finding about the key at %s in %v", want, first)
		}
	}
}
