package lint

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/owenrumney/go-sarif/v2/sarif"

	"github.com/agyconf/agyconf/internal/agy"
)

var sampleFindings = []Finding{
	{Rule: "hooks/top-level-enabled", Severity: Error, File: "a/hooks.json", Line: 2, Column: 3, Message: "top-level enabled drops the file"},
	{Rule: "hooks/command-not-found", Severity: Warning, File: "a/hooks.json", Line: 5, Column: 20, Message: "xmsg is not on PATH"},
	{Rule: "skill/flat-file", Severity: Error, File: "b/skills/x.md", Message: "never discovered"},
}

var sampleRules = []Rule{
	{ID: "hooks/command-not-found", Effect: agy.Risks, Why: "agy runs hooks through sh -c"},
	{ID: "hooks/top-level-enabled", Effect: agy.Refuses, Why: "one load error drops the whole hooks.json"},
	{ID: "skill/flat-file", Effect: agy.NeverReads, Why: "a flat skills/<n>.md is never discovered"},
}

func TestWriteText(t *testing.T) {
	var b bytes.Buffer
	WriteText(&b, sampleFindings, false, false)
	want := `a/hooks.json:2:3: error: hooks/top-level-enabled: top-level enabled drops the file
a/hooks.json:5:20: warning: hooks/command-not-found: xmsg is not on PATH
b/skills/x.md: error: skill/flat-file: never discovered

2 error(s), 1 warning(s)
`
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("text (-want +got):\n%s", diff)
	}
	b.Reset()
	WriteText(&b, sampleFindings, true, false)
	if !strings.Contains(b.String(), "\x1b[1;31merror\x1b[0m") {
		t.Errorf("no colour with color set:\n%q", b.String())
	}
	// --explain: each rule found explained once, after the counts, in
	// the order first found.
	b.Reset()
	WriteText(&b, append(sampleFindings, sampleFindings[0]), false, true)
	out := b.String()
	tail := out[strings.Index(out, "warning(s)\n"):]
	if strings.Count(out, "hooks/top-level-enabled: error\n") != 1 || !strings.Contains(tail, "Why: enabled at the top level") ||
		strings.Index(tail, "hooks/top-level-enabled: error") > strings.Index(tail, "hooks/command-not-found: warning") {
		t.Errorf("--explain:\n%s", out)
	}
}

func TestWriteJSON(t *testing.T) {
	var b bytes.Buffer
	if err := WriteJSON(&b, sampleFindings); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Errors   int       `json:"error_count"`
		Warnings int       `json:"warning_count"`
		Findings []Finding `json:"findings"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Errors != 2 || doc.Warnings != 1 || !cmp.Equal(doc.Findings, sampleFindings) {
		t.Errorf("JSON report: %+v", doc)
	}
}

// TestSARIF checks the report against SARIF 2.1.0 as the go-sarif library
// reads it back: version and schema, one rule per check with its level,
// one result per finding with its position.
func TestSARIF(t *testing.T) {
	report, err := SARIF(sampleFindings, sampleRules, "v1.2.3")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := report.PrettyWrite(&b); err != nil {
		t.Fatal(err)
	}
	back, err := sarif.FromBytes(b.Bytes())
	if err != nil {
		t.Fatalf("not readable as SARIF: %v\n%s", err, b.String())
	}
	if back.Version != "2.1.0" || !strings.Contains(back.Schema, "sarif-schema-2.1.0.json") {
		t.Errorf("version %q, schema %q", back.Version, back.Schema)
	}
	if len(back.Runs) != 1 {
		t.Fatalf("%d runs", len(back.Runs))
	}
	run := back.Runs[0]
	if run.Tool.Driver.Name != "agyconf" || *run.Tool.Driver.Version != "v1.2.3" {
		t.Errorf("driver %+v", run.Tool.Driver)
	}
	if len(run.Tool.Driver.Rules) != len(sampleRules) {
		t.Errorf("%d rules, want %d", len(run.Tool.Driver.Rules), len(sampleRules))
	}
	if len(run.Results) != len(sampleFindings) {
		t.Fatalf("%d results, want %d", len(run.Results), len(sampleFindings))
	}
	r := run.Results[0]
	region := r.Locations[0].PhysicalLocation.Region
	if *r.RuleID != "hooks/top-level-enabled" || *r.Level != "error" || *region.StartLine != 2 || *region.StartColumn != 3 {
		t.Errorf("first result: rule %v level %v region %+v", *r.RuleID, *r.Level, region)
	}
	if got := *run.Results[1].Level; got != "warning" {
		t.Errorf("warning level: %q", got)
	}
	if run.Results[2].Locations[0].PhysicalLocation.Region != nil {
		t.Error("a whole-file finding has a region")
	}
}
