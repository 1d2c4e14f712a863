// Package rulebook is the one table of every rule agyconf reports by: the
// checks of the files agy reads (validate PATH, and render's check of what
// it writes), of a config (the decoder, render) and of this machine
// (secrets, live files, the render root, agy's trust). Every warning
// agyconf prints names its rule, the diagnostic carries the id (Tag), and
// docs/validate.md's rule list, `agyconf explain` and SARIF read this
// table: a rule's explanation is written once, here.
package rulebook

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/mitchellh/go-wordwrap"

	"github.com/agyconf/agyconf/internal/agy"
)

// Subject is what a rule judges.
type Subject string

const (
	// Files: a file agy reads, as it is on disk (validate PATH) or as
	// render writes it. Every such rule has a failing and a passing case
	// in tests/lint.
	Files Subject = "files"
	// Config: an agyconf config, as the decoder or render reads it.
	Config Subject = "config"
	// Machine: this machine, not the config (a secret file, the render
	// root, agy's record of trusted folders): always a warning, which
	// validate --config --strict counts.
	Machine Subject = "machine"
)

// Rule is one check.
type Rule struct {
	ID string // stable, "KIND/NAME", such as "hooks/top-level-enabled"
	// Of is what the rule judges.
	Of Subject
	// Effect is what agy (or render) does with what the rule finds; the
	// severity follows from it (Severity), never chosen per rule.
	Effect agy.Effect
	// Source is where what agy does is known from: a public source a
	// reader can follow (docs/agy-facts.md lists them).
	Source agy.Source
	// Why is the explanation: what goes wrong in Antigravity, and why.
	// It is printed by --explain and agyconf explain, never on the one
	// line of a warning.
	Why string
	// Fix is the fix in a few words, which ends the one line of a
	// finding that does not say its own.
	Fix string
}

// Severity is the severity of the rule's findings: agy's policy
// (agy.Effect.Severity) for the files and the config, always a warning
// for this machine.
func (r Rule) Severity() agy.Severity {
	if r.Of == Machine {
		return agy.Warning
	}
	return r.Effect.Severity()
}

// All returns every rule, sorted by id.
func All() []Rule {
	rs := table()
	sort.Slice(rs, func(i, j int) bool { return rs[i].ID < rs[j].ID })
	return rs
}

// Of returns the rules that judge s, sorted by id.
func Of(s Subject) []Rule {
	var out []Rule
	for _, r := range All() {
		if r.Of == s {
			out = append(out, r)
		}
	}
	return out
}

// Lookup finds a rule by id.
func Lookup(id string) (Rule, bool) {
	r, ok := byID()[id]
	return r, ok
}

// byID is the table by rule id, built once: lint looks a rule up per
// finding. Never modified.
var byID = sync.OnceValue(func() map[string]Rule {
	m := map[string]Rule{}
	for _, r := range table() {
		m[r.ID] = r
	}
	return m
})

// Tag is the Extra of a diagnostic a rule reports: its id, and whether it
// is about this machine rather than the config (the JSON form's
// "machine", validate --config --strict).
type Tag struct {
	Rule    string
	Machine bool
}

// MachineDependent says the diagnostic is about this machine.
func (t Tag) MachineDependent() bool { return t.Machine }

// RuleID names the rule.
func (t Tag) RuleID() string { return t.Rule }

// IDOf is the rule a diagnostic reports, through any Extra that wraps
// its Tag (hcl.DiagnosticExtraUnwrapper), or "".
func IDOf(d *hcl.Diagnostic) string {
	if d == nil {
		return ""
	}
	if t, ok := hcl.DiagnosticExtra[ruleTagged](d); ok {
		return t.RuleID()
	}
	return ""
}

// ruleTagged is what IDOf looks for.
type ruleTagged interface{ RuleID() string }

// Line is the one line of a diagnostic of rule id: its summary, which
// says what is wrong, and the fix — the summary's own, after " — ", or
// else the rule's.
func Line(id, summary string) string {
	if strings.Contains(summary, " — ") {
		return summary
	}
	if r, ok := Lookup(id); ok && r.Fix != "" {
		return summary + " — " + r.Fix
	}
	return summary
}

// Explain is a rule's full explanation, as agyconf explain and --explain
// print it: what it judges, its severity and what agy does, why, the fix
// and where that is known from.
func Explain(r Rule) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\n", r.ID, r.Severity())
	para := func(label, text string) {
		b.WriteString(wordwrap.WrapString(label+text, explainWidth) + "\n")
	}
	switch r.Of {
	case Files:
		para("Judges: ", "a file agy reads (agyconf validate PATH; render checks what it writes by it too).")
	case Config:
		para("Judges: ", "an agyconf config (validate --config, render and every command that reads one).")
	case Machine:
		para("Judges: ", "this machine, not the config: a warning, which validate --config --strict counts.")
	}
	para("What happens: ", r.Effect.Summary()+".")
	para("Why: ", r.Why)
	if r.Fix != "" {
		para("Fix: ", r.Fix+".")
	}
	if r.Source.Ref != "" {
		para("Source: ", strings.TrimSuffix(r.Source.String(), ".")+"; docs/agy-facts.md says where to read it.")
	}
	return b.String()
}

// explainWidth is the width Explain wraps its paragraphs at.
const explainWidth = 80

// limitRule describes a size rule from agy's table of limits.
func limitRule(id agy.LimitID, why string) string {
	l := agy.LimitOf(id)
	return fmt.Sprintf("%s%s (%s; %s).", strings.ToUpper(l.Summary[:1]), l.Summary[1:], l.Source, why)
}
