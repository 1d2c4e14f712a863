package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/agyconf/agyconf/schema"
)

// The exit codes are a contract with scripts, CI and the Nix module; a
// change here is a breaking change, not a refactoring.
func TestExitCodeValues(t *testing.T) {
	for _, c := range []struct {
		name      string
		got, want int
	}{
		{"ExitOK", ExitOK, 0},
		{"ExitFindings", ExitFindings, 1},
		{"ExitBadInput", ExitBadInput, 2},
		{"ExitConflict", ExitConflict, 3},
	} {
		if c.got != c.want {
			t.Errorf("%s = %d, want %d", c.name, c.got, c.want)
		}
	}
}

// TestMainExitCodes runs Main in-process for every kind of invocation and
// checks the exact exit code, and which of stdout and stderr got output.
func TestMainExitCodes(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	validHCL := write("valid.hcl", "rule \"style\" {\n  body = \"Write short functions.\"\n}\n")
	validJSON := write("valid.json", `{"rule": {"style": {"body": "Write short functions."}}}`+"\n")
	invalid := write("invalid.hcl", "agyconf {\n  scope = \"galaxy\"\n}\n\nrule \"empty\" {\n}\n")
	syntax := write("syntax.hcl", "rule \"x\" {\n")
	folder := filepath.Dir(write("folder/a.hcl", "rule \"a\" {\n  body = \"A.\"\n}\n"))
	write("folder/b.json", `{"rule": {"b": {"body": "B."}}}`)
	empty := filepath.Dir(write("empty/notes.txt", "not a config\n"))
	missing := filepath.Join(dir, "missing.hcl")

	// Which streams an invocation writes to.
	const (
		stdout = 1 << iota
		stderr
	)
	for _, tc := range []struct {
		name string
		args []string
		code int
		out  int // the streams that must not be empty; the others must be
	}{
		// No command.
		{"bare", nil, 0, stdout},
		{"help flag", []string{"--help"}, 0, stdout},
		{"help command", []string{"help", "validate"}, 0, stdout},
		{"help unknown topic", []string{"help", "nosuch"}, 2, stderr},
		{"unknown command", []string{"valdate"}, 2, stderr},
		{"unknown global flag", []string{"--bogus"}, 2, stderr},

		// version
		{"version", []string{"version"}, 0, stdout},
		{"version with argument", []string{"version", "extra"}, 2, stderr},
		{"version help", []string{"version", "--help"}, 0, stdout},

		// validate: valid
		{"validate HCL", []string{"validate", "--config", validHCL}, 0, stdout},
		{"validate JSON", []string{"validate", "--config", validJSON}, 0, stdout},
		{"validate folder", []string{"validate", "-c", folder}, 0, stdout},
		{"validate json report, valid", []string{"validate", "--config", validHCL, "--diagnostics-format", "json"}, 0, stdout},
		{"validate color never, valid", []string{"validate", "--config", validHCL, "--color", "never"}, 0, stdout},

		// validate: findings
		{"validate invalid", []string{"validate", "--config", invalid}, 1, stderr},
		{"validate syntax error", []string{"validate", "--config", syntax}, 1, stderr},
		{"validate invalid, json report", []string{"validate", "--config", invalid, "--diagnostics-format", "json"}, 1, stdout},
		{"validate invalid, color always", []string{"validate", "--config", invalid, "--color", "always"}, 1, stderr},

		// validate: cannot run
		{"validate without config", []string{"validate"}, 2, stderr},
		{"validate config without value", []string{"validate", "--config"}, 2, stderr},
		{"validate missing path", []string{"validate", "--config", missing}, 2, stderr},
		{"validate missing path, json report", []string{"validate", "--config", missing, "--diagnostics-format", "json"}, 2, stdout},
		{"validate empty folder", []string{"validate", "--config", empty}, 2, stderr},
		{"validate positional argument", []string{"validate", "--config", validHCL, "extra"}, 2, stderr},
		{"validate path as argument", []string{"validate", validHCL}, 2, stderr},
		{"validate bogus format", []string{"validate", "--config", validHCL, "--diagnostics-format", "bogus"}, 2, stderr},
		{"validate bogus color", []string{"validate", "--config", validHCL, "--color", "rainbow"}, 2, stderr},
		{"validate unknown flag", []string{"validate", "--bogus"}, 2, stderr},

		// schema
		{"schema", []string{"schema"}, 0, stdout},
		{"schema by name", []string{"schema", schema.Input}, 0, stdout},
		{"schema list", []string{"schema", "--list"}, 0, stdout},
		{"schema unknown name", []string{"schema", "nosuch"}, 2, stderr},
		{"schema list with name", []string{"schema", "--list", schema.Input}, 2, stderr},
		{"schema two names", []string{"schema", schema.Input, schema.Input}, 2, stderr},
		{"schema bad bool", []string{"schema", "--list=maybe"}, 2, stderr},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := Main(append([]string{"agyconf"}, tc.args...), &out, &errOut)
			if code != tc.code {
				t.Errorf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, &out, &errOut)
			}
			if got, want := out.Len() > 0, tc.out&stdout != 0; got != want {
				t.Errorf("stdout non-empty = %v, want %v:\n%s", got, want, &out)
			}
			if got, want := errOut.Len() > 0, tc.out&stderr != 0; got != want {
				t.Errorf("stderr non-empty = %v, want %v:\n%s", got, want, &errOut)
			}
		})
	}
}

// TestSchemaOutput checks that `agyconf schema` prints the embedded input
// schema unchanged, and that it is a JSON document naming its dialect.
func TestSchemaOutput(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := Main([]string{"agyconf", "schema"}, &out, &errOut); code != 0 {
		t.Fatalf("exit code %d: %s", code, &errOut)
	}
	want, err := schema.Source(schema.Input)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.Bytes(), want) {
		t.Errorf("agyconf schema differs from the embedded %s.schema.json", schema.Input)
	}
	var doc map[string]any
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	if got := doc["$schema"]; got != "https://json-schema.org/draft/2020-12/schema" {
		t.Errorf("$schema = %v, want the 2020-12 dialect", got)
	}
	if got := doc["$id"]; got != schema.URL(schema.Input) {
		t.Errorf("$id = %v, want %s", got, schema.URL(schema.Input))
	}
}

// TestValidateJSONReport checks that the JSON report is one valid
// document whose counts agree with its diagnostics.
func TestValidateJSONReport(t *testing.T) {
	p := filepath.Join(t.TempDir(), "invalid.hcl")
	if err := os.WriteFile(p, []byte("agyconf {\n  scope = \"galaxy\"\n}\n\nrule \"empty\" {\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if code := Main([]string{"agyconf", "validate", "--config", p, "--diagnostics-format", "json"}, &out, &errOut); code != 1 {
		t.Fatalf("exit code %d, want 1", code)
	}
	var r struct {
		Valid       bool `json:"valid"`
		Errors      int  `json:"error_count"`
		Diagnostics []struct {
			Summary string `json:"summary"`
			Range   *struct {
				Filename string `json:"filename"`
			} `json:"range"`
		} `json:"diagnostics"`
	}
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, &out)
	}
	if r.Valid || r.Errors != 2 || len(r.Diagnostics) != 2 {
		t.Fatalf("report = %+v, want 2 errors", r)
	}
	for _, d := range r.Diagnostics {
		if d.Range == nil || d.Range.Filename != p {
			t.Errorf("%q: range %+v, want one in %s", d.Summary, d.Range, p)
		}
	}
	if errOut.Len() != 0 {
		t.Errorf("stderr not empty:\n%s", &errOut)
	}
}
