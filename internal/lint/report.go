package lint

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/owenrumney/go-sarif/v2/sarif"

	"github.com/agyconf/agyconf/internal/rulebook"
)

// Counts tallies findings by severity.
func Counts(fs []Finding) (errors, warnings int) {
	for _, f := range fs {
		if f.Severity == Warning {
			warnings++
		} else {
			errors++
		}
	}
	return errors, warnings
}

// WriteText prints each finding on one line, FILE:LINE:COLUMN: severity:
// RULE: what is wrong — the fix (FILE: … for one about the whole file),
// as agyconf's warnings about a config are printed, then the counts;
// coloured when color is set. With explain, each rule found is explained
// after the list, once (rulebook.Explain).
func WriteText(out io.Writer, fs []Finding, color, explain bool) {
	// One write, not one a line: a thousand findings to a terminal or a
	// pipe were a thousand write calls.
	w := bufio.NewWriter(out)
	defer w.Flush()
	paint := func(code, s string) string {
		if !color {
			return s
		}
		return "\x1b[" + code + "m" + s + "\x1b[0m"
	}
	var rules []string
	seen := map[string]bool{}
	for _, f := range fs {
		if !seen[f.Rule] {
			seen[f.Rule] = true
			rules = append(rules, f.Rule)
		}
		sev := paint("1;31", string(f.Severity))
		if f.Severity == Warning {
			sev = paint("1;33", string(f.Severity))
		}
		place := f.File
		if f.Line > 0 {
			place = fmt.Sprintf("%s:%d:%d", f.File, f.Line, max(f.Column, 1))
		}
		fmt.Fprintf(w, "%s: %s: %s: %s\n", place, sev, f.Rule, strings.ReplaceAll(f.Message, "\n", " "))
	}
	errs, warns := Counts(fs)
	if len(fs) > 0 {
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "%d error(s), %d warning(s)\n", errs, warns)
	if explain {
		for _, id := range rules {
			fmt.Fprintf(w, "\n%s", rulebook.Explain(ruleOf(id)))
		}
	}
}

// WriteJSON prints findings as one JSON document.
func WriteJSON(w io.Writer, fs []Finding) error {
	errs, warns := Counts(fs)
	doc := struct {
		Errors   int       `json:"error_count"`
		Warnings int       `json:"warning_count"`
		Findings []Finding `json:"findings"`
	}{errs, warns, append([]Finding{}, fs...)}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}

// SARIF builds a SARIF 2.1.0 report: every rule as a reporting descriptor
// (its Why as the description), every finding as a result, so that code
// scanning can show them on the lines they are about.
func SARIF(fs []Finding, rules []Rule, version string) (*sarif.Report, error) {
	report, err := sarif.New(sarif.Version210)
	if err != nil {
		return nil, err
	}
	run := sarif.NewRunWithInformationURI("agyconf", "https://github.com/agyconf/agyconf")
	run.Tool.Driver.WithVersion(version)
	for _, r := range rules {
		run.AddRule(r.ID).
			WithShortDescription(sarif.NewMultiformatMessageString(r.Why)).
			WithDefaultConfiguration(sarif.NewReportingConfiguration().WithLevel(sarifLevel(r.Severity())))
	}
	for _, f := range fs {
		region := sarif.NewRegion()
		if f.Line > 0 {
			region.WithStartLine(f.Line).WithStartColumn(max(f.Column, 1))
		}
		loc := sarif.NewPhysicalLocation().WithArtifactLocation(sarif.NewSimpleArtifactLocation(filepath.ToSlash(f.File)))
		if f.Line > 0 {
			loc.WithRegion(region)
		}
		run.CreateResultForRule(f.Rule).
			WithLevel(sarifLevel(f.Severity)).
			WithMessage(sarif.NewTextMessage(f.Message)).
			AddLocation(sarif.NewLocationWithPhysicalLocation(loc))
	}
	report.AddRun(run)
	return report, nil
}

func sarifLevel(s Severity) string {
	if s == Warning {
		return "warning"
	}
	return "error"
}
