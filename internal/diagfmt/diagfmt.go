// Package diagfmt prints hcl.Diagnostics for people (with source snippets)
// or for programs (JSON), the two forms every agyconf command offers.
package diagfmt

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
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
	Summary  string `json:"summary"`
	Detail   string `json:"detail,omitempty"`
	Range    *Range `json:"range,omitempty"`
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
		jd := Diagnostic{Summary: d.Summary, Detail: d.Detail, Severity: "error"}
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

// WriteText prints diagnostics with source snippets taken from files,
// each located one led by its place as FILE:LINE:COLUMN, the form editors
// and terminals jump to (hcl's writer names the line only).
func WriteText(w io.Writer, files map[string]*hcl.File, diags hcl.Diagnostics, width uint, color bool) error {
	tw := hcl.NewDiagnosticTextWriter(w, files, width, color)
	for _, d := range diags {
		if d != nil && d.Subject != nil {
			if _, err := io.WriteString(w, Place(*d.Subject)+": "); err != nil {
				return err
			}
		}
		if err := tw.WriteDiagnostic(d); err != nil {
			return err
		}
	}
	return nil
}

// Place is where a range starts, as FILE:LINE:COLUMN (columns count
// characters, from 1).
func Place(r hcl.Range) string {
	return fmt.Sprintf("%s:%d:%d", r.Filename, r.Start.Line, max(r.Start.Column, 1))
}
