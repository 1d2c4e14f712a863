package agy

import (
	"path"
	"strings"
	"testing"
)

// TestTablesWellFormed: names are unique, every row has a source, and
// derived names are what the input language, Nix and file names use.
func TestTablesWellFormed(t *testing.T) {
	seen := map[string]bool{}
	for _, e := range Events() {
		for i, n := range []string{string(e.Name), e.Block(), e.Option(), e.Kebab()} {
			key := string(rune('0'+i)) + n // unique among names of one kind
			if seen[key] {
				t.Errorf("event %s: name %q used twice", e.Name, n)
			}
			seen[key] = true
		}
		if e.When == "" || e.Source.Ref == "" || e.Source.Evidence == "" {
			t.Errorf("event %s: no description or source", e.Name)
		}
	}
	if e, _ := EventNamed("PreToolUse"); e.Block() != "pre_tool_use" || e.Option() != "preToolUse" || e.StdinSchema() != "hook-stdin-pre-tool-use" {
		t.Errorf("derived names: %s %s %s", e.Block(), e.Option(), e.StdinSchema())
	}
	if e, ok := EventForBlock("session_start"); !ok || e.Name != SessionStart || !e.Since.Known() {
		t.Errorf("EventForBlock(session_start) = %+v, %v", e, ok)
	}
	if !PreToolUse.Grouped() || Stop.Grouped() || EventName("Nope").Grouped() {
		t.Error("Grouped")
	}

	features := map[Feature]bool{}
	for _, b := range Behaviours() {
		if features[b.Feature] || b.Summary == "" || b.Source.Ref == "" || !b.Since.Known() {
			t.Errorf("behaviour %s: duplicate, or missing summary, source or version", b.Feature)
		}
		features[b.Feature] = true
	}
	if !features[PromptHandlers] {
		t.Error("PromptHandlers has no row")
	}

	for _, id := range []LimitID{SkillBody, RuleBudget, WorkflowBody} {
		if l := LimitOf(id); l.Max <= 0 || l.Unit == "" || l.Source.Ref == "" {
			t.Errorf("limit %s: %+v", id, l)
		}
	}

	for _, k := range Kinds() {
		if k.Summary == "" || k.Source.Ref == "" {
			t.Errorf("kind %s: no summary or source", k.ID)
		}
		for s, byProduct := range k.Places {
			for p, paths := range byProduct {
				for _, q := range paths {
					if path.Clean(q) != q || strings.HasPrefix(q, "/") || strings.HasPrefix(q, "..") {
						t.Errorf("kind %s, %s/%s: %q is not a clean relative path", k.ID, s, p, q)
					}
				}
			}
		}
	}
	if _, ok := KindOf(MCPConfig); !ok {
		t.Error("KindOf(MCPConfig)")
	}
}

// TestLimitsCountOneWay: a limit in characters counts code points, one in
// bytes counts bytes, so 13,000 "é" (26,000 bytes) is over a 24,000-byte
// limit and under a 24,000-character one.
func TestLimitsCountOneWay(t *testing.T) {
	s := strings.Repeat("é", 13000)
	if !(Limit{Max: 24000, Unit: Bytes}).Exceeds(s) {
		t.Error("bytes")
	}
	if (Limit{Max: 24000, Unit: Characters}).Exceeds(s) {
		t.Error("characters")
	}
}

func TestVersion(t *testing.T) {
	for s, ok := range map[string]bool{"1.2.3": true, "0.0.1": true, "1.02.3": false, "1.2": false, "1.2.3.4": false, "a.b.c": false, "": false, "1.2.-3": false} {
		if _, got := ParseVersion(s); got != ok {
			t.Errorf("ParseVersion(%q) = %v", s, got)
		}
	}
	v, _ := ParseVersion("1.1.25")
	if !v.AtLeast(V(1, 1, 25)) || !v.AtLeast(V(1, 0, 99)) || v.AtLeast(V(1, 2, 0)) || (Version{}).AtLeast(V(0, 0, 1)) {
		t.Error("AtLeast")
	}
	if !Has(v, PromptHandlers) || Has(V(1, 1, 24), PromptHandlers) || Has(Version{}, PromptHandlers) {
		t.Error("Has")
	}
}
