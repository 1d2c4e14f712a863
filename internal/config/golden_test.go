package config

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/hashicorp/hcl/v2"

	"github.com/agyconf/agyconf/internal/model"
)

const (
	validDir  = "testdata/valid"
	goldenDir = "testdata/golden"
	// assetsDir holds the files valid configs read with file() and source;
	// every other folder of validDir is a directory config.
	assetsDir = "assets"
)

// validCase is one valid config: a .hcl and a .json file holding the same
// config in both syntaxes, or a folder of files.
type validCase struct {
	name  string
	paths []string
}

func validCases(t *testing.T) []validCase {
	t.Helper()
	entries, err := os.ReadDir(validDir)
	if err != nil {
		t.Fatal(err)
	}
	forms := map[string][]string{}
	var cases []validCase
	for _, e := range entries {
		name := e.Name()
		switch {
		case e.IsDir() && name == assetsDir:
		case e.IsDir():
			cases = append(cases, validCase{name, []string{filepath.Join(validDir, name)}})
		case filepath.Ext(name) == ".hcl" || filepath.Ext(name) == ".json":
			base := strings.TrimSuffix(name, filepath.Ext(name))
			forms[base] = append(forms[base], filepath.Join(validDir, name))
		default:
			t.Errorf("%s: unexpected file in %s", name, validDir)
		}
	}
	for base, paths := range forms {
		sort.Strings(paths)
		if len(paths) != 2 {
			t.Errorf("%s: want the same config as %s.hcl and %s.json, have %v", base, base, base, paths)
			continue
		}
		cases = append(cases, validCase{base, paths})
	}
	sort.Slice(cases, func(i, j int) bool { return cases[i].name < cases[j].name })
	return cases
}

// TestValid decodes every valid config without a single diagnostic, checks
// that the HCL and JSON forms of a config give the same model (ranges
// aside), and compares the model with its golden JSON dump. Run with
// -update to rewrite the goldens after an intended change.
func TestValid(t *testing.T) {
	cases := validCases(t)
	if len(cases) == 0 {
		t.Fatal("no valid cases")
	}
	want := map[string]bool{}
	for _, tc := range cases {
		want[tc.name+".json"] = true
		t.Run(tc.name, func(t *testing.T) {
			var models []*model.Config
			for _, path := range tc.paths {
				cfg, diags := load(t, path)
				for _, d := range diags {
					t.Errorf("%s: %s", path, diagString(d))
				}
				if cfg == nil {
					t.Fatalf("%s: no model", path)
				}
				checkRanges(t, path, cfg)
				models = append(models, cfg)
			}
			if len(models) == 2 {
				if diff := cmp.Diff(models[0], models[1],
					cmpopts.IgnoreTypes(hcl.Range{}),
					cmpopts.IgnoreFields(model.Config{}, "Files", "Inputs"),
				); diff != "" {
					t.Errorf("%s and %s decode differently (-%s +%s):\n%s", tc.paths[0], tc.paths[1], filepath.Ext(tc.paths[0]), filepath.Ext(tc.paths[1]), diff)
				}
			}
			got := goldenJSON(t, models[0])
			golden := filepath.Join(goldenDir, tc.name+".json")
			if *update {
				if err := os.MkdirAll(goldenDir, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			wantJSON, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -run TestValid -update to create it)", err)
			}
			if diff := cmp.Diff(string(wantJSON), string(got)); diff != "" {
				t.Errorf("%s differs from the decoded model (-want +got):\n%s", golden, diff)
			}
		})
	}
	if *update {
		return
	}
	// A golden without a case is a case deleted by mistake, or renamed.
	goldens, err := os.ReadDir(goldenDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range goldens {
		if !want[g.Name()] {
			t.Errorf("%s/%s belongs to no case in %s", goldenDir, g.Name(), validDir)
		}
	}
}

// goldenJSON dumps a model as indented JSON that does not depend on where
// the repository is checked out: a skill's source, absolute in the model,
// is written relative to validDir.
func goldenJSON(t *testing.T, cfg *model.Config) []byte {
	t.Helper()
	base, err := filepath.Abs(validDir)
	if err != nil {
		t.Fatal(err)
	}
	relSources := func(skills []*model.Skill) {
		for _, s := range skills {
			if s.Source == "" {
				continue
			}
			if !filepath.IsAbs(s.Source) {
				t.Errorf("skill %q: source %q is not absolute", s.Name, s.Source)
				continue
			}
			rel, err := filepath.Rel(base, s.Source)
			if err != nil {
				t.Fatal(err)
			}
			s.Source = filepath.ToSlash(rel)
		}
	}
	relSources(cfg.Skills)
	for _, p := range cfg.Plugins {
		relSources(p.Skills)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(cfg); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(buf.Bytes(), []byte(base)) {
		t.Errorf("the golden would hold the checkout path %s; make that value relative in goldenJSON", base)
	}
	return buf.Bytes()
}

var rangeType = reflect.TypeOf(hcl.Range{})

// checkRanges asserts that every Range in the model points into one of the
// files decoded, so that later stages can always name a line. The agyconf
// block is the one thing that may be absent, leaving its Range zero.
func checkRanges(t *testing.T, path string, cfg *model.Config) {
	t.Helper()
	files := map[string]bool{}
	for _, f := range cfg.Files {
		files[f] = true
	}
	var walk func(v reflect.Value, where string)
	walk = func(v reflect.Value, where string) {
		switch v.Kind() {
		case reflect.Pointer, reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem(), where)
			}
		case reflect.Slice, reflect.Array:
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i), where+"["+strconv.Itoa(i)+"]")
			}
		case reflect.Map:
			for _, k := range v.MapKeys() {
				walk(v.MapIndex(k), where+"["+k.String()+"]")
			}
		case reflect.Struct:
			if v.Type() == rangeType {
				r := v.Interface().(hcl.Range)
				if where == ".Agyconf.Range" && r == (hcl.Range{}) {
					return
				}
				if !files[r.Filename] || r.Start.Line < 1 {
					t.Errorf("%s: %s = %v does not point into %v", path, where, r, cfg.Files)
				}
				return
			}
			for i := 0; i < v.NumField(); i++ {
				walk(v.Field(i), where+"."+v.Type().Field(i).Name)
			}
		}
	}
	walk(reflect.ValueOf(cfg).Elem(), "")
}

// TestConfigFiles shows which files a folder config is made of: *.hcl and
// *.json directly inside, sorted, without hidden files or subfolders (the
// multi case holds one of each, which would fail to decode if read).
func TestConfigFiles(t *testing.T) {
	dir := filepath.Join(validDir, "multi")
	files, diags := ConfigFiles(dir)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	want := []string{
		filepath.Join(dir, "10-mcp.json"),
		filepath.Join(dir, "20-hooks.hcl"),
		filepath.Join(dir, "90-agyconf.hcl"),
	}
	if diff := cmp.Diff(want, files); diff != "" {
		t.Errorf("ConfigFiles(%s) (-want +got):\n%s", dir, diff)
	}
	cfg, diags := load(t, dir)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if diff := cmp.Diff(want, cfg.Files); diff != "" {
		t.Errorf("Config.Files (-want +got):\n%s", diff)
	}

	// A single file stands for itself, whatever its extension.
	if files, _ := ConfigFiles(filepath.Join(validDir, "mcp.hcl")); len(files) != 1 {
		t.Errorf("a file path gave %v", files)
	}

	for _, tc := range []struct{ path, summary string }{
		{filepath.Join(t.TempDir(), "missing"), "Cannot read config"},
		{t.TempDir(), "No config files"},
		{filepath.Join(validDir, assetsDir), "No config files"},
	} {
		files, diags := ConfigFiles(tc.path)
		if files != nil || len(diags) != 1 || diags[0].Summary != tc.summary {
			t.Errorf("ConfigFiles(%s) = %v, %v; want the error %q", tc.path, files, diags, tc.summary)
		}
	}
}
