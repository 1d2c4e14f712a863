// Package diagfmt prints hcl.Diagnostics for people (with source snippets)
// or for programs (JSON), the two forms every agyconf command offers.
package diagfmt

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/agyconf/agyconf/internal/rulebook"
)

// Format names an output form of diagnostics.
type Format string

const (
	Text Format = "text"
	JSON Format = "json"
)

// ParseFormat checks a --diagnostics-format value.
func ParseFormat(s string) (Format, error) {
	switch Format(s) {
	case Text, JSON:
		return Format(s), nil
	}
	return "", fmt.Errorf("unknown diagnostics format %q: use \"text\" or \"json\"", s)
}

// Pos is a position in a file, 1-based line and column, 0-based byte.
type Pos struct {
	Line   int `json:"line"`
	Column int `json:"column"`
	Byte   int `json:"byte"`
}

// Range is the part of a file a diagnostic is about.
type Range struct {
	Filename string `json:"filename"`
	Start    Pos    `json:"start"`
	End      Pos    `json:"end"`
}

// Diagnostic is the JSON form of one hcl.Diagnostic.
type Diagnostic struct {
	Severity string `json:"severity"`
	// Rule is the id of the rule the diagnostic reports (rulebook; every
	// warning has one, as do the findings in rendered files), "" for
	// the decoder's own errors.
	Rule    string `json:"rule,omitempty"`
	Summary string `json:"summary"`
	Detail  string `json:"detail,omitempty"`
	Range   *Range `json:"range,omitempty"`
	// Machine marks a diagnostic about this machine rather than the
	// config (a secret file not readable here, a live file in conflict):
	// validate --config warns, render refuses.
	Machine bool `json:"machine,omitempty"`
	// Option is the option of the generator that wrote the place the
	// diagnostic is about (--option-paths: the Home Manager module's
	// option path, programs.agyconf.mcpServers.github.args[1]).
	Option string `json:"option,omitempty"`
}

// OptionExtra is the Extra of a diagnostic named by the option it came
// from (Named); it keeps what the diagnostic's own Extra said.
type OptionExtra struct {
	Option string
	Inner  any
}

// MachineDependent passes on the inner Extra's.
func (o OptionExtra) MachineDependent() bool {
	m, ok := o.Inner.(machineDependent)
	return ok && m.MachineDependent()
}

// UnwrapDiagnosticExtra lets hcl.DiagnosticExtra find the inner Extra.
func (o OptionExtra) UnwrapDiagnosticExtra() any { return o.Inner }

// Named returns diagnostics whose subject lies in a file of options
// (by base name: a JSON file a generator wrote) with their summary led by
// the option that wrote that place, found by the JSON pointer at the
// subject's start, or the nearest enclosing pointer the map knows. files
// are the parsed files, for their bytes. Others are returned as they are.
func Named(diags hcl.Diagnostics, files map[string]*hcl.File, options map[string]map[string]string) hcl.Diagnostics {
	if len(options) == 0 {
		return diags
	}
	out := make(hcl.Diagnostics, 0, len(diags))
	for _, d := range diags {
		out = append(out, named(d, files, options))
	}
	return out
}

func named(d *hcl.Diagnostic, files map[string]*hcl.File, options map[string]map[string]string) *hcl.Diagnostic {
	if d.Subject == nil {
		return d
	}
	byPtr := options[filepath.Base(d.Subject.Filename)]
	f := files[d.Subject.Filename]
	if byPtr == nil || f == nil {
		return d
	}
	ptr, ok := PointerAt(f.Bytes, d.Subject.Start.Byte)
	if !ok {
		return d
	}
	for {
		if opt, ok := byPtr[ptr]; ok {
			c := *d
			c.Summary = opt + ": " + d.Summary
			c.Extra = OptionExtra{Option: opt, Inner: d.Extra}
			return &c
		}
		i := strings.LastIndexByte(ptr, '/')
		if i < 0 {
			return d
		}
		ptr = ptr[:i]
	}
}

// machineDependent is what a diagnostic's Extra says when the diagnostic
// is about the machine, not the config.
type machineDependent interface{ MachineDependent() bool }

// Report is the JSON document --diagnostics-format json prints.
type Report struct {
	Valid       bool         `json:"valid"`
	Errors      int          `json:"error_count"`
	Warnings    int          `json:"warning_count"`
	Diagnostics []Diagnostic `json:"diagnostics"`
}

// NewReport converts diagnostics to their JSON form.
func NewReport(diags hcl.Diagnostics) Report {
	r := Report{Diagnostics: []Diagnostic{}}
	for _, d := range diags {
		jd := Diagnostic{Summary: d.Summary, Detail: d.Detail, Severity: "error", Rule: rulebook.IDOf(d)}
		if m, ok := d.Extra.(machineDependent); ok && m.MachineDependent() {
			jd.Machine = true
		}
		if o, ok := d.Extra.(OptionExtra); ok {
			// Its own field: the summary stays what agyconf says.
			jd.Option, jd.Summary = o.Option, strings.TrimPrefix(d.Summary, o.Option+": ")
		}
		if d.Severity == hcl.DiagWarning {
			jd.Severity = "warning"
			r.Warnings++
		} else {
			r.Errors++
		}
		if d.Subject != nil {
			s := d.Subject
			jd.Range = &Range{
				Filename: s.Filename,
				Start:    Pos{s.Start.Line, s.Start.Column, s.Start.Byte},
				End:      Pos{s.End.Line, s.End.Column, s.End.Byte},
			}
		}
		r.Diagnostics = append(r.Diagnostics, jd)
	}
	r.Valid = r.Errors == 0
	return r
}

// WriteJSON prints diagnostics as one indented JSON document.
func WriteJSON(w io.Writer, diags hcl.Diagnostics) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(NewReport(diags))
}

// TextOptions is how WriteText prints.
type TextOptions struct {
	Width uint // of the detail, wrapped; 0 does not wrap
	Color bool
	// Explain prints every warning in full, as errors are (its source
	// snippet and detail), and after all diagnostics each of their
	// rules' explanation, once.
	Explain bool
}

// WriteText prints diagnostics for people. An error is printed in full:
// led by its place as FILE:LINE:COLUMN (the form editors and terminals
// jump to; hcl's writer names the line only), then hcl's source snippet
// and detail, since it stops the command. A warning is one line,
// FILE:LINE:COLUMN: warning: RULE: what is wrong — the fix (agyconf:
// warning: … without a place), unless o.Explain asks for the full form.
// A diagnostic of a rule says the rule's id before its summary.
func WriteText(w io.Writer, files map[string]*hcl.File, diags hcl.Diagnostics, o TextOptions) error {
	bw := bufio.NewWriter(w)
	tw := hcl.NewDiagnosticTextWriter(bw, files, o.Width, o.Color)
	var explained []string
	seen := map[string]bool{}
	for _, d := range diags {
		if d == nil {
			continue
		}
		id := rulebook.IDOf(d)
		if id != "" && !seen[id] {
			seen[id] = true
			explained = append(explained, id)
		}
		if d.Severity == hcl.DiagWarning && !o.Explain {
			bw.WriteString(OneLine(d, o.Color))
			bw.WriteByte('\n')
			continue
		}
		if d.Subject != nil {
			bw.WriteString(Place(*d.Subject) + ": ")
		}
		c := *d
		if id != "" {
			c.Summary = id + ": " + d.Summary
		}
		if err := tw.WriteDiagnostic(&c); err != nil {
			return err
		}
	}
	if o.Explain {
		for _, id := range explained {
			if r, ok := rulebook.Lookup(id); ok {
				bw.WriteString("\n" + rulebook.Explain(r))
			}
		}
	}
	return bw.Flush()
}

// OneLine is a diagnostic on one line: FILE:LINE:COLUMN: warning: RULE:
// summary, or agyconf: warning: RULE: summary without a place (the
// summary says what is wrong and, after " — ", the fix).
func OneLine(d *hcl.Diagnostic, color bool) string {
	sev := "warning"
	if d.Severity == hcl.DiagError {
		sev = "error"
	}
	if color {
		code := "33"
		if sev == "error" {
			code = "31"
		}
		sev = "\x1b[1;" + code + "m" + sev + "\x1b[0m"
	}
	where := "agyconf"
	if d.Subject != nil {
		where = Place(*d.Subject)
	}
	line := where + ": " + sev + ": "
	if id := rulebook.IDOf(d); id != "" {
		line += id + ": "
	}
	// A summary is one line; a newline in a value it quotes would break
	// the form.
	return line + strings.ReplaceAll(d.Summary, "\n", " ")
}

// Place is where a range starts, as FILE:LINE:COLUMN (columns count
// characters, from 1).
func Place(r hcl.Range) string {
	return fmt.Sprintf("%s:%d:%d", r.Filename, r.Start.Line, max(r.Start.Column, 1))
}
