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

// diagKey is what must agree between the two commands: summary,
// severity, file, line and column.
type diagKey struct {
	Severity, Summary, File string
	Line, Column            int
}

// diagKeys returns the diagnostics about the config, and whether there is
// an error about this machine.
func diagKeys(t *testing.T, out []byte) ([]diagKey, bool) {
	t.Helper()
	var r diagfmt.Report
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("not a diagnostics report: %v\n%s", err, out)
	}
	var keys []diagKey
	machineErr := false
	for _, d := range r.Diagnostics {
		if d.Machine {
			// About this machine: validate warns, render refuses.
			machineErr = machineErr || d.Severity == "error"
			continue
		}
		k := diagKey{Severity: d.Severity, Summary: d.Summary}
		if d.Range != nil {
			k.File, k.Line, k.Column = d.Range.Filename, d.Range.Start.Line, d.Range.Start.Column
		}
		keys = append(keys, k)
	}
	return keys, machineErr
}

// TestValidateAgreesWithRender: for every config, validate --config and
// render --dry-run report the same diagnostics (those about this machine
// aside), and each exits with its documented code: validate 1 and render
// 2 on an error, both 0 otherwise. What validate calls valid, render
// writes.
func TestValidateAgreesWithRender(t *testing.T) {
	for _, cfg := range parityConfigs(t) {
		t.Run(strings.TrimPrefix(filepath.ToSlash(cfg), "../"), func(t *testing.T) {
			root := t.TempDir()
			var vout, rout bytes.Buffer
			vcode := Main([]string{"agyconf", "validate", "--config", cfg, "--root", root, "--diagnostics-format", "json"}, &vout, ioDiscard{})
			rcode := Main([]string{"agyconf", "render", "--config", cfg, "--root", root, "--dry-run", "--diagnostics-format", "json"}, &rout, ioDiscard{})
			v, vMachine := diagKeys(t, vout.Bytes())
			r, rMachine := diagKeys(t, rout.Bytes())
			if d := cmp.Diff(v, r); d != "" {
				t.Errorf("validate and render disagree (-validate +render):\n%s", d)
			}
			if vMachine {
				t.Errorf("validate --config made something about this machine an error:\n%s", vout.String())
			}
			hasErr := false
			for _, k := range v {
				hasErr = hasErr || k.Severity == "error"
			}
			wantV, wantR := 0, 0
			if hasErr {
				wantV, wantR = ExitFindings, ExitBadInput
			}
			if rMachine {
				wantR = ExitBadInput
			}
			if vcode != wantV || rcode != wantR {
				t.Errorf("exit codes: validate %d (want %d), render %d (want %d)\nvalidate: %s\nrender: %s", vcode, wantV, rcode, wantR, vout.String(), rout.String())
			}
		})
	}
}

type ioDiscard struct{}

func (ioDiscard) Write(p []byte) (int, error) { return len(p), nil }
