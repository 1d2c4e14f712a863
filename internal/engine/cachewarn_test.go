package engine

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/agyconf/agyconf/internal/config"
	"github.com/agyconf/agyconf/internal/rulebook"
)

// TestCachedWarningsRoundTrip checks that warnings recorded by one run
// come back named as another run names the config — relative, absolute,
// a file or its folder — with the machine mark, both ranges, and the
// config file's bytes and the block the run named around the subject for
// the snippet, and that a file the run had no snippet of (decoding parses
// only config files) keeps its absolute name and gets none.
func TestCachedWarningsRoundTrip(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.MkdirAll("cfg", 0o755); err != nil {
		t.Fatal(err)
	}
	text := "hook \"fmt\" {\n  post_tool_use {\n    matcher = \"*\"\n    command = \"./fmt.sh\"\n  }\n}\n"
	if err := os.WriteFile(filepath.Join("cfg", "agyconf.hcl"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(dir, "skill.md")
	at := func(file string, line int) *hcl.Range {
		return &hcl.Range{Filename: file, Start: hcl.Pos{Line: line, Column: 5, Byte: 30}, End: hcl.Pos{Line: line, Column: 12, Byte: 37}}
	}
	for _, tc := range []struct {
		name             string
		wrote, read      string // the config as each run names it
		file, wantFile   string // a warning's file in the run that wrote, and as the reader names it
		wantSnippetParse bool
	}{
		{"folder, relative then absolute", "cfg", filepath.Join(dir, "cfg"), filepath.Join("cfg", "agyconf.hcl"), filepath.Join(dir, "cfg", "agyconf.hcl"), true},
		{"folder, absolute then relative", filepath.Join(dir, "cfg"), "cfg/", filepath.Join(dir, "cfg", "agyconf.hcl"), filepath.Join("cfg", "agyconf.hcl"), true},
		{"file, as given", "./cfg/agyconf.hcl", "cfg/agyconf.hcl", "./cfg/agyconf.hcl", "cfg/agyconf.hcl", true},
		{"a file outside the config", "cfg", "cfg", outside, outside, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := hcl.Diagnostics{
				{Severity: hcl.DiagWarning, Summary: "S", Detail: "D", Subject: at(tc.file, 4), Context: at(tc.file, 2), Extra: machineCheck("secret/missing")},
				{Severity: hcl.DiagWarning, Summary: "no range"},
			}
			files := map[string]*hcl.File{}
			if tc.wantSnippetParse {
				p := config.NewParser()
				if _, diags := p.ParseFile(tc.file); diags.HasErrors() {
					t.Fatal(diags)
				}
				files = p.Files()
			}
			raw, err := encodeWarnings(in, files, tc.wrote)
			if err != nil {
				t.Fatal(err)
			}
			out, back, ok := decodeWarnings(raw, tc.read)
			if !ok || len(out) != 2 {
				t.Fatalf("decode: ok %v, %d diagnostics", ok, len(out))
			}
			d := out[0]
			if d.Severity != hcl.DiagWarning || d.Summary != "S" || d.Detail != "D" || d.Subject == nil || d.Context == nil {
				t.Fatalf("got %+v", d)
			}
			if d.Subject.Filename != tc.wantFile || d.Context.Filename != tc.wantFile {
				t.Errorf("named %q and %q, want %q", d.Subject.Filename, d.Context.Filename, tc.wantFile)
			}
			if d.Subject.Start != in[0].Subject.Start || d.Subject.End != in[0].Subject.End || d.Context.Start != in[0].Context.Start {
				t.Errorf("ranges changed: %+v", d)
			}
			if m, ok := d.Extra.(rulebook.Tag); !ok || !m.MachineDependent() || m.Rule != "secret/missing" {
				t.Errorf("the machine mark or the rule is lost: %#v", d.Extra)
			}
			if out[1].Subject != nil || out[1].Extra != nil {
				t.Errorf("the second warning gained %+v", out[1])
			}
			f := back[tc.wantFile]
			if got := f != nil && string(f.Bytes) == text; got != tc.wantSnippetParse {
				t.Errorf("the file for the snippet: %v, want %v", got, tc.wantSnippetParse)
			}
			if f != nil {
				if got := f.Nav.(contextStringer).ContextString(in[0].Subject.Start.Byte); got != `hook "fmt"` {
					t.Errorf("the block around the subject: %q", got)
				}
			}
		})
	}
	if raw, err := encodeWarnings(nil, nil, "cfg"); err != nil || raw != nil {
		t.Errorf("no warnings record %s, %v", raw, err)
	}
	if out, _, ok := decodeWarnings(nil, "cfg"); !ok || out != nil {
		t.Errorf("nothing recorded gives %v, %v", out, ok)
	}
	if _, _, ok := decodeWarnings([]byte("{"), "cfg"); ok {
		t.Error("a broken record is a hit")
	}
}
