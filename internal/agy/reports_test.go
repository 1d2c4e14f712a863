package agy

import (
	"slices"
	"strings"
	"testing"
)

// TestReportsWellFormed: one row per report, each with its command, its
// sources, and either the shape doctor reads or why it reads none; a
// print-mode report names its slash command and a build.
func TestReportsWellFormed(t *testing.T) {
	seen := map[ReportID]bool{}
	for _, r := range Reports() {
		if seen[r.ID] || len(r.Args) == 0 || r.Lists == "" || r.Source.Ref == "" || r.ShapeSource.Ref == "" {
			t.Errorf("report %s: duplicate, or no command, description or source: %+v", r.ID, r)
		}
		seen[r.ID] = true
		if r.Read == (r.Shape == "") || r.Read == (r.Why != "") {
			t.Errorf("report %s: a read report needs its shape, one not read the reason", r.ID)
		}
		if slash := r.Slash(); slash != "" {
			if !strings.HasPrefix(slash, "/") || !r.Since.Known() || !slices.Contains(r.Args, "json") {
				t.Errorf("report %s: slash %q, since %v, args %q", r.ID, slash, r.Since, r.Args)
			}
			// Never a build before the one whose print mode stopped sending
			// slash commands to the model (CLI changelog 1.1.11).
			if !r.Since.AtLeast(V(1, 1, 11)) {
				t.Errorf("report %s: since %v, before print mode answered slash commands", r.ID, r.Since)
			}
		}
	}
	for _, id := range []ReportID{ReportVersion, ReportHooks, ReportMCPList, ReportSkills, ReportPermissions, ReportAgents} {
		if !seen[id] || ReportOf(id).ID != id {
			t.Errorf("report %s has no row", id)
		}
	}
	if v, s := PrintSkillExpansion(); !v.Known() || s.Ref == "" {
		t.Error("PrintSkillExpansion has no version or source")
	}
}
