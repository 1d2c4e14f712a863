// Package lint checks Antigravity files as they are on disk — written by
// hand, by another tool or by agyconf — against what Antigravity loads,
// and reports each problem as a finding with a rule id and a position.
package lint

import "sort"

// Severity of a finding: an error is something Antigravity drops or
// misreads; a warning is something that works but is likely a mistake.
type Severity string

const (
	Error   Severity = "error"
	Warning Severity = "warning"
)

// Rule is one check, as documented in the rule table of docs/validate.md.
type Rule struct {
	ID       string   // stable, such as "hooks/top-level-enabled"
	Severity Severity // the default severity of its findings
	// Why is one line on what goes wrong in Antigravity when the rule is
	// broken, citing the reference where it can.
	Why string
}

// Finding is one problem in one file.
type Finding struct {
	Rule     string   `json:"rule"`
	Severity Severity `json:"severity"`
	File     string   `json:"file"`
	Line     int      `json:"line"`   // 1-based; 0 when the finding is about the whole file
	Column   int      `json:"column"` // 1-based, in characters
	// Pointer is the JSON pointer (RFC 6901) of the value a finding in a
	// JSON document is about, or of the frontmatter key in markdown; ""
	// for the whole file or its bytes.
	Pointer string `json:"pointer,omitempty"`
	Message string `json:"message"`
}

// Sort orders findings by file, position and rule, so that reports are
// the same from run to run.
func Sort(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Column != b.Column {
			return a.Column < b.Column
		}
		return a.Rule < b.Rule
	})
}
