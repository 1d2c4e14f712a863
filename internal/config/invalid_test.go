package config

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/agyconf/agyconf/internal/rulebook"
)

const invalidDir = "testdata/invalid"

// expectedDiag is one diagnostic as the invalid corpus writes it inline: on
// the line where its range starts, with the column, severity and summary.
type expectedDiag struct {
	File     string // base name: only directory configs have several
	Line     int
	Column   int
	Severity string
	Summary  string
}

func (e expectedDiag) String() string {
	return fmt.Sprintf("%s:%d:%d %s: %s", e.File, e.Line, e.Column, e.Severity, e.Summary)
}

// Markers: in native syntax a comment `# ERROR @<col>: <summary>` (a
// warning names its rule: `# WARNING @<col>: <rule>`); in JSON a
// `"//": "ERROR @<col>: <summary>"` property, which HCL's JSON syntax reads
// as a comment. A line may carry several.
var (
	hclMarker  = regexp.MustCompile(`#\s*(ERROR|WARNING) @(\d+): ([^#]+)`)
	jsonMarker = regexp.MustCompile(`"//":\s*"(ERROR|WARNING) @(\d+): ([^"]+)"`)
)

// expectedDiags reads the markers of a corpus file from its raw bytes.
func expectedDiags(t *testing.T, path string) []expectedDiag {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	marker := hclMarker
	if filepath.Ext(path) == ".json" {
		marker = jsonMarker
	}
	var out []expectedDiag
	for i, line := range bytes.Split(src, []byte("\n")) {
		for _, m := range marker.FindAllSubmatch(line, -1) {
			col, err := strconv.Atoi(string(m[2]))
			if err != nil {
				t.Fatalf("%s:%d: bad column in marker %q", path, i+1, m[0])
			}
			out = append(out, expectedDiag{filepath.Base(path), i + 1, col, string(m[1]), strings.TrimSpace(string(m[3]))})
		}
	}
	return sortDiags(out)
}

// actualDiags turns diagnostics into the markers' terms. Every diagnostic
// must point into one of files: a problem the user cannot locate is a bug.
func actualDiags(t *testing.T, files []string, diags hcl.Diagnostics) []expectedDiag {
	t.Helper()
	var out []expectedDiag
	for _, d := range diags {
		if d.Subject == nil {
			t.Errorf("diagnostic without a source range: %s", diagString(d))
			continue
		}
		if !slices.Contains(files, d.Subject.Filename) {
			t.Errorf("diagnostic points outside %v: %s", files, diagString(d))
		}
		sev := "ERROR"
		if d.Severity == hcl.DiagWarning {
			sev = "WARNING"
		}
		// A warning is named by its rule, which every warning has.
		what := d.Summary
		if sev == "WARNING" {
			what = rulebook.IDOf(d)
			if what == "" {
				t.Errorf("a warning without a rule: %s", diagString(d))
			}
		}
		out = append(out, expectedDiag{filepath.Base(d.Subject.Filename), d.Subject.Start.Line, d.Subject.Start.Column, sev, what})
	}
	return sortDiags(out)
}

func sortDiags(ds []expectedDiag) []expectedDiag {
	sort.Slice(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Column != b.Column {
			return a.Column < b.Column
		}
		if a.Severity != b.Severity {
			return a.Severity < b.Severity
		}
		return a.Summary < b.Summary
	})
	return ds
}

// invalidCases lists the invalid corpus: every *.hcl and *.json file, and
// every folder but assets (the files the corpus reads with file()), which
// is a directory config.
func invalidCases(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir(invalidDir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		ext := filepath.Ext(e.Name())
		switch {
		case e.IsDir() && e.Name() == assetsDir:
		case e.IsDir(), ext == ".hcl", ext == ".json":
			out = append(out, filepath.Join(invalidDir, e.Name()))
		default:
			t.Errorf("%s: unexpected file in %s", e.Name(), invalidDir)
		}
	}
	return out
}

// TestInvalid decodes every case of the invalid corpus and requires exactly
// the diagnostics its markers list: no fewer (each problem is found) and no
// more (no cascade of follow-on noise), all in one pass, each at the line
// and column where the problem starts.
func TestInvalid(t *testing.T) {
	cases := invalidCases(t)
	if len(cases) == 0 {
		t.Fatal("empty invalid corpus")
	}
	for _, path := range cases {
		t.Run(filepath.Base(path), func(t *testing.T) {
			files, fdiags := ConfigFiles(path)
			if fdiags.HasErrors() {
				t.Fatal(fdiags)
			}
			var want []expectedDiag
			for _, f := range files {
				want = append(want, expectedDiags(t, f)...)
			}
			want = sortDiags(want)
			if !hasError(want) {
				t.Fatalf("%s has no ERROR marker: every case of the invalid corpus must fail", path)
			}
			cfg, diags := load(t, path)
			if cfg != nil {
				t.Errorf("LoadConfig returned a model along with errors")
			}
			got := actualDiags(t, files, diags)
			if diff := cmp.Diff(want, got); diff != "" {
				var all strings.Builder
				for _, d := range diags {
					all.WriteString("\n\t" + diagString(d))
				}
				t.Errorf("%s: diagnostics differ from the markers (-want +got):\n%s\nall diagnostics:%s", path, diff, all.String())
			}
		})
	}
}

func hasError(ds []expectedDiag) bool {
	for _, d := range ds {
		if d.Severity == "ERROR" {
			return true
		}
	}
	return false
}

// TestInvalidDetails checks what the summaries in the markers cannot say:
// that near misses come with a suggestion, and that a duplicate names the
// line of the first declaration, so the user can find both.
func TestInvalidDetails(t *testing.T) {
	for _, tc := range []struct {
		file   string
		line   int
		detail string
	}{
		{"unknown-block.hcl", 2, `Did you mean "mcp_server"?`},
		{"unknown-block.hcl", 7, `Did you mean "pre_tool_use"?`},
		{"unknown-block.hcl", 15, `Did you mean "skill"?`},
		{"layout-retired.hcl", 6, "no source shows anything reading"},
		{"unknown-attribute.hcl", 4, `Did you mean "command"?`},
		{"unknown-attribute.hcl", 5, `Did you mean "env"?`},
		{"unknown-attribute.hcl", 9, `Did you mean "description"?`},
		{"json-unknown-property.json", 3, `Did you mean "mcp_server"?`},
		{"json-unknown-property.json", 6, `Did you mean "command"?`},
		{"json-unknown-property.json", 12, `Did you mean "pre_tool_use"?`},
		{"settings-invalid.hcl", 4, `Did you mean "toolPermission"?`},
		{"settings-invalid.hcl", 5, `Did you mean "toolPermission"?`},
		{"unknown-harness.hcl", 2, `Did you mean "mempalace"?`},
		{"hook-event-spelling.hcl", 4, "use pre_tool_use { … } for PreToolUse"},
		{"skill-uppercase.hcl", 2, `write "release-notes"`},
		{"top-level-argument.hcl", 3, "agyconf { scope = … }"},
		{"json-top-level-argument.json", 4, "agyconf { agy_version = … }"},
		{"mcp-enabled.hcl", 4, "disabled = true"},
		{"auth-provider-proto.hcl", 4, `"google_credentials"`},

		{"duplicate-names.hcl", 7, "duplicate-names.hcl:3,"},
		{"duplicate-names.hcl", 20, "duplicate-names.hcl:11,"},
		{"duplicate-names.hcl", 24, "duplicate-names.hcl:15,"},
		{"duplicate-names.hcl", 30, "duplicate-names.hcl:29,"},
		{"duplicate-names.hcl", 33, "duplicate-names.hcl:32,"},
		{"duplicate-names.hcl", 36, "duplicate-names.hcl:35,"},
		{"duplicate-names.hcl", 39, "duplicate-names.hcl:38,"},
		{"duplicate-names.hcl", 43, "duplicate-names.hcl:42,"},
		{"duplicate-names.hcl", 45, "duplicate-names.hcl:41,"},
		{"json-duplicate-names.json", 5, "json-duplicate-names.json:4,"},
		{"json-duplicate-names.json", 9, "json-duplicate-names.json:8,"},
		{"json-duplicate-names.json", 13, "json-duplicate-names.json:12,"},
		{"mcp-keys.hcl", 9, "mcp-keys.hcl:8,"},
		{"tools-invalid.hcl", 13, "tools-invalid.hcl:9,"},
		{"agyconf-invalid.hcl", 14, "agyconf-invalid.hcl:7,"},
		{"permissions-invalid.hcl", 5, "already listed in allow"},

		{"workspace-env.hcl", 8, "not allowed in workspace scope"},
		{"workspace-secret-file.hcl", 9, "not allowed in workspace scope"},
		{"workspace-functions.hcl", 8, "abspath() is not allowed in workspace scope"},
		{"workspace-functions.hcl", 9, "an absolute path is not allowed in workspace scope"},
		{"file-outside-folder.hcl", 3, "outside the config folder"},
		{"non-utf8.hcl", 3, "Byte 0xE9"},

		// A directory config: file is the folder/file the diagnostic is in.
		{"split/b.json", 5, "split/a.hcl:3,"},
		{"split/c.hcl", 1, "split/b.json:3,"},
	} {
		path := filepath.Join(invalidDir, tc.file)
		config := path
		if dir, _ := filepath.Split(tc.file); dir != "" {
			config = filepath.Join(invalidDir, dir)
		}
		_, diags := load(t, config)
		found := false
		for _, d := range diags {
			if d.Subject != nil && d.Subject.Filename == path && d.Subject.Start.Line == tc.line && strings.Contains(d.Detail, tc.detail) {
				found = true
			}
		}
		if !found {
			var all strings.Builder
			for _, d := range diags {
				all.WriteString("\n\t" + diagString(d))
			}
			t.Errorf("%s:%d: no diagnostic whose detail contains %q; have:%s", path, tc.line, tc.detail, all.String())
		}
	}
}

// TestFileTooLarge generates a file past MaxFileSize (it is not committed):
// it is refused before it is read, by LoadConfig and by ParseBytes alike.
func TestFileTooLarge(t *testing.T) {
	const size = 10 << 20
	line := []byte("# padding so that the file is far larger than any real config\n")
	data := append([]byte("mcp_server \"a\" {\n  command = \"x\"\n}\n"), bytes.Repeat(line, size/len(line)+1)...)
	for _, ext := range []string{".hcl", ".json"} {
		path := filepath.Join(t.TempDir(), "big"+ext)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		want := []expectedDiag{{filepath.Base(path), 1, 1, "ERROR", "File too large"}}
		cfg, diags := load(t, path)
		if cfg != nil {
			t.Errorf("%s: LoadConfig returned a model", path)
		}
		if diff := cmp.Diff(want, actualDiags(t, []string{path}, diags)); diff != "" {
			t.Errorf("LoadConfig(%s) (-want +got):\n%s", path, diff)
		}
		f, diags := NewParser().ParseBytes(data, path)
		if f != nil {
			t.Errorf("%s: ParseBytes returned a file", path)
		}
		if diff := cmp.Diff(want, actualDiags(t, []string{path}, diags)); diff != "" {
			t.Errorf("ParseBytes(%s) (-want +got):\n%s", path, diff)
		}
	}
}

// TestMarkers checks the marker reader the invalid corpus relies on.
func TestMarkers(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, src string
		want      []expectedDiag
	}{
		{"a.hcl", "x {} # ERROR @1: First # WARNING @3: Second\n\n  y = 1 # ERROR @10: Third one\n# no marker\n", []expectedDiag{
			{"a.hcl", 1, 1, "ERROR", "First"},
			{"a.hcl", 1, 3, "WARNING", "Second"},
			{"a.hcl", 3, 10, "ERROR", "Third one"},
		}},
		{"b.json", "{\n  \"a\": 1, \"//\": \"ERROR @3: First\", \"//\":\"WARNING @8: Second\",\n  \"//\": \"a comment\"\n}\n", []expectedDiag{
			{"b.json", 2, 3, "ERROR", "First"},
			{"b.json", 2, 8, "WARNING", "Second"},
		}},
	} {
		path := filepath.Join(dir, tc.name)
		if err := os.WriteFile(path, []byte(tc.src), 0o644); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tc.want, expectedDiags(t, path)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
}
