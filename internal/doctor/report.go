package doctor

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// FormatVersion is the version of the JSON form (docs/doctor.md): it
// changes only when a member changes meaning or goes; new members may
// appear without it.
const FormatVersion = 1

// Summary counts items by status.
type Summary struct {
	Loaded     int `json:"loaded"`
	NotLoaded  int `json:"not_loaded"`
	NotChecked int `json:"not_checked"`
}

// Summary counts the result's items.
func (r *Result) Summary() Summary {
	var s Summary
	for _, it := range r.Items {
		switch it.Status {
		case Loaded:
			s.Loaded++
		case NotLoaded:
			s.NotLoaded++
		default:
			s.NotChecked++
		}
	}
	return s
}

// WriteJSON writes the result as one JSON document (docs/doctor.md,
// "The JSON form").
func (r *Result) WriteJSON(w io.Writer) error {
	doc := struct {
		Format  int     `json:"format"`
		Exit    int     `json:"exit"`
		Summary Summary `json:"summary"`
		*Result
	}{FormatVersion, r.Code(), r.Summary(), r}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}

// label names an item in text: `hook guard`, `permission allow "command(ls)"`.
func (it Item) label() string {
	switch it.Kind {
	case KindPermission:
		return fmt.Sprintf("permission %s %q", it.List, it.Name)
	case KindServer:
		return "MCP server " + it.Name
	}
	return string(it.Kind) + " " + it.Name
}

// WriteText writes the result for a person: what was asked, one line per
// item (causes and fixes indented under it), agy's log, notes, counts.
func (r *Result) WriteText(w io.Writer) {
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	head := "agy"
	if r.Agy.Version != "" {
		head += " " + r.Agy.Version
	}
	if r.Agy.Path != "" {
		head += " (" + r.Agy.Path + ")"
	}
	p("%s, %s scope, root %s, HOME=%s\n", head, r.Scope, r.Root, r.Home)
	if r.Problem != nil {
		p("CANNOT ASK AGY: %s\n  fix: %s\n", r.Problem.What, r.Problem.Fix)
	}
	for _, rr := range r.Reports {
		if r.Problem != nil && rr.Why == r.Problem.What {
			continue // said once, above
		}
		switch rr.Status {
		case Answered:
			p("asked %s: answered\n", rr.Command)
		case NotAsked:
			p("did not ask %s: %s\n", rr.Command, rr.Why)
		default:
			p("FAILED %s: %s\n  fix: %s\n", rr.Command, rr.Why, rr.Fix)
		}
	}
	if len(r.Items) > 0 {
		p("\n")
	}
	for _, it := range r.Items {
		status := it.Status
		if status == NotLoaded {
			status = "NOT LOADED"
		}
		line := fmt.Sprintf("%-12s %s (%s)", status, it.label(), it.File)
		if it.Detail != "" {
			line += ": " + it.Detail
		}
		p("%s\n", line)
		for _, c := range it.Causes {
			p("  cause: %s\n", c)
		}
		if it.Fix != "" {
			p("  fix: %s\n", it.Fix)
		}
	}
	if len(r.Log.Lines) > 0 {
		p("\nagy's log (%s), while doctor asked:\n", r.Log.File)
		for _, l := range r.Log.Lines {
			p("  %s\n", l)
		}
	}
	for _, n := range r.Notes {
		p("note: %s\n", n)
	}
	if len(r.Unchecked) > 0 {
		p("no report covers: %s\n", strings.Join(r.Unchecked, ", "))
	}
	s := r.Summary()
	p("%d loaded, %d not loaded, %d not checked\n", s.Loaded, s.NotLoaded, s.NotChecked)
}
