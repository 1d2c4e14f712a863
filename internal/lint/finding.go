// Package lint checks Antigravity files as they are on disk — written by
// hand, by another tool or by agyconf — against what Antigravity loads,
// and reports each problem as a finding with a rule id and a position.
package lint

import (
	"sort"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/rulebook"
)

// Severity of a finding follows agy's severity policy (agy.Effect): an
// error only where agy refuses, drops or misreads something or never
// reads where it stands; a warning for what it ignores, what sources
// contest, and what is likely a mistake.
type Severity = agy.Severity

const (
	Error   = agy.Error
	Warning = agy.Warning
)

// Rule is one check, as documented in the rule table of docs/validate.md
// and by agyconf explain: rulebook's.
type Rule = rulebook.Rule

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
	// Source is where what the rule says agy does is known from (the
	// rule's, agy.Source).
	Source string `json:"source,omitempty"`
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

// cite gives every finding its rule's source (where what it says agy
// does is known from) and ends its message with the fix, its own or the
// rule's (rulebook.Line): one line says what is wrong and what to do.
func cite(fs []Finding) {
	for i := range fs {
		if fs[i].Source == "" {
			fs[i].Source = sourceOf(fs[i].Rule)
		}
		fs[i].Message = rulebook.Line(fs[i].Rule, fs[i].Message)
	}
}
