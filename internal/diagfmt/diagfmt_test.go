package diagfmt

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/agyconf/agyconf/internal/rulebook"
)

var colours = strings.NewReplacer("\x1b[31m", "", "\x1b[33m", "", "\x1b[0m", "", "\x1b[1;4m", "", "\x1b[1;33m", "", "\x1b[1;31m", "")

// testDiags: a warning of a rule at a place, an error without a place,
// one with a place whose file is not loaded, and a warning of a rule
// about this machine without a place.
func testDiags() (map[string]*hcl.File, hcl.Diagnostics, error) {
	src := []byte("hook \"é\" {\n  command = \"./a.sh\"\n}\n")
	f, diags := hclsyntax.ParseConfig(src, "cfg/agyconf.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		return nil, nil, diags
	}
	files := map[string]*hcl.File{"cfg/agyconf.hcl": f}
	at := hcl.Range{Filename: "cfg/agyconf.hcl", Start: hcl.Pos{Line: 2, Column: 3, Byte: 13}, End: hcl.Pos{Line: 2, Column: 10, Byte: 20}}
	return files, hcl.Diagnostics{
		{Severity: hcl.DiagWarning, Summary: "the command runs \"./a.sh\", a relative path — use an absolute path", Detail: "In the rendered hooks.json.", Subject: &at, Extra: rulebook.Tag{Rule: "hooks/relative-command"}},
		{Severity: hcl.DiagError, Summary: "Nowhere", Detail: "No place."},
		{Severity: hcl.DiagError, Summary: "Missing file", Subject: &hcl.Range{Filename: "gone.hcl", Start: hcl.InitialPos, End: hcl.InitialPos}},
		{Severity: hcl.DiagWarning, Summary: "agy does not trust /w\nreally — trust it", Extra: rulebook.Tag{Rule: "workspace/untrusted", Machine: true}},
	}, nil
}

// TestWriteText: a warning is one line, FILE:LINE:COLUMN: warning: RULE:
// summary (agyconf: … without a place, a newline in it made a space); an
// error is printed in full, led by its place when it has one; colour or
// not.
func TestWriteText(t *testing.T) {
	files, in, err := testDiags()
	if err != nil {
		t.Fatal(err)
	}
	for _, color := range []bool{false, true} {
		var b bytes.Buffer
		if err := WriteText(&b, files, in, TextOptions{Width: 100, Color: color}); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		plain := colours.Replace(out)
		for _, want := range []string{
			"cfg/agyconf.hcl:2:3: warning: hooks/relative-command: the command runs \"./a.sh\", a relative path — use an absolute path\n",
			"\nError: Nowhere\n\nNo place.\n",
			"\ngone.hcl:1:1: Error: Missing file\n",
			"agyconf: warning: workspace/untrusted: agy does not trust /w really — trust it\n",
		} {
			if !strings.Contains(plain, want) {
				t.Errorf("color %v: no %q in\n%s", color, want, out)
			}
		}
		if strings.Contains(plain, "on cfg/agyconf.hcl line 2") || strings.Contains(plain, "In the rendered") || strings.Contains(plain, "Why:") {
			t.Errorf("color %v: a warning's snippet, detail or explanation without --explain:\n%s", color, out)
		}
		if color && !strings.Contains(out, "\x1b[1;33mwarning\x1b[0m") {
			t.Errorf("no colour:\n%q", out)
		}
	}
	if got := Place(hcl.Range{Filename: "x.json", Start: hcl.Pos{Line: 7, Column: 66}}); got != "x.json:7:66" {
		t.Errorf("Place = %q", got)
	}
}

// TestWriteTextExplain: --explain prints a warning in full (its place,
// rule, summary, snippet and detail) and each rule's explanation once,
// after every diagnostic.
func TestWriteTextExplain(t *testing.T) {
	files, in, err := testDiags()
	if err != nil {
		t.Fatal(err)
	}
	in = append(in, in[0])
	var b bytes.Buffer
	if err := WriteText(&b, files, in, TextOptions{Width: 100, Explain: true}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"cfg/agyconf.hcl:2:3: Warning: hooks/relative-command: the command runs \"./a.sh\", a relative path — use an absolute path\n\n  on cfg/agyconf.hcl line 2, in hook \"é\":\n   2:   command = \"./a.sh\"\n",
		"In the rendered hooks.json.",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if n := strings.Count(out, "hooks/relative-command: warning\nJudges:"); n != 1 {
		t.Errorf("the rule explained %d times:\n%s", n, out)
	}
	if i, j := strings.Index(out, "Why: A command whose program"), strings.LastIndex(out, "Error: Missing file"); i < j {
		t.Errorf("the explanation comes before the diagnostics:\n%s", out)
	}
	if !strings.Contains(out, "workspace/untrusted: warning\n") {
		t.Errorf("the second rule is not explained:\n%s", out)
	}
}

// TestReportRule: the JSON form names each diagnostic's rule, through an
// Extra that wraps its Tag too, and keeps the machine mark.
func TestReportRule(t *testing.T) {
	_, in, err := testDiags()
	if err != nil {
		t.Fatal(err)
	}
	named := *in[0]
	named.Extra = OptionExtra{Option: "programs.agyconf.hooks.x", Inner: in[0].Extra}
	in = append(in, &named)
	var b bytes.Buffer
	if err := WriteJSON(&b, in); err != nil {
		t.Fatal(err)
	}
	var r Report
	if err := json.Unmarshal(b.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	want := []string{"hooks/relative-command", "", "", "workspace/untrusted", "hooks/relative-command"}
	for i, d := range r.Diagnostics {
		if d.Rule != want[i] {
			t.Errorf("diagnostic %d: rule %q, want %q", i, d.Rule, want[i])
		}
	}
	if !r.Diagnostics[3].Machine || r.Diagnostics[0].Machine || r.Diagnostics[4].Option != "programs.agyconf.hooks.x" {
		t.Errorf("marks: %+v", r.Diagnostics)
	}
	if !strings.Contains(b.String(), `"rule": "hooks/relative-command"`) {
		t.Errorf("no rule field:\n%s", b.String())
	}
}
