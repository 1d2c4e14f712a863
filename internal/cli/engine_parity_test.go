package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agyconf/agyconf/internal/diagfmt"
	"github.com/agyconf/agyconf/internal/rulebook"
)

// parityConfigs are the configs validate --config and render must agree
// on: every config under tests/ and examples/, and the corpus of configs
// that fail only after decoding.
func parityConfigs(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, pattern := range []string{
		"../../tests/render/*.hcl", "../../tests/nix/lab/*.hcl", "../../tests/nix/model/*.json",
		"../engine/testdata/after-decode/*.hcl",
	} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m...)
	}
	examples, err := filepath.Glob("../../examples/*")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range examples {
		if st, err := os.Stat(filepath.Join(e, "expected")); err == nil && st.IsDir() {
			out = append(out, e)
		}
	}
	sort.Strings(out)
	if len(out) < 50 {
		t.Fatalf("only %d configs found", len(out))
	}
	return out
}

// diagKey is what must agree between the two commands: rule, summary,
// severity, file, line and column.
type diagKey struct {
	Severity, Rule, Summary, File string
	Line, Column                  int
}

// diagKeys returns the diagnostics about the config, the errors about
// this machine (an inline secret not readable here), and whether there is
// a warning about this machine. Every warning names a rule of the table
// (rulebook), as every command prints it.
func diagKeys(t *testing.T, out []byte) (config, machineErrs []diagKey, machineWarn bool) {
	t.Helper()
	var r diagfmt.Report
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("not a diagnostics report: %v\n%s", err, out)
	}
	for _, d := range r.Diagnostics {
		k := diagKey{Severity: d.Severity, Rule: d.Rule, Summary: d.Summary}
		if _, known := rulebook.Lookup(d.Rule); d.Severity == "warning" && !known {
			t.Errorf("a warning without a rule of the table (%q): %s", d.Rule, d.Summary)
		}
		if d.Range != nil {
			k.File, k.Line, k.Column = d.Range.Filename, d.Range.Start.Line, d.Range.Start.Column
		}
		switch {
		case d.Machine && d.Severity == "error":
			machineErrs = append(machineErrs, k)
		case d.Machine:
			// What render goes on with (a secret agyhook reads later) or
			// only a render into that root would meet (a live conflict).
			machineWarn = true
		default:
			config = append(config, k)
		}
	}
	return config, machineErrs, machineWarn
}

// TestValidateAgreesWithRender: for every config, validate --config and
// render --dry-run report the same diagnostics, an inline secret this
// machine cannot read included (render refuses it, so validate says so,
// located, once), and each exits with its documented code: validate 1 and
// render 2 on an error, both 0 otherwise. What validate calls valid,
// render writes. validate --offline reports what is about the config
// alone, and nothing about this machine.
func TestValidateAgreesWithRender(t *testing.T) {
	for _, cfg := range parityConfigs(t) {
		t.Run(strings.TrimPrefix(filepath.ToSlash(cfg), "../"), func(t *testing.T) {
			root := t.TempDir()
			var vout, rout, oout bytes.Buffer
			vcode := Main([]string{"agyconf", "validate", "--config", cfg, "--root", root, "--diagnostics-format", "json"}, &vout, ioDiscard{})
			rcode := Main([]string{"agyconf", "render", "--config", cfg, "--root", root, "--dry-run", "--diagnostics-format", "json"}, &rout, ioDiscard{})
			ocode := Main([]string{"agyconf", "validate", "--config", cfg, "--offline", "--diagnostics-format", "json"}, &oout, ioDiscard{})
			v, vMachine, _ := diagKeys(t, vout.Bytes())
			r, rMachine, _ := diagKeys(t, rout.Bytes())
			o, oMachine, oWarn := diagKeys(t, oout.Bytes())
			if d := cmp.Diff(v, r); d != "" {
				t.Errorf("validate and render disagree (-validate +render):\n%s", d)
			}
			if d := cmp.Diff(vMachine, rMachine); d != "" {
				t.Errorf("validate and render disagree on this machine (-validate +render):\n%s", d)
			}
			if d := cmp.Diff(v, o); d != "" {
				t.Errorf("validate --offline and validate disagree on the config (-validate +offline):\n%s", d)
			}
			if len(oMachine) > 0 || oWarn {
				t.Errorf("validate --offline reported something about this machine:\n%s", oout.String())
			}
			hasErr := false
			for _, k := range v {
				hasErr = hasErr || k.Severity == "error"
			}
			wantV, wantR, wantO := 0, 0, 0
			if hasErr {
				wantV, wantR, wantO = ExitFindings, ExitBadInput, ExitFindings
			}
			if len(rMachine) > 0 {
				wantV, wantR = ExitFindings, ExitBadInput
			}
			if vcode != wantV || rcode != wantR || ocode != wantO {
				t.Errorf("exit codes: validate %d (want %d), render %d (want %d), validate --offline %d (want %d)\nvalidate: %s\nrender: %s", vcode, wantV, rcode, wantR, ocode, wantO, vout.String(), rout.String())
			}
		})
	}
}

type ioDiscard struct{}

func (ioDiscard) Write(p []byte) (int, error) { return len(p), nil }
